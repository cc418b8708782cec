"""An account's money, by its book: what paying in, giving back, paying out and keeping chips
write, and what an account holds. Every set of lines balances by construction: the book's own
account takes the other side of what its players and the club gain or give.

It knows nothing of who holds the book (a session's account today; a club's or a season's fund
later) nor of standings: the holder's service locks its own row, writes these lines through its
writer and audits the change. An account's players are those with postings in its book."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from config.errors import Conflict
from ledger.models import AccountKind, Book, LedgerEntry, Quantity
from ledger.selectors import book_balance, book_player_balances
from ledger.writer import Line
from rules.errors import InvariantError
from rules.money import require_int

MONEY = Quantity.MONEY
CHIPS = Quantity.CHIPS
#: What counts as paid in: fees, less what went back.
PAID_IN_KINDS = (LedgerEntry.Kind.ENTRY_FEE, LedgerEntry.Kind.REFUND)


# --- what each change writes ---------------------------------------------------------------------


def fee_lines(*, player_id: int, amount_minor: int) -> list[Line]:
    """``player_id`` pays ``amount_minor`` into the account (nothing for a fee of 0)."""
    amount = require_int(amount_minor, "entry fee (minor units)", minimum=0, code="bad_amount")
    if not amount:
        return []
    return [Line.player(MONEY, player_id, -amount), Line.book(MONEY, amount)]


def refund_lines(*, paid: Mapping[int, int]) -> list[Line]:
    """Each player of ``paid`` given back what they paid in, out of the account."""
    back = {pid: amount for pid, amount in paid.items() if amount}
    if not back:
        return []
    lines = [Line.book(MONEY, -sum(back.values()))]
    return lines + [Line.player(MONEY, pid, amount) for pid, amount in back.items()]


def payout_lines(*, held: int, shares: Mapping[int, int]) -> list[Line]:
    """The whole balance ``held`` paid out: ``shares`` to the players, the rest to the club."""
    paid = sum(shares.values())
    if any(amount < 0 for amount in shares.values()):
        raise InvariantError(f"a prize is never negative: {dict(shares)}")
    if paid > held:
        raise Conflict(
            _("the prizes (%(paid)s) are more than the purse holds (%(held)s)")
            % {"paid": paid, "held": held}
        )
    if not held:
        return []
    lines = [Line.book(MONEY, -held), Line.club(MONEY, held - paid)]
    return lines + [Line.player(MONEY, pid, amount) for pid, amount in shares.items()]


def chips_issue_lines(*, chips: Mapping[int, int]) -> list[Line]:
    """The account gives players chips (each player ``+chips``, the account the total less): a
    tournament's opening stacks, a rebuy's."""
    given = {pid: require_int(n, "chips", minimum=0, code="bad_chips") for pid, n in chips.items()}
    given = {pid: n for pid, n in given.items() if n}
    if not given:
        return []
    return [
        *(Line.player(CHIPS, pid, n) for pid, n in given.items()),
        Line.book(CHIPS, -sum(given.values())),
    ]


def chips_move_lines(*, moves: Mapping[int, int]) -> list[Line]:
    """Chips change hands among the account's players (``moves`` sum to zero): what they won and
    lost at a table, kept where the account keeps their chips."""
    if sum(moves.values()) != 0:
        raise InvariantError(f"chip moves must sum to zero, not {sum(moves.values())}")
    return [Line.player(CHIPS, pid, n) for pid, n in moves.items() if n]


# --- what an account holds -----------------------------------------------------------------------


def account_held(*, account: Book) -> int:
    """What the account holds now, in minor units."""
    return book_balance(book_id=account.pk, quantity=MONEY, account=AccountKind.BOOK)


def account_paid_in(*, account: Book) -> dict[int, int]:
    """What each player has paid into the account, less what went back to them."""
    paid = book_player_balances(book_id=account.pk, quantity=MONEY, kinds=PAID_IN_KINDS)
    return {pid: -total for pid, total in paid.items() if total}


def account_chips(*, account: Book) -> dict[int, int]:
    """Each player's chips kept in the account (every player it gave chips to, 0 for one with
    none left)."""
    return book_player_balances(book_id=account.pk, quantity=CHIPS)


def account_paid_out(*, account: Book) -> dict[int, int]:
    """What each player received from the account's payout standing (one reversed counts for
    nothing), by player."""
    paid = book_player_balances(
        book_id=account.pk, quantity=MONEY, kinds=[LedgerEntry.Kind.PAYOUT], reversed_too=False
    )
    return {pid: total for pid, total in paid.items() if total}


def account_payout_standing(*, account: Book) -> LedgerEntry | None:
    """The account's payout that still stands (none reversed it), if it has paid out."""
    return (
        LedgerEntry.objects.filter(
            book_id=account.pk, kind=LedgerEntry.Kind.PAYOUT, reversed_by=None
        )
        .order_by("-id")
        .first()
    )
