"""The game formats: one package per format (``points``, ``pool``, ``deals``, ``rummikub``), each
a handler behind one protocol (``base.GameFormatHandler``) and everything else of its own slice;
and the registry that finds a game's handler. Adding a format is a package here, one line in
``HANDLERS`` and its value in ``scoring.models.GameFormat`` (the database's choices)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.errors import Conflict
from rules.families import Family
from scoring.formats.base import (
    Checked,
    Column,
    EndEntry,
    Ending,
    GameEnd,
    GameFormatHandler,
    GameState,
    Words,
    result_moved,
)
from scoring.formats.deals.handler import DealsFormat
from scoring.formats.points.handler import PointsFormat
from scoring.formats.pool.handler import PoolFormat
from scoring.formats.rummikub.handler import RummikubFormat
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


def payload_fields() -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    """The API's input fields of a result in every format, side by side (a field the formats of
    a family share once), in registry order."""
    fields: dict[str, serializers.Field[Any, Any, Any, Any]] = {}
    for handler in HANDLERS.values():
        for name, field in handler.payload_fields().items():
            fields.setdefault(name, field)
    return fields


def variants() -> list[str]:
    """Every variant a preset may name, in registry order."""
    return list(dict.fromkeys(v for handler in HANDLERS.values() for v in handler.variants))


def payload_keys() -> list[tuple[str, str]]:
    """The field that holds the players' lines of a result, per game family, with the family's
    name: a submission gives exactly one of them."""
    keys: dict[str, str] = {}
    for handler in HANDLERS.values():
        if handler.payload_key:
            keys.setdefault(handler.payload_key, Family(handler.family).label)
    return list(keys.items())


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
    "payload_fields",
    "payload_keys",
    "points_column",
    "result_moved",
    "variants",
]
