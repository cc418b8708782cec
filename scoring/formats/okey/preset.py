"""An Okey preset's own section (``okey``), as the API's schema describes it, the rules built
from it, and what the preset form's preview shows of them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from rules.okey.preset import HOUSE_OPTIONS, MAX_OPTION_NUMBER, PRESETS, OkeyPreset
from scoring.formats.sections import PresetPreview, PresetSection, house_rules_schema
from scoring.presets import (
    GameRules,
    base_not_variant,
    invalid_setting,
    preset_replace,
    preset_section,
    unknown_base,
    unknown_setting,
)

#: The built-in rules each variant (way of scoring) starts from.
BASES: dict[str, str] = {preset.scoring: preset.name for preset in PRESETS.values()}


#: The house options of an Okey preset's ``okey`` section, typed from the engine's one list
#: (``rules.okey.preset.HOUSE_OPTIONS``), which the batch contract takes by the same names.
OkeyHouseRulesSchema = house_rules_schema(
    "OkeyHouseRulesSchema",
    "The house options of an Okey preset's ``okey`` section (the names and checks of the batch "
    "contract's options).",
    HOUSE_OPTIONS,
    MAX_OPTION_NUMBER,
)

SECTIONS = (PresetSection("okey", OkeyHouseRulesSchema(required=False)),)


def okey_rules(variant: str, params: dict[str, Any]) -> OkeyPreset:
    """The Okey rules of a preset: its variant's built-in rules (or ``base``), then its house
    options; ``InvalidInput`` names a bad one."""
    section = preset_section(params, "okey")
    base_name = section.pop("base", BASES.get(variant))
    base = PRESETS.get(base_name) if isinstance(base_name, str) else None
    if base is None:
        raise invalid_setting("okey", unknown_base(base_name), base_name)
    if base.scoring != variant:
        raise invalid_setting("okey", base_not_variant(base_name, variant), base_name)
    unknown = sorted(set(section) - set(HOUSE_OPTIONS))
    if unknown:
        raise invalid_setting("okey", unknown_setting(unknown[0]), unknown[0])
    rules: OkeyPreset = preset_replace("okey", base, section)
    return rules


def okey_preview(rules: GameRules) -> PresetPreview:
    """The preview of an Okey preset: how a deal scores, in words."""
    preset = rules.okey
    assert preset is not None
    if preset.scoring == "countdown":
        summary = gettext(
            "Okey by countdown: each player counts down from %(target)s; the first to reach 0 "
            "wins the game."
        ) % {"target": preset.target}
        finish = gettext("A finish takes %(points)s off the finisher's count") % {
            "points": preset.finish_points
        }
    else:
        summary = gettext("Okey by loss: the organiser ends the game; the highest total wins.")
        finish = gettext("A finish costs every other player %(points)s") % {
            "points": preset.finish_points
        }
    words = [
        finish,
        gettext("Finishing by discarding the okey counts %(factor)s times")
        % {"factor": preset.okey_discard_factor},
        gettext("Finishing with seven pairs counts %(factor)s times")
        % {"factor": preset.pairs_factor},
        gettext("Showing the indicator's twin at one's first turn is worth %(points)s")
        % {"points": preset.indicator_points},
        gettext("A run may go on from 13 to 1 (12 13 1)")
        if preset.one_after_thirteen
        else gettext("A 1 is always low in a run (12 13 1 is refused)"),
    ]
    return PresetPreview(summary=summary, house_rules=tuple(words), summary_after_rules=True)
