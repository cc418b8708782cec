"""What differs between game formats, behind one interface the submission flow calls.

Each format says who must appear in a deal, how a submission is checked and scored (through the
rules engine), which ledger lines a counted deal writes, what happens to the game after it
(eliminations, a finished game, a payout), and what its state looks like. Every state is derived
from the ledger, so it always equals a recomputation."""

from __future__ import annotations

from config.errors import Conflict
from scoring.formats.common import Checked, GameFormatHandler
from scoring.formats.deals import DealsFormat
from scoring.formats.points import PointsFormat
from scoring.formats.pool import PoolFormat
from scoring.formats.rummikub import RummikubFormat
from scoring.models import Game
from scoring.presets import GameRules, game_rules

HANDLERS: dict[str, GameFormatHandler] = {
    "points": PointsFormat(),
    "pool": PoolFormat(),
    "deals": DealsFormat(),
    "rummikub": RummikubFormat(),
}


def handler_for(game: Game) -> GameFormatHandler:
    try:
        return HANDLERS[game.format]
    except KeyError:
        raise Conflict(f"unknown game format {game.format!r}", code="format_unsupported") from None


def game_opened(*, game: Game, rules: GameRules) -> None:
    handler_for(game).game_opened(game=game, rules=rules)


def deal_check_can_start(*, game: Game, is_tiebreaker: bool) -> None:
    handler_for(game).deal_check_can_start(
        game=game, rules=game_rules(game.preset), is_tiebreaker=is_tiebreaker
    )


__all__ = ["HANDLERS", "Checked", "GameFormatHandler", "deal_check_can_start", "game_opened"]
