"""A tournament's purse in the ledger (its entry fees, prizes and refunds), and deleting a game
set up by mistake. Keyword-only, atomic, audited."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

from clubs.audit import audit_record
from clubs.models import Player
from config.errors import Conflict
from scoring.formats import handler_for
from scoring.formats.base import require_open_game
from scoring.formats.purse import PurseFormat
from scoring.formats.reads import account_balance
from scoring.games import game_lock as _lock_game
from scoring.models import (
    AccountKind,
    Game,
    GameFormat,
    LedgerEntry,
    Quantity,
    RulePreset,
    Seat,
    Session,
    Table,
)
from scoring.nights import require_open_session as _require_open_session
from scoring.posting import ledger_entry_create, ledger_entry_reverse
from scoring.undo import delete_unless_held as _delete_unless_held
from scoring.undo import require_nothing_posted as _require_nothing_posted


@transaction.atomic
def game_delete(*, game: Game, actor: AbstractBaseUser) -> int:
    """Delete a game set up by mistake: no deal and nothing in the ledger (no fee paid)."""
    game = _lock_game(game)
    if not handler_for(game).has_deals:  # a tournament's purse
        raise Conflict("a tournament's purse goes with its tournament", code="not_empty")
    _require_nothing_posted([game], f"game #{game.pk}")
    game_id = game.pk
    audit_record(
        actor=actor, club=game.table.session.club, action="game.delete", obj=game,
        before={"table": game.table_id, "format": game.format},
    )  # fmt: skip
    _delete_unless_held(game, f"game #{game.pk}")
    return game_id


# --- a tournament's purse ---------------------------------------------------------------------


@transaction.atomic
def purse_open(*, session: Session, actor: AbstractBaseUser, preset: RulePreset) -> Game:
    """A purse for a tournament's entry fees and prizes: a game of its own at a table "Purse"
    of the tournament's session (its preset is the tournament's, for the record)."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    _require_open_session(session)
    table = Table.objects.create(session=session, name="Purse")
    game = Game.objects.create(table=table, format=GameFormat.PURSE, preset=preset)
    audit_record(
        actor=actor, club=session.club, action="purse.open", obj=game, after={"table": table.pk}
    )
    return game


@transaction.atomic
def purse_pay_in(*, game: Game, actor: AbstractBaseUser, player: Player, fee_minor: int) -> Seat:
    """An entrant pays the entry fee into the purse (and takes a seat of it, once)."""
    game = _lock_game(game)
    handler = handler_for(game)
    if not isinstance(handler, PurseFormat):
        raise Conflict("only a tournament's purse takes entry fees", code="not_purse")
    require_open_game(game)
    seat = game.seats.filter(player=player).first()
    if seat is None:
        position = (game.seats.aggregate(m=Max("position"))["m"] or 0) + 1
        seat = Seat.objects.create(game=game, player=player, position=position)
    if fee_minor:
        ledger_entry_create(
            game=game,
            kind=LedgerEntry.Kind.ENTRY_FEE,
            lines=handler.fee_lines(player_id=player.pk, fee_minor=fee_minor),
            memo=f"{player.name}: entry fee",
        )
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="purse.pay_in",
        obj=game,
        after={"player": player.pk, "fee_minor": fee_minor},
    )
    return seat


@transaction.atomic
def purse_prizes_repost(
    *, game: Game, actor: AbstractBaseUser | None, shares: dict[int, int]
) -> None:
    """A finished tournament's places changed (a corrected final): the prizes paid are reversed
    and the new ones posted, two entries of the purse's ledger, so its history shows both."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("table__session__club")
        .get(pk=game.pk)
    )
    handler = handler_for(game)
    if not isinstance(handler, PurseFormat) or game.status != Game.Status.FINISHED:
        raise Conflict("only a paid-out purse has prizes to post again", code="not_purse")
    paid = (
        LedgerEntry.objects.filter(game=game, kind=LedgerEntry.Kind.PAYOUT, reversed_by=None)
        .order_by("-id")
        .first()
    )
    if paid is not None:
        ledger_entry_reverse(entry=paid, memo="tournament prizes: places corrected")
    pot = account_balance(game, Quantity.MONEY, AccountKind.GAME)
    if pot:
        ledger_entry_create(
            game=game, kind=LedgerEntry.Kind.PAYOUT, memo="tournament prizes, corrected",
            lines=handler.prize_lines(pot_minor=pot, shares=shares),
        )  # fmt: skip
    audit_record(
        actor=actor, club=game.table.session.club, action="purse.prizes_repost", obj=game,
        after={"shares": {str(k): v for k, v in shares.items()}},
    )  # fmt: skip


@transaction.atomic
def purse_refund(*, game: Game, actor: AbstractBaseUser, player: Player) -> int:
    """What an entrant paid into the purse goes back to them; returns the amount."""
    game = _lock_game(game)
    handler = handler_for(game)
    if not isinstance(handler, PurseFormat):
        raise Conflict("only a tournament's purse refunds entry fees", code="not_purse")
    require_open_game(game)
    lines = handler.refund_lines(game=game, player_id=player.pk)
    paid = lines[1].amount
    if paid:
        ledger_entry_create(
            game=game, kind=LedgerEntry.Kind.REFUND, lines=lines, memo=f"{player.name}: refund"
        )
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="purse.refund",
        obj=game,
        after={"player": player.pk, "refund_minor": paid},
    )
    return paid
