"""Books and their owners. A book is opened for an owner of a registered kind (``OWNERS``); an
app that holds money in a new kind of thing registers it once (its ``AppConfig.ready``) and
opens its books here."""

from __future__ import annotations

from collections.abc import Iterable

from ledger.models import Book, LedgerEntry
from rules.errors import InvariantError

#: The longest kind of owner (``Book.owner``'s column).
OWNER_LENGTH = 16
#: The kinds of thing that hold books, each registered by the app that owns them.
OWNERS: set[str] = set()


def owner_register(kind: str) -> None:
    """Make ``kind`` a kind of book owner (once, when its app is ready)."""
    if not 0 < len(kind) <= OWNER_LENGTH:
        raise InvariantError(f"a book owner's kind is 1 to 16 characters, not {kind!r}")
    OWNERS.add(kind)


def book_open(*, club_id: int, owner: str) -> Book:
    """A new book of ``club_id`` held by an owner of kind ``owner``."""
    if owner not in OWNERS:
        raise InvariantError(f"no book owner {owner!r} is registered (ledger.books.OWNERS)")
    return Book.objects.create(club_id=club_id, owner=owner)


def books_open(*, club_id: int, owner: str, count: int) -> list[Book]:
    """``count`` new books of ``club_id``, each held by an owner of kind ``owner``, at once."""
    if owner not in OWNERS:
        raise InvariantError(f"no book owner {owner!r} is registered (ledger.books.OWNERS)")
    return Book.objects.bulk_create(Book(club_id=club_id, owner=owner) for _ in range(count))


def books_discard(*, book_ids: Iterable[int]) -> int:
    """Delete those of ``book_ids`` that hold no entry: their owners were deleted before anything
    was posted (a game or night set up by mistake). A book with an entry is history and stays
    (its entries protect it). Returns how many went."""
    empty = Book.objects.filter(pk__in=list(book_ids)).exclude(
        pk__in=LedgerEntry.objects.values("book_id")
    )
    return empty.delete()[0]
