"""A Rummikub preset's own sections (``rummikub``, ``match``), as the API's schema describes
them, and what the preset form's preview shows of its rules: the house rules in words and the
match in a sentence."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring.formats.sections import PresetPreview, PresetSection
from scoring.presets import GameRules


class RummikubHouseRulesSchema(serializers.Serializer[dict[str, Any]]):
    """The house-rule numbers of a Rummikub preset's ``rummikub`` section (any other field of
    ``rules.rummikub.preset.RummikubPreset`` may be set too)."""

    base = serializers.CharField(required=False, help_text="A built-in preset to start from.")
    joker_value = serializers.IntegerField(
        min_value=0, required=False, help_text="A joker left on a rack: 30, 25 Belgian, 50 MSO."
    )
    never_opened_penalty = serializers.IntegerField(
        min_value=0, required=False,
        help_text="Sabra and American: a loser who never opened scores minus this (0 off; "
        "100 or 200 MSO).",
    )  # fmt: skip
    one_high = serializers.BooleanField(
        required=False, help_text="The 13-1 run (12 13 1) outside closed hands."
    )
    initial_meld_threshold = serializers.IntegerField(
        min_value=0, required=False, help_text="The opening threshold (Sabra 30)."
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
    ]
    if preset.counts_racks:
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
