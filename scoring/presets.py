"""Rule presets as the database keeps them (JSON ``params``) and as the engine needs them
(``GameRules``: typed, frozen rule objects from ``rules/``): the types, and the helpers each
format reads its own sections with. ``scoring.preset_rules`` builds a preset's rules; each format
describes its own sections (their schema, the preview) in its package.

``params`` has one section per concern; every section is optional and every number in it
overrides the documented default:

- ``indian``: the fields of ``rules.indian.preset.IndianPreset`` (drops, cap, decks, ...);
- ``house_rules`` (Indian formats): the fields of ``rules.indian.preset.HouseRules`` (the wild
  joker, runs round the king, joker limits, the ace's points, what a declaration needs);
- ``pool``: ``limit`` (101, 201, 61) and any field of ``rules.indian.pool.PoolRules``;
- ``deals``: ``deals`` (2, 3, 6, ...) and any field of ``rules.indian.deals.DealsRules``;
- ``rummikub``: ``base`` (a preset name of ``rules.rummikub.preset``) and any of its fields;
- ``match`` (Rummikub): ``games`` and/or ``target_score`` that end a match;
- ``okey``: ``base`` (``okey`` or ``okey-countdown-20``) and any house option of
  ``rules.okey.preset.HOUSE_OPTIONS`` (the finish's points, the multipliers, the target);
- ``fee``: ``{"kind": "none" | "percent" | "flat", "percent": "10", "flat_minor": 500}``;
- ``table``: ``min_players``, ``max_players``, ``point_value_minor``, ``entry_fee_minor``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.utils.translation import gettext as _

from config.errors import InvalidInput
from rules.errors import RuleViolation
from rules.indian.cards import format_card, parse_card, parse_wild
from rules.indian.deals import DealsRules
from rules.indian.pool import PoolRules
from rules.indian.preset import (
    DEFAULT_HOUSE_RULES,
    HouseRules,
    IndianPreset,
)
from rules.money import FeePolicy
from rules.okey.preset import OkeyPreset
from rules.rummikub.preset import RummikubPreset
from scoring.rule_words import violation_words


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
    house_rules: HouseRules | None = None
    okey: OkeyPreset | None = None

    def normalise_wild(self, wild: str) -> str:
        """The cut card in canonical notation (``QH``, ``JK``) or a bare rank (``Q``)."""
        if self.indian is None:
            raise InvalidInput(
                "wild: " + _("%(format)s deals have no wild joker") % {"format": self.format}
            )
        try:
            house = self.house_rules or DEFAULT_HOUSE_RULES
            parse_wild(wild, house.cut_card_only, house.cut_card_free)
            try:
                return format_card(parse_card(wild))
            except RuleViolation:
                return str(wild).strip().upper()
        except RuleViolation as exc:
            raise InvalidInput("wild: " + violation_words(exc), code=exc.code) from None


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
    house_rules: HouseRules | None = None
    okey: OkeyPreset | None = None


T = TypeVar("T")


def invalid_setting(section: str, message: str, token: object = None) -> InvalidInput:
    details: dict[str, Any] = {"section": section}
    if token is not None:
        details["token"] = str(token)
    return InvalidInput(f"params.{section}: {message}", code="bad_preset", details=details)


def unknown_setting(name: object) -> str:
    return _("unknown setting %(setting)s") % {"setting": repr(name)}


def unknown_base(name: object) -> str:
    return _("unknown base preset %(base)s") % {"base": repr(name)}


def base_not_variant(name: object, variant: str) -> str:
    return _("base %(base)s is not a %(variant)s preset") % {"base": repr(name), "variant": variant}


def preset_section(params: dict[str, Any], name: str) -> dict[str, Any]:
    value = params.get(name, {})
    if not isinstance(value, dict):
        raise invalid_setting(name, _("must be an object"))
    return dict(value)


def preset_replace(section: str, obj: Any, overrides: dict[str, Any]) -> Any:
    names = {f.name for f in dataclasses.fields(obj)}
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise invalid_setting(section, unknown_setting(unknown[0]), unknown[0])
    if not overrides:
        return obj
    try:
        return dataclasses.replace(obj, **overrides)
    except RuleViolation as exc:
        raise invalid_setting(section, violation_words(exc), exc.token) from None
    except (TypeError, ValueError) as exc:  # the engine's own check, in English only (no code)
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
        raise invalid_setting(section, violation_words(exc), exc.token) from None
    return cast(T, preset_replace(section, rules, values))


def preset_whole(section: str, key: str, value: Any, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise invalid_setting(
            section,
            _("%(key)s must be a whole number >= %(minimum)s") % {"key": key, "minimum": minimum},
            value,
        )
    return value
