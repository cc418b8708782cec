"""The numbers of an Indian rummy table, as one typed, frozen rule preset.

Defaults are points rummy as in ``indian-rummy.md``; ``for_pool`` and ``for_deals`` give the pool
and deals variants of ``formats.md``."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from rules.errors import RuleViolation

POOL_DROPS: dict[int, tuple[int, int]] = {101: (20, 40), 201: (25, 50)}


class WildJoker(enum.StrEnum):
    """Which cards the cut card makes wild."""

    RANK = "rank"  # every card of the cut card's rank (the seeds)
    CUT_CARD = "cut_card"  # only the cut card itself (both copies of it with two decks)
    # every card of the cut rank in groups; left unmatched, only the cut card itself counts 0
    RANK_CUT_CARD_FREE = "rank_cut_card_free"


class JokerLimit(enum.StrEnum):
    """How many jokers a group with natural cards may hold (a pure sequence holds none)."""

    NONE = "none"  # any number (the seeds)
    ONE_IN_THREE = "one_in_three"  # a three-card group holds at most one joker
    NOT_WITH_ONE_NATURAL = "not_with_one_natural"  # never jokers with a single natural card


class JokerLimitScope(enum.StrEnum):
    """Which groups the joker limit holds for."""

    EVERY_GROUP = "every_group"  # sequences and sets alike
    SEQUENCES = "sequences"  # sequences only: a set takes any number of jokers (5H JK JK)


class Declaration(enum.StrEnum):
    """What a valid declaration needs besides every card in a valid group; the same need decides
    whether only the cards outside valid groups count in a loser's hand."""

    TWO_SEQUENCES = "two_sequences"  # two sequences, at least one pure (the seeds)
    PURE_SEQUENCE = "pure_sequence"  # one pure sequence; the other groups any valid groups
    MIN_GROUPS = "min_groups"  # at least ``min_groups`` valid groups of any kind


_CHOICES: dict[str, type[enum.StrEnum]] = {
    "wild_joker": WildJoker,
    "joker_limit": JokerLimit,
    "joker_limit_scope": JokerLimitScope,
    "declaration": Declaration,
}
ACE_POINT_CHOICES = (10, 1)
_BOOLEANS = (
    "wrap_runs",
    "jokers_only_set",
    "sets_up_to_four",
    "valid_groups_excused",
    "all_sets_declaration",
    "jokers_only_sequence",
)


@dataclass(frozen=True, slots=True)
class IndianPreset:
    """Every number of a deal's scoring, with the documented default.

    - ``decks``: decks in play; each card (printed jokers too) at most ``decks`` times.
    - ``cap``: most points a hand (and a loser) can count.
    - ``winner``: points of the winner (a valid declaration).
    - ``first_drop`` / ``middle_drop``: dropping before / after drawing a card.
    - ``missed_turns``: three consecutive missed turns; ``None`` means the middle drop.
    - ``wrong_show``: a wrong (invalid) declaration.
    - ``late_declare``: finished but failed to group and declare in time.
    - ``valid_not_declared``: a loser whose hand met the objective but who did not declare.
    - ``deal_show_divisor`` / ``deal_show_min`` / ``deal_show_max``: a loser who had not had a first
      turn scores ``floor(hand / divisor)`` clamped to ``[min, max]``.
    - ``drops_allowed``: false in best-of-2 and best-of-3 deals games.
    - ``pure_sequence_relief``: excuse the cards of a pure sequence even when the second sequence is
      missing (off: the seeds count every card).
    """

    decks: int = 2
    cap: int = 80
    winner: int = 0
    first_drop: int = 20
    middle_drop: int = 40
    missed_turns: int | None = None
    wrong_show: int = 80
    late_declare: int = 80
    valid_not_declared: int = 2
    deal_show_divisor: int = 2
    deal_show_min: int = 2
    deal_show_max: int = 40
    drops_allowed: bool = True
    pure_sequence_relief: bool = False

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "missed_turns" and value is None:
                continue
            if isinstance(value, bool) != (field.type in ("bool", bool)):
                raise TypeError(f"IndianPreset.{field.name} must be {field.type}, not {value!r}")
            if not isinstance(value, bool) and (not isinstance(value, int) or value < 0):
                raise ValueError(f"IndianPreset.{field.name} must be a whole number >= 0")
        if self.decks < 1 or self.deal_show_divisor < 1:
            raise ValueError("IndianPreset.decks and deal_show_divisor must be at least 1")

    @property
    def missed_turns_points(self) -> int:
        return self.middle_drop if self.missed_turns is None else self.missed_turns

    @classmethod
    def points(cls, decks: int = 2) -> IndianPreset:
        """Points rummy: first drop 20, middle drop 40, full count 80."""
        return cls(decks=decks)

    @classmethod
    def for_pool(cls, limit: int, decks: int = 2) -> IndianPreset:
        """Pool rummy: 101 pool drops 20/40, 201 pool drops 25/50 (``formats.md``)."""
        drops = POOL_DROPS.get(limit) if type(limit) is int else None
        if drops is None:
            raise RuleViolation(
                "bad_pool",
                f"unknown pool {limit!r}: use one of {', '.join(map(str, POOL_DROPS))}",
                token=str(limit),
            )
        return cls(decks=decks, first_drop=drops[0], middle_drop=drops[1])

    @classmethod
    def for_deals(
        cls, deals: int, decks: int = 2, drops_allowed: bool | None = None
    ) -> IndianPreset:
        """Deals rummy (best of ``deals``): no drops in best of 2 and 3 (seed 000); for other
        counts drops are allowed unless ``drops_allowed=False``."""
        if type(deals) is not int or deals < 1:
            raise RuleViolation("bad_deals", f"deals must be a whole number >= 1, not {deals!r}")
        allowed = deals not in (2, 3) if drops_allowed is None else drops_allowed
        return cls(decks=decks, drops_allowed=allowed)


DEFAULT_PRESET = IndianPreset()


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The house rules a club may play, read wherever the engine validates, scores or arranges a
    hand; the defaults are the seeds' rules (``indian-rummy.md``). A preset's ``house_rules``
    section; documented with an example each in ``docs/rules.md``.

    - ``wild_joker``: ``rank`` (every card of the cut rank), ``cut_card`` (the cut card only) or
      ``rank_cut_card_free`` (every card of the cut rank in groups; unmatched, only the cut card
      itself counts 0, the other cards of its rank their face value).
    - ``wrap_runs``: runs may wrap round the king (``QH KH AH 2H``, ``KH AH 2H``).
    - ``joker_limit``: ``none``, ``one_in_three`` or ``not_with_one_natural``.
    - ``joker_limit_scope``: the limit holds for ``every_group`` or for ``sequences`` only.
    - ``jokers_only_set``: a group of jokers only (``JK JK JK``) is a valid set.
    - ``sets_up_to_four``: a set has at most four cards, jokers included.
    - ``ace_points``: an ace counts 10 or 1.
    - ``declaration``: ``two_sequences``, ``pure_sequence`` or ``min_groups`` (``min_groups``
      valid groups, 1 to 13).
    - ``all_sets_declaration``: a hand of natural sets only ("all triplets") is a valid
      declaration without a sequence.
    - ``valid_groups_excused``: a loser's cards in valid groups never count, the declaration's
      need met or not (a declaration still needs it).
    - ``jokers_only_sequence``: a group of jokers only (``JK JK JK``, 3 to 13 cards) is an impure
      sequence, whatever ``jokers_only_set`` says.
    """

    wild_joker: WildJoker = WildJoker.RANK
    wrap_runs: bool = False
    joker_limit: JokerLimit = JokerLimit.NONE
    joker_limit_scope: JokerLimitScope = JokerLimitScope.EVERY_GROUP
    jokers_only_set: bool = True
    sets_up_to_four: bool = False
    ace_points: int = 10
    declaration: Declaration = Declaration.TWO_SEQUENCES
    min_groups: int = 4
    valid_groups_excused: bool = False
    all_sets_declaration: bool = False
    jokers_only_sequence: bool = False

    def __post_init__(self) -> None:
        for name, choice in _CHOICES.items():
            value = getattr(self, name)
            if type(value) is not choice:
                allowed = ", ".join(member.value for member in choice)
                if not isinstance(value, str) or value not in choice._value2member_map_:
                    raise ValueError(f"{name} must be one of {allowed}, not {value!r}")
                object.__setattr__(self, name, choice(value))
        for name in _BOOLEANS:
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if type(self.ace_points) is not int or self.ace_points not in ACE_POINT_CHOICES:
            raise ValueError(f"ace_points must be 10 or 1, not {self.ace_points!r}")
        if type(self.min_groups) is not int or not 1 <= self.min_groups <= 13:
            raise ValueError(f"min_groups must be a whole number 1 to 13, not {self.min_groups!r}")

    @property
    def cut_card_only(self) -> bool:
        return self.wild_joker is WildJoker.CUT_CARD

    @property
    def cut_card_free(self) -> bool:
        """The rank is wild in groups, but only the cut card counts 0 when unmatched."""
        return self.wild_joker is WildJoker.RANK_CUT_CARD_FREE


DEFAULT_HOUSE_RULES = HouseRules()


#: What each house rule means, in a sentence (the schema of the batch contract's ``house_rules``).
HOUSE_RULE_HELP: dict[str, str] = {
    "wild_joker": "rank: every card of the cut rank (default); cut_card: only the cut card; "
    "rank_cut_card_free: every card of the cut rank in groups, but left unmatched only the cut "
    "card itself counts 0 (the others their face value); give the wild as a card (8D).",
    "wrap_runs": "Runs may wrap round the king (QH KH AH 2H). Default false.",
    "joker_limit": "none (default); one_in_three: a three-card group holds at most one joker; "
    "not_with_one_natural: jokers never with a single natural card (5H JK JK).",
    "joker_limit_scope": "every_group (default): the joker limit holds for sequences and sets; "
    "sequences: for sequences only, a set taking any jokers (5H JK JK is a set of fives).",
    "jokers_only_set": "A group of jokers only (JK JK JK) is a valid set. Default true; false "
    "still takes a natural set of the wild rank (8H 8S 8D with 8 wild).",
    "sets_up_to_four": "A set has at most four cards, jokers included (5H 5S 5D 5C JK is "
    "refused). Default false: jokers may make a set longer.",
    "ace_points": "An ace counts 10 (default) or 1.",
    "declaration": "two_sequences (default: two sequences, one pure); pure_sequence: one pure "
    "sequence and any valid groups; min_groups: at least min_groups valid groups.",
    "min_groups": "With declaration min_groups (4).",
    "valid_groups_excused": "A loser's cards in valid groups never count, whether or not the "
    "groups meet the declaration's need (which a declaration still needs). Default false: "
    "without it every card counts.",
    "all_sets_declaration": "A hand of natural sets only (all triplets: every card in a set of "
    "one rank and different suits, no joker standing in) is a valid declaration. Default false.",
    "jokers_only_sequence": "A group of jokers only (JK JK JK, printed or wild cards) is an "
    "impure sequence, so it may be a declaration's second sequence. Default false: it is a set "
    "(or refused, see jokers_only_set).",
}


def house_rules_schema() -> dict[str, Any]:
    """``HouseRules`` as a JSON schema object, typed from its fields and choices."""
    properties: dict[str, Any] = {}
    for field in dataclasses.fields(HouseRules):
        choice = _CHOICES.get(field.name)
        if choice is not None:
            prop: dict[str, Any] = {"type": "string", "enum": [m.value for m in choice]}
        elif field.name == "ace_points":
            prop = {"type": "integer", "enum": list(ACE_POINT_CHOICES)}
        elif field.name == "min_groups":
            prop = {"type": "integer", "minimum": 1, "maximum": 13}
        else:
            prop = {"type": "boolean"}
        properties[field.name] = {**prop, "description": HOUSE_RULE_HELP[field.name]}
    return {"type": "object", "properties": properties, "additionalProperties": False}
