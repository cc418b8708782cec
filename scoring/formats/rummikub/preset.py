"""A Rummikub preset's own sections (``rummikub``, ``match``), as the API's schema describes
them, and what the preset form's preview shows of its rules: the house rules in words and the
match in a sentence."""

from __future__ import annotations

from rest_framework import serializers

from rules.rummikub.preset import HOUSE_OPTIONS, MAX_OPTION_NUMBER
from scoring.formats.sections import PresetPreview, PresetSection, house_rules_schema
from scoring.presets import GameRules

#: The house options of a Rummikub preset's ``rummikub`` section, typed from the engine's one list
#: (``rules.rummikub.preset.HOUSE_OPTIONS``), which the batch contract takes too; any other field
#: of ``RummikubPreset`` may be set as well.
RummikubHouseRulesSchema = house_rules_schema(
    "RummikubHouseRulesSchema",
    "The house options of a Rummikub preset's ``rummikub`` section (the names and checks of the "
    "batch contract's options).",
    HOUSE_OPTIONS,
    MAX_OPTION_NUMBER,
)


SECTIONS = (
    PresetSection("rummikub", RummikubHouseRulesSchema(required=False)),
    PresetSection("match", serializers.DictField(required=False)),
)


def rummikub_preview(rules: GameRules) -> PresetPreview:
    """The preview of a Rummikub preset: its house rules in words, then the match."""
    preset = rules.rummikub
    assert preset is not None
    words = [
        f"A joker left on a rack counts {preset.joker_value}",
        f"The initial meld needs at least {preset.initial_meld_threshold}",
        "A run may go on from 13 to 1 (12 13 1), outside closed hands"
        if preset.one_high
        else "A 1 is always low in a run (12 13 1 is refused)",
        "Tiles 10 to 13 count 10 toward the initial meld"
        if preset.opening_high_as_10
        else "Every tile counts its number toward the initial meld",
    ]
    if not preset.counts_racks:
        words.append(
            "A closed hand's run may go on from 13 to 1 (12 13 1)"
            if preset.closed_one_high
            else "A 1 is always low in a closed hand's runs (12 13 1 is refused)"
        )
    if preset.counts_racks:
        words.append(
            "The winner scores 0; the losers pay their racks to the book of the game"
            if preset.winner_scores_zero
            else "The winner scores what the losers pay"
        )
        words.append(
            f"A loser who never opened scores -{preset.never_opened_penalty}"
            if preset.never_opened_penalty
            else "A loser who never opened counts the rack as everyone else"
        )
    match = rules.match
    summary = f"Rummikub: {rules.variant}"
    if match is not None and match.games:
        summary += f", a match of {match.games} games"
    if match is not None and match.target_score:
        summary += f", to {match.target_score}"
    return PresetPreview(summary=summary + ".", house_rules=tuple(words), summary_after_rules=True)
