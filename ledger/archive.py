"""A club's ledger as its archive carries it: every entry of the club's books with its postings,
in the order they were written. Restoring goes through ``ledger.writer.ledger_entry_restore``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from ledger.models import LedgerEntry, Posting

_CHUNK = 500


def club_entries(*, club_id: int) -> Iterator[dict[str, Any]]:
    """Each entry of the club's books (ids as stored), its postings in ``postings``."""
    entry_ids = list(
        LedgerEntry.objects.filter(book__club_id=club_id)
        .order_by("id")
        .values_list("id", flat=True)
    )
    for start in range(0, len(entry_ids), _CHUNK):
        chunk = entry_ids[start : start + _CHUNK]
        lines: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for posting in Posting.objects.filter(entry_id__in=chunk).order_by("id"):
            lines[posting.entry_id].append(
                {
                    "quantity": posting.quantity,
                    "account": posting.account,
                    "player_id": posting.player_id,
                    "amount": posting.amount,
                }
            )
        for entry in LedgerEntry.objects.filter(id__in=chunk).order_by("id"):
            yield {
                "id": entry.pk,
                "book_id": entry.book_id,
                "kind": entry.kind,
                "deal_id": entry.deal_id,
                "submission_id": entry.submission_id,
                "reverses_id": entry.reverses_id,
                "memo": entry.memo,
                "created_at": entry.created_at.isoformat(),
                "postings": lines[entry.pk],
            }
