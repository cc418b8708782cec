"""A money account held by a session, outside the games played there: players pay into it, it
pays out to players with what is left to the club, or gives everyone back what they paid. The
public ledger service for apps above scoring (a tournament's fees and prizes are one): every
entry balances by construction (the account takes the other side of what its players and the
club gain or give), and is in the players' money, the standings and the night's settle-up (as a
pot held) like any other. It knows nothing of what the money is for.

The ledger needs a game for each entry: an account is a ``Game`` row of format ``purse`` at a
table of its own, with a seat for each player who paid in. It has no deals and no format
handler; it ends through :func:`account_close`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, QuerySet, Sum

from clubs.models import Player
from config.errors import Conflict
from ledger.books import book_open
from ledger.models import AccountKind, LedgerEntry, Posting, Quantity
from ledger.writer import Line
from rules.errors import InvariantError
from rules.money import require_int
from scoring.formats import EndEntry, GameEnd, GameState
from scoring.formats.reads import (
    account_balance,
    player_paid_in,
    seated_balances,
    seated_players,
)
from scoring.lifecycle import game_close
from scoring.models import GAME_BOOK, Game, GameFormat, RulePreset, Seat, Session, Table
from scoring.posting import ledger_entry_create, ledger_entry_reverse

MONEY = Quantity.MONEY
CHIPS = Quantity.CHIPS
#: What an account's ``format`` says (its state's tag in the game state's schema).
ACCOUNT_FORMAT: str = GameFormat.PURSE.value


@dataclass
class AccountState(GameState):
    """An account as the game state API shows it: who paid in what, and what it holds."""

    pot_minor: int = 0
    paid_in: dict[str, int] = field(default_factory=dict)


def games_played(games: QuerySet[Game]) -> QuerySet[Game]:
    """Of ``games``, those played in a format (not a session's account)."""
    return games.exclude(format=GameFormat.PURSE)


def is_account(game: Game) -> bool:
    """Whether a ledger holder is an account rather than a game played in a format."""
    return game.format == GameFormat.PURSE


def _locked(account: Game) -> Game:
    found = (
        Game.objects.select_for_update(of=("self",))
        .select_related("table__session__club")
        .get(pk=account.pk)
    )
    if not is_account(found):
        raise Conflict(f"game #{found.pk} is played in a format, not an account", code="not_purse")
    return found


def _require_open(account: Game) -> None:
    if account.status != Game.Status.OPEN:
        raise Conflict("this game has finished", code="game_finished")


def _paid_out_lines(held: int, shares: Mapping[int, int]) -> list[Line]:
    """The whole balance paid out: ``shares`` to the players, the rest to the club."""
    paid = sum(shares.values())
    if paid > held:
        raise Conflict(f"the prizes ({paid}) are more than the purse holds ({held})")
    lines = [Line.book(MONEY, -held), Line.club(MONEY, held - paid)]
    return lines + [Line.player(MONEY, pid, amount) for pid, amount in shares.items()]


# --- writes ------------------------------------------------------------------------------------


@transaction.atomic
def account_open(*, session: Session, name: str, preset: RulePreset) -> Game:
    """An open account of ``session`` at a table ``name`` of its own (``preset``: the rules it
    is kept for, for the record); the session must be open."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status != Session.Status.OPEN:
        raise Conflict(f"session {session.name!r} is closed", code="session_closed")
    table = Table.objects.create(session=session, name=name)
    book = book_open(club_id=session.club_id, owner=GAME_BOOK)
    return Game.objects.create(table=table, book=book, format=GameFormat.PURSE, preset=preset)


def account_tables(*, tables: Iterable[int]) -> set[int]:
    """Of ``tables`` (ids), those that hold an account: no game is started, and no deal entered,
    at an account's table."""
    return set(
        Game.objects.filter(table_id__in=list(tables), format=ACCOUNT_FORMAT).values_list(
            "table_id", flat=True
        )
    )


def account_table_refused(table: Table, doing: str) -> Conflict:
    """The error for ``doing`` something meant for a game's table at an account's table."""
    return Conflict(
        f"table: {table.name} holds the night's account (a tournament's purse), where no game "
        f"is played: {doing}",
        code="account_table",
    )


@transaction.atomic
def account_pay_in(*, account: Game, player: Player, amount_minor: int, memo: str) -> Seat:
    """``player`` pays ``amount_minor`` into the open account (and has a seat of it, once)."""
    account = _locked(account)
    _require_open(account)
    amount = require_int(amount_minor, "entry fee (minor units)", minimum=0, code="bad_amount")
    seat = account.seats.filter(player=player).first()
    if seat is None:
        position = (account.seats.aggregate(m=Max("position"))["m"] or 0) + 1
        seat = Seat.objects.create(game=account, player=player, position=position)
    if amount:
        lines = [Line.player(MONEY, player.pk, -amount), Line.book(MONEY, amount)]
        ledger_entry_create(game=account, kind=LedgerEntry.Kind.ENTRY_FEE, lines=lines, memo=memo)
    return seat


@transaction.atomic
def account_refund(*, account: Game, player: Player, memo: str) -> int:
    """What ``player`` paid into the open account goes back to them, and they leave its roster
    (their seat); returns the amount."""
    account = _locked(account)
    _require_open(account)
    paid = account_paid_in(account=account).get(player.pk, 0)
    if paid:
        lines = [Line.book(MONEY, -paid), Line.player(MONEY, player.pk, paid)]
        ledger_entry_create(game=account, kind=LedgerEntry.Kind.REFUND, lines=lines, memo=memo)
    account.seats.filter(player=player).delete()
    return paid


@transaction.atomic
def account_close(
    *, account: Game, actor: AbstractBaseUser | None, shares: Mapping[int, int] | None, memo: str
) -> Game:
    """Close the open account: its whole balance paid out, ``shares`` to the players and the
    rest to the club; or, with ``shares`` ``None``, every player given back what they paid in
    (the account abandoned). Marked finished, audited and announced as a game's end is."""
    account = _locked(account)
    _require_open(account)
    held = account_held(account=account)
    entries: list[EndEntry] = []
    if shares is None:
        end = GameEnd.ABANDONED
        paid = account_paid_in(account=account)
        if sum(paid.values()) != held:
            raise InvariantError(f"the pot holds {held}, the players paid in {sum(paid.values())}")
        if held:
            lines = [Line.book(MONEY, -held)]
            lines += [Line.player(MONEY, pid, amount) for pid, amount in paid.items()]
            entries.append(EndEntry(LedgerEntry.Kind.REFUND, lines, "pot refunded"))
    else:
        end = GameEnd.PLAYED_OUT
        lines = _paid_out_lines(held, shares)
        if held:
            entries.append(EndEntry(LedgerEntry.Kind.PAYOUT, lines, memo))
    return game_close(game=account, actor=actor, end=end, entries=entries)


@transaction.atomic
def account_pay_out_again(
    *, account: Game, shares: Mapping[int, int], memo: str, reversal_memo: str
) -> None:
    """A closed account's payout changed: the payout standing is reversed and the balance paid
    out anew (``shares`` to the players, the rest to the club), two entries of its history."""
    account = _locked(account)
    if account.status != Game.Status.FINISHED:
        raise Conflict("only a paid-out purse has prizes to post again", code="not_purse")
    paid = (
        LedgerEntry.objects.filter(
            book_id=account.book_id, kind=LedgerEntry.Kind.PAYOUT, reversed_by=None
        )
        .select_related("book__game__table__session")
        .order_by("-id")
        .first()
    )
    if paid is not None:
        ledger_entry_reverse(entry=paid, memo=reversal_memo)
    held = account_held(account=account)
    if held:
        lines = _paid_out_lines(held, shares)
        ledger_entry_create(game=account, kind=LedgerEntry.Kind.PAYOUT, lines=lines, memo=memo)


@transaction.atomic
def account_chips_issue(*, account: Game, chips: Mapping[int, int], memo: str) -> None:
    """The open account gives players chips (each player ``+chips``, the account the total
    less): a tournament's opening stacks, a rebuy's. Each player must have a seat of it."""
    account = _locked(account)
    _require_open(account)
    given = {pid: require_int(n, "chips", minimum=0, code="bad_chips") for pid, n in chips.items()}
    given = {pid: n for pid, n in given.items() if n}
    if not given:
        return
    lines = [Line.player(CHIPS, pid, n) for pid, n in given.items()]
    lines.append(Line.book(CHIPS, -sum(given.values())))
    ledger_entry_create(game=account, kind=LedgerEntry.Kind.OPENING, lines=lines, memo=memo)


@transaction.atomic
def account_chips_move(*, account: Game, moves: Mapping[int, int], memo: str) -> None:
    """Chips change hands among the account's players (``moves`` sum to zero): what they won
    and lost at a table, kept where the account keeps their chips."""
    account = _locked(account)
    _require_open(account)
    if sum(moves.values()) != 0:
        raise InvariantError(f"chip moves must sum to zero, not {sum(moves.values())}")
    lines = [Line.player(CHIPS, pid, n) for pid, n in moves.items() if n]
    if lines:
        ledger_entry_create(game=account, kind=LedgerEntry.Kind.SETTLEMENT, lines=lines, memo=memo)


# --- reads -------------------------------------------------------------------------------------


def account_held(*, account: Game) -> int:
    """What the account holds now, in minor units."""
    return account_balance(account, MONEY, AccountKind.BOOK)


def account_paid_in(*, account: Game) -> dict[int, int]:
    """What each player has paid into the account, less what went back to them."""
    return player_paid_in(account, MONEY)


def account_chips(*, account: Game) -> dict[int, int]:
    """Each player's chips kept in the account (every seated player, 0 for one with none)."""
    return seated_balances(account, CHIPS)


def account_paid_out(*, account: Game) -> dict[int, int]:
    """What each player received from the account's payout standing (one reversed counts for
    nothing), by player."""
    rows = (
        Posting.objects.filter(
            book_id=account.book_id,
            quantity=MONEY,
            account=AccountKind.PLAYER,
            entry__kind=LedgerEntry.Kind.PAYOUT,
            entry__reversed_by=None,
        )
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    return {pid: int(total) for pid, total in rows if total}


def account_state(*, account: Game) -> AccountState:
    paid = account_paid_in(account=account)
    return AccountState(
        format=account.format,
        status=account.status,
        players=[{"player": pid, "name": name} for pid, name in seated_players(account).items()],
        pot_minor=account_held(account=account),
        paid_in={str(pid): amount for pid, amount in paid.items()},
    )
