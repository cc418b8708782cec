"""A preset's typed rules (``GameRules``), built and checked: its format's handler reads the
format's own sections, the fee and the table sections are common to every format; cached by
the preset's content."""

from __future__ import annotations

import json
from decimal import InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from config.errors import InvalidInput
from rules.errors import RuleViolation
from rules.money import FeePolicy
from scoring.formats import HANDLERS, preset_section_names
from scoring.presets import (
    GameRules,
    invalid_setting,
    preset_section,
    preset_whole,
    unknown_setting,
)
from scoring.rule_words import violation_words

#: The sections every preset may have, whatever its format (each format adds its own).
COMMON_SECTIONS = frozenset({"fee", "table"})
TABLE_KEYS = {"min_players", "max_players", "point_value_minor", "entry_fee_minor"}


def _fee(params: dict[str, Any]) -> FeePolicy:
    fee = preset_section(params, "fee")
    unknown = sorted(set(fee) - {"kind", "percent", "flat_minor"})
    if unknown:
        raise invalid_setting("fee", unknown_setting(unknown[0]), unknown[0])
    kind = fee.get("kind", "none")
    try:
        if kind == "percent":
            raw = fee.get("percent", "0")
            if isinstance(raw, float):
                raise invalid_setting(
                    "fee", _("percent must be a string or whole number, not a float"), raw
                )
            return FeePolicy.percentage(str(raw))
        if kind == "flat":
            return FeePolicy.flat(preset_whole("fee", "flat_minor", fee.get("flat_minor", 0)))
        if kind == "none":
            return FeePolicy.no_fee()
    except RuleViolation as exc:
        raise invalid_setting("fee", violation_words(exc)) from None
    except InvalidOperation as exc:
        raise invalid_setting("fee", str(exc)) from None
    raise invalid_setting(
        "fee", _("kind must be none, percent or flat, not %(kind)s") % {"kind": repr(kind)}, kind
    )


def game_rules_from(*, format: str, variant: str, params: dict[str, Any]) -> GameRules:
    """Build and check the typed rules of a preset; ``InvalidInput`` names the bad setting. The
    format's handler reads its own sections; the fee and the table are common."""
    handler = HANDLERS.get(format)
    if handler is None:
        raise InvalidInput(
            "format: " + _("unknown format %(format)s") % {"format": repr(format)},
            code="bad_preset",
        )
    if variant not in handler.variants:
        raise InvalidInput(
            "variant: "
            + _("a %(format)s game cannot be played as %(variant)s")
            % {"format": format, "variant": repr(variant)},
            code="bad_preset",
        )
    if not isinstance(params, dict):
        raise InvalidInput("params: " + _("must be an object"), code="bad_preset")
    unknown = sorted(set(params) - preset_section_names(handler) - COMMON_SECTIONS)
    if unknown:
        raise invalid_setting(
            unknown[0],
            _("is not a section of a %(format)s preset") % {"format": format},
            unknown[0],
        )

    table = preset_section(params, "table")
    bad = sorted(set(table) - TABLE_KEYS)
    if bad:
        raise invalid_setting("table", unknown_setting(bad[0]), bad[0])
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
        raise invalid_setting("table", _("min_players is more than max_players"))
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
        house_rules=parts.house_rules,
        okey=parts.okey,
    )


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
