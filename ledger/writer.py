"""Writing the ledger. Every entry balances per quantity before it is written; PostgreSQL checks
again at commit. Nothing here updates or deletes a posting: a correction reverses an entry.
It reads and writes rows, and knows no format, standing or result."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from config.bulk_rows import rows_insert
from config.stored_times import times_as_stored
from ledger.models import AccountKind, LedgerEntry, Posting
from rules.errors import InvariantError


@dataclass(frozen=True, slots=True)
class Line:
    quantity: str
    account: str
    amount: int
    player_id: int | None = None

    @classmethod
    def player(cls, quantity: str, player_id: int, amount: int) -> Line:
        return cls(quantity, AccountKind.PLAYER, amount, player_id)

    @classmethod
    def club(cls, quantity: str, amount: int) -> Line:
        return cls(quantity, AccountKind.CLUB, amount)

    @classmethod
    def book(cls, quantity: str, amount: int) -> Line:
        """The book's own account: a game's pot, bank or pool."""
        return cls(quantity, AccountKind.BOOK, amount)


def check_balanced(lines: Iterable[Line]) -> None:
    totals: dict[str, int] = defaultdict(int)
    for line in lines:
        if not isinstance(line.amount, int) or isinstance(line.amount, bool):
            raise InvariantError(f"ledger amounts are whole numbers, not {line.amount!r}")
        totals[line.quantity] += line.amount
    unbalanced = {q: total for q, total in totals.items() if total != 0}
    if unbalanced:
        raise InvariantError(f"ledger entry does not balance: {unbalanced}")


def _balanced(lines: list[Line]) -> list[Line]:
    """The lines an entry posts (a zero amount left out), refused unless they balance."""
    kept = [line for line in lines if line.amount != 0]
    check_balanced(kept)
    return kept


def _postings_create(written: Iterable[tuple[LedgerEntry, list[Line]]]) -> None:
    """The postings of entries just written (each in its entry's book), in one statement."""
    Posting.objects.bulk_create(
        Posting(
            entry=entry, book_id=entry.book_id, quantity=line.quantity, account=line.account,
            player_id=line.player_id, amount=line.amount,
        )
        for entry, lines in written
        for line in lines
    )  # fmt: skip


def ledger_entry_write(
    *,
    book_id: int,
    kind: str,
    lines: list[Line],
    deal_id: int | None = None,
    submission: Any | None = None,
    reverses: LedgerEntry | None = None,
    memo: str = "",
) -> LedgerEntry:
    """Write one balanced entry (lines with a zero amount are left out). Called only by
    ``scoring.posting``, which keeps the player results and the standings in step with it.
    (``submission``: the scoring row whose result the entry posts.)"""
    lines = _balanced(lines)
    entry = LedgerEntry.objects.create(
        book_id=book_id,
        deal_id=deal_id,
        submission=submission,
        kind=kind,
        reverses=reverses,
        memo=memo,
    )
    _postings_create([(entry, lines)])
    return entry


def ledger_entries_write(
    *, kind: str, entries: list[tuple[int, int | None, Any, list[Line], str]]
) -> list[LedgerEntry]:
    """Write many balanced entries at once (an import of past deals): each given as (book id,
    deal id, submission, lines, memo), each checked as ``ledger_entry_write`` checks one, in
    two statements whatever their number and their books (the postings copied in)."""
    kept = [_balanced(lines) for *_, lines, _ in entries]
    made = LedgerEntry.objects.bulk_create(
        LedgerEntry(book_id=book_id, deal_id=deal_id, submission=submission, kind=kind, memo=memo)
        for book_id, deal_id, submission, _, memo in entries
    )
    rows_insert(
        Posting, ["entry_id", "book_id", "quantity", "account", "player_id", "amount"],
        ((entry.pk, entry.book_id, line.quantity, line.account, line.player_id, line.amount)
         for entry, lines in zip(made, kept, strict=True) for line in lines),
    )  # fmt: skip
    return made


def mirror_lines(entry: LedgerEntry) -> list[Line]:
    """The lines that reverse ``entry``: its postings negated."""
    return [
        Line(p.quantity, p.account, -p.amount, p.player_id)
        for p in entry.postings.all().order_by("id")
    ]


def ledger_entry_restore(
    *,
    book_id: int,
    kind: str,
    lines: list[Line],
    deal_id: int | None,
    submission_id: int | None,
    reverses_id: int | None,
    memo: str,
    created_at: datetime,
) -> LedgerEntry:
    """Write one entry of a club's archive as it was first written (its time kept), balanced
    like every other: a club rebuilt from its archive passes the same guards as one played."""
    lines = _balanced(lines)
    with times_as_stored(LedgerEntry):
        entry = LedgerEntry.objects.create(
            book_id=book_id,
            deal_id=deal_id,
            submission_id=submission_id,
            kind=kind,
            reverses_id=reverses_id,
            memo=memo,
            created_at=created_at,
        )
    _postings_create([(entry, lines)])
    return entry
