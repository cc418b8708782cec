"""The game formats: one package per format (``points``, ``pool``, ``deals``, ``rummikub``,
``okey``), each
a handler behind one protocol (``base.GameFormatHandler``) and everything else of its own slice;
and the registry that finds a game's handler. Adding a format is a package here, one line in
``HANDLERS`` and its value in ``scoring.models.GameFormat`` (the database's choices)."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, cast

from django.utils.translation import gettext
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from config.errors import Conflict
from ledger.models import Quantity
from rules.families import Family
from scoring.formats.base import (
    Checked,
    Column,
    EndEntry,
    Ending,
    GameEnd,
    GameFormatHandler,
    GameState,
    Running,
    Words,
    reason_dict,
    reasons_placed,
    result_moved,
)
from scoring.formats.deals.handler import DealsFormat
from scoring.formats.okey.handler import OkeyFormat
from scoring.formats.points.handler import PointsFormat
from scoring.formats.pool.handler import PoolFormat
from scoring.formats.rummikub.handler import RummikubFormat
from scoring.models import Game, GameFormat

HANDLERS: dict[str, GameFormatHandler] = {
    handler.format: handler
    for handler in (PointsFormat(), PoolFormat(), DealsFormat(), RummikubFormat(), OkeyFormat())
}
#: The formats in the order pages list them.
FORMAT_ORDER: list[str] = [choice.value for choice in GameFormat]


def handler_for(game: Game | str) -> GameFormatHandler:
    """The handler of a game (or of a format's id)."""
    key = game if isinstance(game, str) else game.format
    try:
        return HANDLERS[key]
    except KeyError:
        raise Conflict(
            gettext("unknown game format %(format)s") % {"format": repr(key)},
            code="format_unsupported",
        ) from None


def payload_fields() -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    """The API's input fields of a result in every format, side by side (a field the formats of
    a family share once), in registry order. Built for every input serializer: the formats of a
    family share their method, which builds their fields once."""
    fields: dict[str, serializers.Field[Any, Any, Any, Any]] = {}
    built = set()
    for handler in HANDLERS.values():
        make = type(handler).payload_fields
        if make in built:
            continue
        built.add(make)
        for name, field in handler.payload_fields().items():
            fields.setdefault(name, field)
    return fields


def _union(
    component_name: str, attribute: str, **others: type[serializers.Serializer[Any]]
) -> PolymorphicProxySerializer:
    """The formats' components named by ``attribute`` as one union, told apart by ``format``
    (with ``others``, shapes of that name that are no format)."""
    return PolymorphicProxySerializer(
        component_name=component_name,
        serializers={
            **{key: getattr(handler, attribute) for key, handler in HANDLERS.items()},
            **others,
        },
        resource_type_field_name="format",
    )


def result_union() -> PolymorphicProxySerializer:
    """A counted result in any format (``DealResult``: one component per format)."""
    return _union("DealResult", "result_output")


def payload_union() -> PolymorphicProxySerializer:
    """A result as entered, in any format (``DealPayload``)."""
    return _union("DealPayload", "payload_output")


def state_union(**others: type[serializers.Serializer[Any]]) -> PolymorphicProxySerializer:
    """A game as it stands, in any format (``GameState``), and ``others`` if any."""
    return _union("GameState", "state_output", **others)


def preset_params_schema(
    **common: serializers.Field[Any, Any, Any, Any],
) -> type[serializers.Serializer[dict[str, Any]]]:
    """The API's schema of a preset's ``params``: every format's own sections, in registry order
    (a section the formats of a family share once), then the ``common`` ones."""
    sections: dict[str, serializers.Field[Any, Any, Any, Any]] = {}
    for handler in HANDLERS.values():
        for section in handler.preset_sections:
            sections.setdefault(section.name, section.schema)
    # Fresh copies in this order: a serializer lists its fields in the order they were made.
    fields = {name: copy.deepcopy(field) for name, field in {**sections, **common}.items()}
    schema = type(
        "PresetParamsSchema",
        (serializers.Serializer,),
        {
            "__doc__": "A preset's settings by section (see the API guide); every section "
            "optional.",
            "__module__": __name__,
            **fields,
        },
    )
    return cast(type[serializers.Serializer[dict[str, Any]]], schema)


def preset_section_names(handler: GameFormatHandler) -> frozenset[str]:
    """The names of a format's own sections of a preset's ``params``."""
    return frozenset(section.name for section in handler.preset_sections)


def result_outcomes() -> list[str]:
    """Every outcome a counted result of any format may give a player, in registry order."""
    return list(dict.fromkeys(o for handler in HANDLERS.values() for o in handler.result_outcomes))


def format_tagged(game_format: str, record: dict[str, Any] | None) -> dict[str, Any] | None:
    """A stored result or payload as the API shows it: with its game's ``format`` first (the
    key its schema's union is told apart by)."""
    if record is None:
        return None
    return {"format": game_format, **{k: v for k, v in record.items() if k != "format"}}


@cache
def payload_field_names() -> tuple[str, ...]:
    """The names of ``payload_fields``, which never change."""
    return tuple(payload_fields())


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
    """A format's name; empty for none (a line of one of a night's accounts)."""
    return str(GameFormat(key).label) if key else ""


def outcome_word(game_format: str, outcome: str) -> str:
    """A deal's outcome as the format's tables show it, in the page's language."""
    return gettext(handler_for(game_format).outcome_words.get(outcome, outcome))


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
    "Running",
    "Words",
    "format_label",
    "format_tagged",
    "formats_with_points",
    "handler_for",
    "payload_fields",
    "payload_keys",
    "payload_union",
    "points_column",
    "reason_dict",
    "reasons_placed",
    "result_moved",
    "result_outcomes",
    "result_union",
    "state_union",
    "variants",
]
