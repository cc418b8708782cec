"""A session's accounts: books a session holds besides its games' (a tournament's purse is one).
Players pay into an account; it pays out to players with what is left to the club, or gives
everyone back what they paid. The public ledger service for apps above scoring: every entry
balances by construction (the account's own side takes the other side of what its players and
the club gain or give) and counts in the session's standings and settle-up like any other. It
knows nothing of what the money is for.

An account is a book of its own (``SessionAccount``): no table, seat or preset. Its players are
those with postings in it."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from clubs.audit import audit_record
from clubs.models import Player
from config.errors import Conflict
from ledger.books import book_open
from ledger.models import AccountKind, Book, LedgerEntry, Quantity
from ledger.selectors import book_balance, book_player_balances
from ledger.writer import Line
from rules.errors import InvariantError
from rules.money import require_int
from scoring.models import ACCOUNT_BOOK, Session, SessionAccount
from scoring.posting import account_entry_create, account_entry_reverse

MONEY = Quantity.MONEY
CHIPS = Quantity.CHIPS
#: What counts as paid in: fees, less what went back.
PAID_IN_KINDS = (LedgerEntry.Kind.ENTRY_FEE, LedgerEntry.Kind.REFUND)


def _locked(account: Book) -> SessionAccount:
    found = (
        SessionAccount.objects.select_for_update(of=("self",))
        .select_related("session__club")
        .filter(book_id=account.pk)
        .first()
    )
    if found is None:
        raise Conflict(f"book #{account.pk} is no session's account", code="not_account")
    return found


def _require_open(held: SessionAccount) -> None:
    if held.status != SessionAccount.Status.OPEN:
        raise Conflict(f"{held.name} is closed: its money was paid out", code="account_closed")


def _paid_out_lines(held: int, shares: Mapping[int, int]) -> list[Line]:
    """The whole balance paid out: ``shares`` to the players, the rest to the club."""
    paid = sum(shares.values())
    if paid > held:
        raise Conflict(f"the prizes ({paid}) are more than the purse holds ({held})")
    lines = [Line.book(MONEY, -held), Line.club(MONEY, held - paid)]
    return lines + [Line.player(MONEY, pid, amount) for pid, amount in shares.items()]


# --- writes ------------------------------------------------------------------------------------


@transaction.atomic
def account_open(*, session: Session, name: str, actor: AbstractBaseUser | None) -> Book:
    """An open account ``name`` of ``session`` (which must be open): its book."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status != Session.Status.OPEN:
        raise Conflict(f"session {session.name!r} is closed", code="session_closed")
    book = book_open(club_id=session.club_id, owner=ACCOUNT_BOOK)
    account = SessionAccount.objects.create(session=session, book=book, name=name)
    audit_record(
        actor=actor, club=session.club, action="account.open", obj=account,
        after={"session": session.pk, "name": name, "book": book.pk},
    )  # fmt: skip
    return book


@transaction.atomic
def account_pay_in(*, account: Book, player: Player, amount_minor: int, memo: str) -> None:
    """``player`` pays ``amount_minor`` into the open account."""
    held = _locked(account)
    _require_open(held)
    amount = require_int(amount_minor, "entry fee (minor units)", minimum=0, code="bad_amount")
    if amount:
        lines = [Line.player(MONEY, player.pk, -amount), Line.book(MONEY, amount)]
        account_entry_create(account=held, kind=LedgerEntry.Kind.ENTRY_FEE, lines=lines, memo=memo)


@transaction.atomic
def account_refund(*, account: Book, player: Player, memo: str) -> int:
    """What ``player`` paid into the open account goes back to them; returns the amount."""
    held = _locked(account)
    _require_open(held)
    paid = account_paid_in(account=account).get(player.pk, 0)
    if paid:
        lines = [Line.book(MONEY, -paid), Line.player(MONEY, player.pk, paid)]
        account_entry_create(account=held, kind=LedgerEntry.Kind.REFUND, lines=lines, memo=memo)
    return paid


@transaction.atomic
def account_close(
    *, account: Book, actor: AbstractBaseUser | None, shares: Mapping[int, int] | None, memo: str
) -> None:
    """Close the open account: its whole balance paid out, ``shares`` to the players and the
    rest to the club; or, with ``shares`` ``None``, every player given back what they paid in
    (the account abandoned). Audited."""
    held = _locked(account)
    _require_open(held)
    in_it = account_held(account=account)
    kind, lines, status = LedgerEntry.Kind.PAYOUT, [], SessionAccount.Status.PAID_OUT
    if shares is None:
        kind, status, memo = LedgerEntry.Kind.REFUND, SessionAccount.Status.REFUNDED, "refunded"
        paid = account_paid_in(account=account)
        if sum(paid.values()) != in_it:
            raise InvariantError(f"the account holds {in_it}, its players paid in {paid}")
        lines = [Line.book(MONEY, -in_it)]
        lines += [Line.player(MONEY, pid, amount) for pid, amount in paid.items()]
    else:
        lines = _paid_out_lines(in_it, shares)
    entry = account_entry_create(account=held, kind=kind, lines=lines, memo=memo) if in_it else None
    held.status, held.closed_at = status, timezone.now()
    SessionAccount.objects.filter(pk=held.pk).update(status=held.status, closed_at=held.closed_at)
    audit_record(
        actor=actor, club=held.session.club, action="account.close", obj=held,
        before={"status": SessionAccount.Status.OPEN},
        after={"status": status, "entry": entry.pk if entry else None},
    )  # fmt: skip


@transaction.atomic
def account_pay_out_again(
    *, account: Book, shares: Mapping[int, int], memo: str, reversal_memo: str
) -> None:
    """A paid-out account's payout changed: the payout standing is reversed and the balance
    paid out anew (``shares`` to the players, the rest to the club), two entries of its
    history."""
    held = _locked(account)
    if held.status != SessionAccount.Status.PAID_OUT:
        raise Conflict("only a paid-out purse has prizes to post again", code="not_paid_out")
    paid = (
        LedgerEntry.objects.filter(
            book_id=held.book_id, kind=LedgerEntry.Kind.PAYOUT, reversed_by=None
        )
        .order_by("-id")
        .first()
    )
    if paid is not None:
        account_entry_reverse(account=held, entry=paid, memo=reversal_memo)
    in_it = account_held(account=account)
    if in_it:
        lines = _paid_out_lines(in_it, shares)
        account_entry_create(account=held, kind=LedgerEntry.Kind.PAYOUT, lines=lines, memo=memo)


@transaction.atomic
def account_chips_issue(*, account: Book, chips: Mapping[int, int], memo: str) -> None:
    """The open account gives players chips (each player ``+chips``, the account the total
    less): a tournament's opening stacks, a rebuy's."""
    held = _locked(account)
    _require_open(held)
    given = {pid: require_int(n, "chips", minimum=0, code="bad_chips") for pid, n in chips.items()}
    given = {pid: n for pid, n in given.items() if n}
    if not given:
        return
    lines = [Line.player(CHIPS, pid, n) for pid, n in given.items()]
    lines.append(Line.book(CHIPS, -sum(given.values())))
    account_entry_create(account=held, kind=LedgerEntry.Kind.OPENING, lines=lines, memo=memo)


@transaction.atomic
def account_chips_move(*, account: Book, moves: Mapping[int, int], memo: str) -> None:
    """Chips change hands among the account's players (``moves`` sum to zero): what they won
    and lost at a table, kept where the account keeps their chips."""
    held = _locked(account)
    _require_open(held)
    if sum(moves.values()) != 0:
        raise InvariantError(f"chip moves must sum to zero, not {sum(moves.values())}")
    lines = [Line.player(CHIPS, pid, n) for pid, n in moves.items() if n]
    if lines:
        account_entry_create(account=held, kind=LedgerEntry.Kind.SETTLEMENT, lines=lines, memo=memo)


# --- reads -------------------------------------------------------------------------------------


def account_is_open(*, account: Book) -> bool:
    """Whether the account still takes fees (it has not been paid out or refunded)."""
    return SessionAccount.objects.filter(
        book_id=account.pk, status=SessionAccount.Status.OPEN
    ).exists()


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
