"""The game formats: one handler per format behind one protocol (``base.GameFormatHandler``), and
the registry that finds a game's handler. Adding a format is one module here and one line in
``HANDLERS`` (and its value in ``scoring.models.GameFormat``)."""

from __future__ import annotations

from config.errors import Conflict
from scoring.formats.base import (
    Checked,
    Column,
    EndEntry,
    Ending,
    GameEnd,
    GameFormatHandler,
    GameState,
    Words,
)
from scoring.formats.deals import DealsFormat
from scoring.formats.points import PointsFormat
from scoring.formats.pool import PoolFormat
from scoring.formats.rummikub import RummikubFormat
from scoring.models import Game, GameFormat, Quantity

HANDLERS: dict[str, GameFormatHandler] = {
    handler.format: handler
    for handler in (PointsFormat(), PoolFormat(), DealsFormat(), RummikubFormat())
}
#: The formats in the order pages list them.
FORMAT_ORDER: list[str] = [choice.value for choice in GameFormat]


def handler_for(game: Game | str) -> GameFormatHandler:
    """The handler of a game (or of a format's id)."""
    key = game if isinstance(game, str) else game.format
    try:
        return HANDLERS[key]
    except KeyError:
        raise Conflict(f"unknown game format {key!r}", code="format_unsupported") from None


def format_label(key: str) -> str:
    return GameFormat(key).label


def points_column(game_format: str) -> Column | None:
    """The column a format's points are shown in (their unit), or ``None`` for a format that
    keeps no points (deals rummy counts chips)."""
    handler = HANDLERS.get(game_format)  # none for a session's account: it keeps money only
    columns = handler.columns if handler is not None else ()
    return next((c for c in columns if c.quantity == Quantity.POINTS), None)


def formats_with_points(formats: set[str] | list[str]) -> list[str]:
    """The formats among ``formats`` that keep points, in their usual order."""
    return [f for f in FORMAT_ORDER if f in formats and points_column(f) is not None]


__all__ = [
    "FORMAT_ORDER",
    "HANDLERS",
    "Checked",
    "Column",
    "EndEntry",
    "Ending",
    "GameEnd",
    "GameFormatHandler",
    "GameState",
    "Words",
    "format_label",
    "formats_with_points",
    "handler_for",
    "points_column",
]
