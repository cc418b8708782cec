"""A Rummikub preset's own sections (``rummikub``, ``match``), as the API's schema describes
them, and what the preset form's preview shows of its rules: the house rules in words and the
match in a sentence."""

from __future__ import annotations

from django.utils.translation import gettext
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
        gettext("A joker left on a rack counts %(value)s") % {"value": preset.joker_value},
        gettext("The initial meld needs at least %(points)s")
        % {"points": preset.initial_meld_threshold},
        gettext("A run may go on from 13 to 1 (12 13 1), outside closed hands")
        if preset.one_high
        else gettext("A 1 is always low in a run (12 13 1 is refused)"),
        gettext("Tiles 10 to 13 count 10 toward the initial meld")
        if preset.opening_high_as_10
        else gettext("Every tile counts its number toward the initial meld"),
    ]
    if not preset.counts_racks:
        words.append(
            gettext("A closed hand's run may go on from 13 to 1 (12 13 1)")
            if preset.closed_one_high
            else gettext("A 1 is always low in a closed hand's runs (12 13 1 is refused)")
        )
    if preset.counts_racks:
        words.append(
            gettext("The winner scores 0; the losers pay their racks to the book of the game")
            if preset.winner_scores_zero
            else gettext("The winner scores what the losers pay")
        )
        words.append(
            gettext("A loser who never opened scores -%(penalty)s")
            % {"penalty": preset.never_opened_penalty}
            if preset.never_opened_penalty
            else gettext("A loser who never opened counts the rack as everyone else")
        )
    match = rules.match
    games = match.games if match is not None else None
    target = match.target_score if match is not None else None
    values = {"variant": rules.variant, "games": games, "target": target}
    if games and target:
        summary = gettext("Rummikub: %(variant)s, a match of %(games)s games, to %(target)s.")
    elif games:
        summary = gettext("Rummikub: %(variant)s, a match of %(games)s games.")
    elif target:
        summary = gettext("Rummikub: %(variant)s, to %(target)s.")
    else:
        summary = gettext("Rummikub: %(variant)s.")
    return PresetPreview(
        summary=summary % values, house_rules=tuple(words), summary_after_rules=True
    )
