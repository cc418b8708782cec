"""An Indian rummy preset's own sections (``indian``, ``house_rules``), as the API's schema
describes them, and what the preset form's preview shows of its rules: each outcome's points,
the house rules in words (each option documented in docs/rules.md, "House rules") and an
example hand scored under them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext
from rest_framework import serializers

from rules.indian.arrangement import arrange
from rules.indian.cards import parse_cards, parse_wild
from rules.indian.deal import outcome_options
from rules.indian.preset import (
    DEFAULT_HOUSE_RULES,
    Declaration,
    HouseRules,
    IndianPreset,
    JokerLimit,
    JokerLimitScope,
    house_rules_schema,
)
from scoring.formats.indian.forms import OUTCOME_CHOICES
from scoring.formats.sections import (
    ExampleGroup,
    ExampleHand,
    PresetPreview,
    PresetSection,
    PreviewOutcome,
)
from scoring.presets import GameRules


def _house_rule_field(prop: dict[str, Any]) -> serializers.Field[Any, Any, Any, Any]:
    """A serializer field of one house rule, from its JSON schema (``house_rules_schema``)."""
    help_text = prop["description"]
    if "enum" in prop:
        return serializers.ChoiceField(choices=prop["enum"], required=False, help_text=help_text)
    if prop["type"] == "integer":
        return serializers.IntegerField(
            min_value=prop["minimum"], max_value=prop["maximum"], required=False,
            help_text=help_text,
        )  # fmt: skip
    return serializers.BooleanField(required=False, help_text=help_text)


#: The ``house_rules`` section of an Indian rummy preset, typed from the engine's one table
#: (``rules.indian.preset.house_rules_schema``: the fields of ``HouseRules``, their choices and
#: ``HOUSE_RULE_HELP``), which the batch contract and ``evaluate_hands`` read too.
HouseRulesSchema = type(
    "HouseRulesSchema",
    (serializers.Serializer,),
    {
        "__doc__": "The ``house_rules`` section of an Indian rummy preset "
        "(``rules.indian.preset.HouseRules``); each field optional, its default the seeds' rule. "
        "Checked by the rules engine: a bad value answers 400 naming the field.",
        **{
            name: _house_rule_field(prop)
            for name, prop in house_rules_schema()["properties"].items()
        },
    },
)


#: The sections every Indian rummy preset may have (a format adds its own).
INDIAN_SECTIONS = (
    PresetSection(
        "indian", serializers.DictField(required=False, help_text="Numbers of IndianPreset.")
    ),
    PresetSection("house_rules", HouseRulesSchema(required=False)),
)

JOKER_LIMIT_WORDS = {
    JokerLimit.NONE: gettext_noop("Jokers: any number in a group"),
    JokerLimit.ONE_IN_THREE: gettext_noop("Jokers: at most one in a three-card group"),
    JokerLimit.NOT_WITH_ONE_NATURAL: gettext_noop(
        "Jokers: never with a single natural card (5H JK JK is refused)"
    ),
}
#: The limit on jokers when it holds in sequences only.
JOKER_LIMIT_SEQUENCES_WORDS = {
    JokerLimit.ONE_IN_THREE: gettext_noop(
        "Jokers: at most one in a three-card group (in sequences only: a set takes any number)"
    ),
    JokerLimit.NOT_WITH_ONE_NATURAL: gettext_noop(
        "Jokers: never with a single natural card (5H JK JK is refused) (in sequences only: a "
        "set takes any number)"
    ),
}


def house_rule_words(preset: IndianPreset, house: HouseRules) -> tuple[str, ...]:
    """The preset's house rules in words."""
    declaration = {
        Declaration.TWO_SEQUENCES: gettext("A declaration needs two sequences, one of them pure"),
        Declaration.PURE_SEQUENCE: gettext(
            "A declaration needs one pure sequence; the rest any valid groups"
        ),
        Declaration.MIN_GROUPS: gettext("A declaration needs at least %(count)s valid groups")
        % {"count": house.min_groups},
    }
    in_sequences = (
        house.joker_limit is not JokerLimit.NONE
        and house.joker_limit_scope is JokerLimitScope.SEQUENCES
    )
    jokers = (JOKER_LIMIT_SEQUENCES_WORDS if in_sequences else JOKER_LIMIT_WORDS)[house.joker_limit]
    return (
        gettext("Wild joker: only the cut card itself (give it as a card, e.g. 7H)")
        if house.cut_card_only
        else gettext(
            "Wild joker: every card of the cut card's rank in groups; left unmatched, only the "
            "cut card itself counts 0, the others their face value (give it as a card, e.g. 7H)"
        )
        if house.cut_card_free
        else gettext("Wild joker: every card of the cut card's rank"),
        gettext("Runs may wrap round the king (Q K A 2, K A 2)")
        if house.wrap_runs
        else gettext("Runs do not wrap round the king (the ace is low or high)"),
        gettext(jokers),
        gettext("A group of jokers only (JK JK JK) is an impure sequence")
        if house.jokers_only_sequence
        else gettext("A group of jokers only (JK JK JK) is a valid set")
        if house.jokers_only_set
        else gettext(
            "A group of jokers only (JK JK JK) is refused; a natural set of the wild rank "
            "(8H 8S 8D with 8 wild) is a set"
        ),
        gettext("A set has at most four cards, jokers included")
        if house.sets_up_to_four
        else gettext("A set may be longer than four cards with jokers"),
        ngettext(
            "An ace counts %(points)s point", "An ace counts %(points)s points", house.ace_points
        )
        % {"points": house.ace_points},
        declaration[house.declaration],
        gettext(
            "A hand of natural sets only (all triplets, no joker standing in) is a valid "
            "declaration"
        )
        if house.all_sets_declaration
        else gettext("A hand of sets only is no declaration without its sequences"),
        gettext(
            "Valid groups never count against a loser, whether or not they meet what a "
            "declaration needs"
        )
        if house.valid_groups_excused
        else gettext("Valid groups are excused only when they meet what a declaration needs"),
        gettext("A loser with a pure sequence but no declaration: the pure sequence does not count")
        if preset.pure_sequence_relief
        else gettext("A loser without a declaration counts every card, the pure sequence included"),
    )


#: The example hand's groups by kind, as the preview says them.
EXAMPLE_KINDS = {
    "pure_sequence": gettext_noop("pure sequence"),
    "impure_sequence": gettext_noop("impure sequence"),
    "set": gettext_noop("set"),
    "invalid": gettext_noop("not a valid group"),
}

#: The preview's example hand: the cut card and 13 cards that read differently under the house
#: rules (a run round the king, a natural 7 beside the cut 7H, two jokers with one card, aces).
EXAMPLE_CUT = "7H"
EXAMPLE_HAND = "QH KH AH 2H 5S 6S 7S 9D JK 7H AS AD 4C"


def example_hand(preset: IndianPreset, house: HouseRules) -> ExampleHand:
    """The example hand scored by its best arrangement under the preset's rules."""
    cards = parse_cards(EXAMPLE_HAND.split())
    result = arrange(
        cards, parse_wild(EXAMPLE_CUT, house.cut_card_only, house.cut_card_free), preset, house
    )
    return ExampleHand(
        cut=EXAMPLE_CUT,
        groups=tuple(
            ExampleGroup(
                " ".join(map(str, group.cards)),
                gettext(EXAMPLE_KINDS.get(group.kind.value, group.kind.value.replace("_", " "))),
            )
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
                str(OUTCOME_CHOICES.get(o.code, o.label)),
                f"{o.low}" if o.low == o.high else f"{o.low}-{o.high}",
                o.needs_cards,
            )
            for o in outcome_options(preset)
        ),
        summary=summary,
        house_rules=house_rule_words(preset, house),
        example=example_hand(preset, house),
    )
