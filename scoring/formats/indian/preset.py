"""An Indian rummy preset's own sections (``indian``, ``house_rules``), as the API's schema
describes them, and what the preset form's preview shows of its rules: each outcome's points,
the house rules in words (each option documented in docs/rules.md, "House rules") and an
example hand scored under them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from rules.indian.arrangement import arrange
from rules.indian.cards import parse_cards, parse_wild
from rules.indian.deal import outcome_options
from rules.indian.preset import (
    ACE_POINT_CHOICES,
    DEFAULT_HOUSE_RULES,
    HOUSE_RULE_HELP,
    Declaration,
    HouseRules,
    IndianPreset,
    JokerLimit,
    JokerLimitScope,
    WildJoker,
)
from scoring.formats.sections import (
    ExampleGroup,
    ExampleHand,
    PresetPreview,
    PresetSection,
    PreviewOutcome,
)
from scoring.presets import GameRules


class HouseRulesSchema(serializers.Serializer[dict[str, Any]]):
    """The ``house_rules`` section of an Indian rummy preset (``rules.indian.preset.HouseRules``);
    each field optional, its default the seeds' rule. Checked by the rules engine: a bad value
    answers 400 naming the field."""

    wild_joker = serializers.ChoiceField(
        choices=[choice.value for choice in WildJoker], required=False,
        help_text="rank: every card of the cut rank (default); cut_card: only the cut card.",
    )  # fmt: skip
    wrap_runs = serializers.BooleanField(
        required=False, help_text="Runs may wrap round the king (QH KH AH 2H). Default false."
    )
    joker_limit = serializers.ChoiceField(
        choices=[choice.value for choice in JokerLimit], required=False,
        help_text="none (default); one_in_three: a three-card group holds at most one joker; "
        "not_with_one_natural: jokers never with a single natural card (5H JK JK).",
    )  # fmt: skip
    joker_limit_scope = serializers.ChoiceField(
        choices=[choice.value for choice in JokerLimitScope], required=False,
        help_text=HOUSE_RULE_HELP["joker_limit_scope"],
    )  # fmt: skip
    jokers_only_set = serializers.BooleanField(
        required=False, help_text=HOUSE_RULE_HELP["jokers_only_set"]
    )
    sets_up_to_four = serializers.BooleanField(
        required=False, help_text=HOUSE_RULE_HELP["sets_up_to_four"]
    )
    ace_points = serializers.ChoiceField(
        choices=list(ACE_POINT_CHOICES),
        required=False,
        help_text="An ace counts 10 (default) or 1.",
    )
    declaration = serializers.ChoiceField(
        choices=[choice.value for choice in Declaration], required=False,
        help_text="two_sequences (default: two sequences, one pure); pure_sequence: one pure "
        "sequence and any valid groups; min_groups: at least min_groups valid groups.",
    )  # fmt: skip
    min_groups = serializers.IntegerField(
        min_value=1, max_value=13, required=False, help_text="With declaration min_groups (4)."
    )


#: The sections every Indian rummy preset may have (a format adds its own).
INDIAN_SECTIONS = (
    PresetSection(
        "indian", serializers.DictField(required=False, help_text="Numbers of IndianPreset.")
    ),
    PresetSection("house_rules", HouseRulesSchema(required=False)),
)

JOKER_LIMIT_WORDS = {
    JokerLimit.NONE: "Jokers: any number in a group",
    JokerLimit.ONE_IN_THREE: "Jokers: at most one in a three-card group",
    JokerLimit.NOT_WITH_ONE_NATURAL: "Jokers: never with a single natural card "
    "(5H JK JK is refused)",
}


def house_rule_words(preset: IndianPreset, house: HouseRules) -> tuple[str, ...]:
    """The preset's house rules in words."""
    declaration = {
        Declaration.TWO_SEQUENCES: "A declaration needs two sequences, one of them pure",
        Declaration.PURE_SEQUENCE: "A declaration needs one pure sequence; the rest any "
        "valid groups",
        Declaration.MIN_GROUPS: f"A declaration needs at least {house.min_groups} valid groups",
    }
    return (
        "Wild joker: only the cut card itself (give it as a card, e.g. 7H)"
        if house.cut_card_only
        else "Wild joker: every card of the cut card's rank",
        "Runs may wrap round the king (Q K A 2, K A 2)"
        if house.wrap_runs
        else "Runs do not wrap round the king (the ace is low or high)",
        JOKER_LIMIT_WORDS[house.joker_limit]
        + (
            " (in sequences only: a set takes any number)"
            if house.joker_limit is not JokerLimit.NONE
            and house.joker_limit_scope is JokerLimitScope.SEQUENCES
            else ""
        ),
        "A group of jokers only (JK JK JK) is a valid set"
        if house.jokers_only_set
        else "A group of jokers only (JK JK JK) is refused; a natural set of the wild rank "
        "(8H 8S 8D with 8 wild) is a set",
        "A set has at most four cards, jokers included"
        if house.sets_up_to_four
        else "A set may be longer than four cards with jokers",
        f"An ace counts {house.ace_points} point{'s' if house.ace_points > 1 else ''}",
        declaration[house.declaration],
        "A loser with a pure sequence but no declaration: the pure sequence does not count"
        if preset.pure_sequence_relief
        else "A loser without a declaration counts every card, the pure sequence included",
    )


#: The preview's example hand: the cut card and 13 cards that read differently under the house
#: rules (a run round the king, a natural 7 beside the cut 7H, two jokers with one card, aces).
EXAMPLE_CUT = "7H"
EXAMPLE_HAND = "QH KH AH 2H 5S 6S 7S 9D JK 7H AS AD 4C"


def example_hand(preset: IndianPreset, house: HouseRules) -> ExampleHand:
    """The example hand scored by its best arrangement under the preset's rules."""
    cards = parse_cards(EXAMPLE_HAND.split())
    result = arrange(cards, parse_wild(EXAMPLE_CUT, house.cut_card_only), preset, house)
    return ExampleHand(
        cut=EXAMPLE_CUT,
        groups=tuple(
            ExampleGroup(" ".join(map(str, group.cards)), group.kind.value.replace("_", " "))
            for group in result.groups
        ),
        valid=result.valid,
        score=result.score,
    )


def indian_preview(rules: GameRules, summary: str = "") -> PresetPreview:
    """The preview of an Indian rummy preset: each outcome's points, the format's ``summary``,
    the house rules in words and the example hand."""
    preset = rules.indian
    assert preset is not None
    house = rules.house_rules or DEFAULT_HOUSE_RULES
    return PresetPreview(
        outcomes=tuple(
            PreviewOutcome(
                o.label, f"{o.low}" if o.low == o.high else f"{o.low}-{o.high}", o.needs_cards
            )
            for o in outcome_options(preset)
        ),
        summary=summary,
        house_rules=house_rule_words(preset, house),
        example=example_hand(preset, house),
    )
