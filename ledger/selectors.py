"""Balances read from a book's postings: one query each, whatever the book holds."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Sum

from ledger.models import AccountKind, Posting


def book_balance(*, book_id: int, quantity: str, account: str) -> int:
    """What ``account`` (the book's own, or the club's) holds of ``quantity`` in the book."""
    total = (
        Posting.objects.filter(book_id=book_id, quantity=quantity, account=account)
        .aggregate(total=Sum("amount"))
        .get("total")
    )
    return int(total or 0)


def book_player_balances(
    *, book_id: int, quantity: str, kinds: Iterable[str] | None = None, reversed_too: bool = True
) -> dict[int, int]:
    """Each player's net ``quantity`` in the book, for every player it has a posting of (0 for
    one whose postings net out), by player id; only entries of ``kinds`` when given, and
    without the entries a later one reversed when ``reversed_too`` is false."""
    postings = Posting.objects.filter(
        book_id=book_id, quantity=quantity, account=AccountKind.PLAYER
    )
    if kinds is not None:
        postings = postings.filter(entry__kind__in=list(kinds))
    if not reversed_too:
        postings = postings.filter(entry__reversed_by=None)
    rows = postings.values_list("player_id").annotate(total=Sum("amount")).order_by("player_id")
    return {player_id: int(total) for player_id, total in rows}


def book_balances(*, book_id: int) -> list[tuple[str, str, int | None, int]]:
    """Every balance in the book: (quantity, account, player id or None, total), ordered."""
    rows = (
        Posting.objects.filter(book_id=book_id)
        .values_list("quantity", "account", "player_id")
        .annotate(total=Sum("amount"))
        .order_by("quantity", "account", "player_id")
    )
    return [(str(q), str(a), p, int(t)) for q, a, p, t in rows]
