"""Rule presets as the database keeps them (JSON ``params``) and as the engine needs them
(``GameRules``: typed, frozen rule objects from ``rules/``).

``params`` has one section per concern; every section is optional and every number in it
overrides the documented default:

- ``indian``: the fields of ``rules.indian.preset.IndianPreset`` (drops, cap, decks, ...);
- ``pool``: ``limit`` (101, 201, 61) and any field of ``rules.indian.pool.PoolRules``;
- ``deals``: ``deals`` (2, 3, 6, ...) and any field of ``rules.indian.deals.DealsRules``;
- ``rummikub``: ``base`` (a preset name of ``rules.rummikub.preset``) and any of its fields;
- ``match`` (Rummikub): ``games`` and/or ``target_score`` that end a match;
- ``fee``: ``{"kind": "none" | "percent" | "flat", "percent": "10", "flat_minor": 500}``;
- ``table``: ``min_players``, ``max_players``, ``point_value_minor``, ``entry_fee_minor``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from decimal import InvalidOperation
from typing import Any, TypeVar, cast

from config.errors import InvalidInput
from rules.errors import RuleViolation
from rules.indian.cards import format_card, parse_card, parse_wild
from rules.indian.deals import DealsRules
from rules.indian.pool import PoolRules
from rules.indian.preset import IndianPreset
from rules.money import FeePolicy
from rules.rummikub.preset import RummikubPreset

#: The sections every preset may have, whatever its format (each format adds its own).
COMMON_SECTIONS = frozenset({"fee", "table"})
TABLE_KEYS = {"min_players", "max_players", "point_value_minor", "entry_fee_minor"}


@dataclass(frozen=True)
class MatchRules:
    """When a Rummikub match ends: after ``games`` games, when a total reaches ``target_score``,
    or when the organiser closes it (always possible)."""

    games: int | None = None
    target_score: int | None = None


@dataclass(frozen=True)
class GameRules:
    format: str
    variant: str
    fee: FeePolicy
    min_players: int
    max_players: int
    point_value_minor: int
    entry_fee_minor: int
    indian: IndianPreset | None = None
    pool: PoolRules | None = None
    deals: DealsRules | None = None
    rummikub: RummikubPreset | None = None
    match: MatchRules | None = None

    def normalise_wild(self, wild: str) -> str:
        """The cut card in canonical notation (``QH``, ``JK``) or a bare rank (``Q``)."""
        if self.indian is None:
            raise InvalidInput("wild: Rummikub deals have no wild joker")
        try:
            parse_wild(wild)
            try:
                return format_card(parse_card(wild))
            except RuleViolation:
                return str(wild).strip().upper()
        except RuleViolation as exc:
            raise InvalidInput(f"wild: {exc.message}", code=exc.code) from None


@dataclass(frozen=True)
class FormatRules:
    """What a format's own sections of a preset set (``GameFormatHandler.preset_rules``), and
    the table sizes it defaults to."""

    default_min: int
    default_max: int
    indian: IndianPreset | None = None
    pool: PoolRules | None = None
    deals: DealsRules | None = None
    rummikub: RummikubPreset | None = None
    match: MatchRules | None = None


T = TypeVar("T")


def invalid_setting(section: str, message: str, token: object = None) -> InvalidInput:
    details: dict[str, Any] = {"section": section}
    if token is not None:
        details["token"] = str(token)
    return InvalidInput(f"params.{section}: {message}", code="bad_preset", details=details)


def preset_section(params: dict[str, Any], name: str) -> dict[str, Any]:
    value = params.get(name, {})
    if not isinstance(value, dict):
        raise invalid_setting(name, "must be an object")
    return dict(value)


def preset_replace(section: str, obj: Any, overrides: dict[str, Any]) -> Any:
    names = {f.name for f in dataclasses.fields(obj)}
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise invalid_setting(section, f"unknown setting {unknown[0]!r}", unknown[0])
    if not overrides:
        return obj
    try:
        return dataclasses.replace(obj, **overrides)
    except RuleViolation as exc:
        raise invalid_setting(section, exc.message, exc.token) from None
    except (TypeError, ValueError) as exc:
        raise invalid_setting(section, str(exc)) from None


def preset_section_rules(
    params: dict[str, Any], section: str, key: str, default: Any, build: Callable[[Any], T]
) -> T:
    """A format's section of the preset: ``build`` makes its rules from ``key`` (the setting the
    others derive from: a pool's limit, a deals game's count), then the rest override them."""
    values = preset_section(params, section)
    try:
        rules = build(values.pop(key, default))
    except RuleViolation as exc:
        raise invalid_setting(section, exc.message, exc.token) from None
    return cast(T, preset_replace(section, rules, values))


def preset_whole(section: str, key: str, value: Any, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise invalid_setting(section, f"{key} must be a whole number >= {minimum}", value)
    return value


def _fee(params: dict[str, Any]) -> FeePolicy:
    fee = preset_section(params, "fee")
    unknown = sorted(set(fee) - {"kind", "percent", "flat_minor"})
    if unknown:
        raise invalid_setting("fee", f"unknown setting {unknown[0]!r}", unknown[0])
    kind = fee.get("kind", "none")
    try:
        if kind == "percent":
            raw = fee.get("percent", "0")
            if isinstance(raw, float):
                raise invalid_setting(
                    "fee", "percent must be a string or whole number, not a float", raw
                )
            return FeePolicy.percentage(str(raw))
        if kind == "flat":
            return FeePolicy.flat(preset_whole("fee", "flat_minor", fee.get("flat_minor", 0)))
        if kind == "none":
            return FeePolicy.no_fee()
    except (RuleViolation, InvalidOperation) as exc:
        raise invalid_setting("fee", getattr(exc, "message", str(exc))) from None
    raise invalid_setting("fee", f"kind must be none, percent or flat, not {kind!r}", kind)


def game_rules_from(*, format: str, variant: str, params: dict[str, Any]) -> GameRules:
    """Build and check the typed rules of a preset; ``InvalidInput`` names the bad setting. The
    format's handler reads its own sections; the fee and the table are common."""
    # The formats build their rules from the types of this module: imported here, not above.
    from scoring.formats import HANDLERS

    handler = HANDLERS.get(format)
    if handler is None:
        raise InvalidInput(f"format: unknown format {format!r}", code="bad_preset")
    if variant not in handler.variants:
        raise InvalidInput(
            f"variant: a {format} game cannot be played as {variant!r}", code="bad_preset"
        )
    if not isinstance(params, dict):
        raise InvalidInput("params: must be an object", code="bad_preset")
    unknown = sorted(set(params) - handler.preset_sections - COMMON_SECTIONS)
    if unknown:
        raise invalid_setting(unknown[0], f"is not a section of a {format} preset", unknown[0])

    table = preset_section(params, "table")
    bad = sorted(set(table) - TABLE_KEYS)
    if bad:
        raise invalid_setting("table", f"unknown setting {bad[0]!r}", bad[0])
    fee = _fee(params)
    point_value = preset_whole("table", "point_value_minor", table.get("point_value_minor", 0))
    entry_fee = preset_whole("table", "entry_fee_minor", table.get("entry_fee_minor", 0))
    parts = handler.preset_rules(variant=variant, params=params)
    min_players = preset_whole(
        "table", "min_players", table.get("min_players", parts.default_min), 2
    )
    max_players = preset_whole(
        "table", "max_players", table.get("max_players", parts.default_max), 2
    )
    if min_players > max_players:
        raise invalid_setting("table", "min_players is more than max_players")
    return GameRules(
        format=format,
        variant=variant,
        fee=fee,
        min_players=min_players,
        max_players=max_players,
        point_value_minor=point_value,
        entry_fee_minor=entry_fee,
        indian=parts.indian,
        pool=parts.pool,
        deals=parts.deals,
        rummikub=parts.rummikub,
        match=parts.match,
    )


def preset_check_params(*, format: str, variant: str, params: dict[str, Any]) -> dict[str, Any]:
    game_rules_from(format=format, variant=variant, params=params)
    return params


_cache: dict[tuple[str, str, str], GameRules] = {}


def game_rules(preset: Any) -> GameRules:
    """The typed rules of a stored preset, cached by their content (a few presets serve every
    game, and building them is not free)."""
    key = (preset.format, preset.variant, json.dumps(preset.params, sort_keys=True))
    rules = _cache.get(key)
    if rules is None:
        rules = game_rules_from(format=preset.format, variant=preset.variant, params=preset.params)
        _cache[key] = rules
    return rules
