"""What pool rummy's players do besides deals: an eliminated player rejoining, and the
remaining players agreeing to split the prize (which ends the game). Keyword-only, atomic,
audited.

Services, in the pool's package: they write through the services above the formats (the game's
lock, the one writer, the one way a game ends), as the import contracts allow a format's moves
alone; only the API, the pages and the demo import them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from clubs.models import Player
from config.errors import Conflict, InvalidInput
from ledger.models import LedgerEntry
from rules.errors import RuleViolation
from scoring.formats.base import GameEnd, not_pool
from scoring.formats.pool.handler import PoolFormat
from scoring.formats.pool.pages import rejoin_reason
from scoring.games import game_lock
from scoring.lifecycle import game_end
from scoring.models import Game
from scoring.posting import ledger_entry_create
from scoring.preset_rules import game_rules
from scoring.rule_words import english

POOL = PoolFormat()


def _pool_game(game: Game, moves: str) -> Game:
    """The game, locked; refused when it is not pool rummy."""
    game = game_lock(game)
    if game.format != POOL.format:
        raise not_pool(game, moves)
    return game


def _rules_error(exc: RuleViolation, game: Game) -> Conflict:
    """The engine's refusal, in the request's language (the words the game page uses)."""
    details = {"token": exc.token, **exc.details}
    message = exc.message
    if not english():
        names = {seat.player_id: seat.player.name for seat in game.seats.select_related("player")}
        message = rejoin_reason(exc.code, exc.message, details, names)
    return Conflict(message, code=exc.code, details=details)


@transaction.atomic
def pool_rejoin(*, game: Game, actor: AbstractBaseUser, player: Player) -> int:
    """An eliminated player buys in again; returns the score they come back at."""
    game = _pool_game(game, "rejoins")
    try:
        lines, score = POOL.rejoin_lines(
            game=game, rules=game_rules(game.preset), player_id=player.pk
        )
    except RuleViolation as exc:
        raise _rules_error(exc, game) from None
    entry = ledger_entry_create(
        game=game, kind=LedgerEntry.Kind.REJOIN, lines=lines, memo=f"{player.name} rejoins"
    )
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="pool.rejoin",
        obj=entry,
        after={"game": game.pk, "player": player.pk, "score": score},
    )
    return score


@transaction.atomic
def pool_split(
    *, game: Game, actor: AbstractBaseUser, kind: str, agreed: list[Player]
) -> dict[int, int]:
    """Record an agreed split of the prize pool and end the game with it: every remaining player
    must be among ``agreed``, and the split must be offered now."""
    game = _pool_game(game, "splits")
    try:
        shares, remaining = POOL.split_shares(game=game, rules=game_rules(game.preset), kind=kind)
    except RuleViolation as exc:
        raise _rules_error(exc, game) from None
    agreed_ids = {p.pk for p in agreed}
    missing = [pid for pid in remaining if pid not in agreed_ids]
    if missing:
        names = ", ".join(game.seats.get(player_id=pid).player.name for pid in missing)
        raise Conflict(
            _("every remaining player must agree to a split; not agreed: %(names)s")
            % {"names": names},
            code="split_not_agreed",
            details={"missing": missing},
        )
    extra = sorted(agreed_ids - set(remaining))
    if extra:
        raise InvalidInput(
            "agreed: " + _("player #%(id)s is not among the remaining players") % {"id": extra[0]},
            code="not_remaining",
        )
    game_end(game=game, actor=actor, end=GameEnd.SPLIT, shares=shares)
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="pool.split",
        obj=game,
        after={"game": game.pk, "kind": kind, "shares": {str(k): v for k, v in shares.items()}},
    )
    return shares


def pool_split_offer(*, game: Game) -> dict[str, Any]:
    """The splits the game offers now and what each would pay, in minor units (none but in an
    open pool)."""
    if game.format != POOL.format:
        return {"offers": [], "shares_minor": {}}
    offers = POOL.split_offers(game=game, rules=game_rules(game.preset))
    shares = {
        kind: {str(pid): amount for pid, amount in paid.items()} for kind, paid in offers.items()
    }
    return {"offers": list(offers), "shares_minor": shares}
