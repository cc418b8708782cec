"""A session's accounts: books a session holds besides its games' (a tournament's purse is one).
Players pay into an account; it pays out to players with what is left to the club, or gives
everyone back what they paid. The public service for apps above scoring to change one: the
account's row locked, the lines the ledger's accounts build (``ledger.accounts``, balanced by
construction) written through ``scoring.posting`` so that they count in the session's standings
and settle-up like any other entry, and the change audited. What an account holds is read from
its book by ``ledger.accounts``. It knows nothing of what the money is for.

An account is a book of its own (``SessionAccount``): no table, seat or preset. Its players are
those with postings in it."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from clubs.models import Player
from config.errors import Conflict
from ledger.accounts import (
    account_held,
    account_paid_in,
    account_payout_standing,
    chips_issue_lines,
    chips_move_lines,
    fee_lines,
    payout_lines,
    refund_lines,
)
from ledger.books import book_open
from ledger.models import Book, LedgerEntry
from ledger.writer import Line
from rules.errors import InvariantError
from scoring.models import ACCOUNT_BOOK, Session, SessionAccount
from scoring.posting import account_entry_create, account_entry_reverse


def _locked(account: Book) -> SessionAccount:
    found = (
        SessionAccount.objects.select_for_update(of=("self",))
        .select_related("session__club")
        .filter(book_id=account.pk)
        .first()
    )
    if found is None:
        raise Conflict(
            _("book #%(id)s is no session's account") % {"id": account.pk}, code="not_account"
        )
    return found


def _require_open(held: SessionAccount) -> None:
    if held.status != SessionAccount.Status.OPEN:
        raise Conflict(
            _("%(account)s is closed: its money was paid out") % {"account": held.name},
            code="account_closed",
        )


def _post(held: SessionAccount, kind: str, lines: list[Line], memo: str) -> LedgerEntry | None:
    """The account's entry of ``lines``, if they move anything."""
    return account_entry_create(account=held, kind=kind, lines=lines, memo=memo) if lines else None


# --- writes ------------------------------------------------------------------------------------


@transaction.atomic
def account_open(*, session: Session, name: str, actor: AbstractBaseUser | None) -> Book:
    """An open account ``name`` of ``session`` (which must be open): its book."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status != Session.Status.OPEN:
        raise Conflict(
            _("session %(name)s is closed") % {"name": repr(session.name)}, code="session_closed"
        )
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
    lines = fee_lines(player_id=player.pk, amount_minor=amount_minor)
    _post(held, LedgerEntry.Kind.ENTRY_FEE, lines, memo)


@transaction.atomic
def account_refund(*, account: Book, player: Player, memo: str) -> int:
    """What ``player`` paid into the open account goes back to them; returns the amount."""
    held = _locked(account)
    _require_open(held)
    paid = account_paid_in(account=account).get(player.pk, 0)
    _post(held, LedgerEntry.Kind.REFUND, refund_lines(paid={player.pk: paid}), memo)
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
    if shares is None:
        kind, status, memo = LedgerEntry.Kind.REFUND, SessionAccount.Status.REFUNDED, "refunded"
        paid = account_paid_in(account=account)
        if sum(paid.values()) != in_it:
            raise InvariantError(f"the account holds {in_it}, its players paid in {paid}")
        lines = refund_lines(paid=paid)
    else:
        kind, status = LedgerEntry.Kind.PAYOUT, SessionAccount.Status.PAID_OUT
        lines = payout_lines(held=in_it, shares=shares)
    entry = _post(held, kind, lines, memo)
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
        raise Conflict(_("only a paid-out purse has prizes to post again"), code="not_paid_out")
    paid = account_payout_standing(account=account)
    if paid is not None:
        account_entry_reverse(account=held, entry=paid, memo=reversal_memo)
    lines = payout_lines(held=account_held(account=account), shares=shares)
    _post(held, LedgerEntry.Kind.PAYOUT, lines, memo)


@transaction.atomic
def account_chips_issue(*, account: Book, chips: Mapping[int, int], memo: str) -> None:
    """The open account gives players chips (each player ``+chips``, the account the total
    less): a tournament's opening stacks, a rebuy's."""
    held = _locked(account)
    _require_open(held)
    _post(held, LedgerEntry.Kind.OPENING, chips_issue_lines(chips=chips), memo)


@transaction.atomic
def account_chips_move(*, account: Book, moves: Mapping[int, int], memo: str) -> None:
    """Chips change hands among the account's players (``moves`` sum to zero): what they won
    and lost at a table, kept where the account keeps their chips."""
    held = _locked(account)
    _require_open(held)
    _post(held, LedgerEntry.Kind.SETTLEMENT, chips_move_lines(moves=moves), memo)


# --- reads -------------------------------------------------------------------------------------


def account_is_open(*, account: Book) -> bool:
    """Whether the account still takes fees (it has not been paid out or refunded)."""
    return SessionAccount.objects.filter(
        book_id=account.pk, status=SessionAccount.Status.OPEN
    ).exists()
