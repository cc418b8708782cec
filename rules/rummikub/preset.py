"""Rule presets: every number the Rummikub rules use, as typed, frozen parameters.

A club picks a preset once (``SABRA``, ``AMERICAN``, ``INTERNATIONAL`` or one of their published
variations) and may change single numbers with :func:`dataclasses.replace`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from rules.rummikub.closed_hands import DEFAULT_CLOSED_HAND_VALUES, HandValues

Variant = Literal["sabra", "american", "international"]
VARIANTS: tuple[Variant, ...] = ("sabra", "american", "international")


class HouseOption(NamedTuple):
    """One house option a club may set: its type and what it means, in a sentence."""

    kind: type
    help: str


#: The house options of a Rummikub preset, the one list that the batch contract
#: (``rules.rummikub.evaluate``), the preset's ``rummikub`` section, its schema and the deal entry
#: read: the same names, the same checks (``house_option``), the same messages.
HOUSE_OPTIONS: dict[str, HouseOption] = {
    "initial_meld_threshold": HouseOption(int, "The opening threshold (Sabra 30)."),
    "joker_value": HouseOption(int, "A joker left on a rack: 30, 25 Belgian, 50 MSO."),
    "trump_bonus": HouseOption(
        int, "International: what holding the trump's twin scores more (0 off, 50)."
    ),
    "never_opened_penalty": HouseOption(
        int,
        "Sabra and American: a loser who never opened scores minus this (0 off; 100 or 200 "
        "MSO); who had opened is entered with the racks (melded).",
    ),
    "one_high": HouseOption(bool, "The 13-1 run (12 13 1) outside closed hands."),
    "opening_high_as_10": HouseOption(
        bool, "Tiles 10 to 13 count 10 toward the opening meld (not their face). Default false."
    ),
    "winner_scores_zero": HouseOption(
        bool,
        "Sabra and American: the winner scores 0 and each loser pays the rack only; the game's "
        "book takes the rest, so a deal still sums to zero. Default false (the winner takes it).",
    ),
    "closed_one_high": HouseOption(
        bool,
        "International closed hands: a run may go on from 13 to 1 (12 13 1). Default true; "
        "false: a 1 is low only in a closed hand's runs (waves, Mosaic and Royal keep their "
        "shapes).",
    ),
}
MAX_OPTION_NUMBER = 10**6


def house_option(name: str, value: Any) -> Any:
    """``value`` if it is a good value of the house option ``name``; ``ValueError`` naming the
    option otherwise."""
    if HOUSE_OPTIONS[name].kind is bool:
        if type(value) is not bool:
            raise ValueError(f"{name} must be true or false, not {value!r}")
    elif type(value) is not int or not 0 <= value <= MAX_OPTION_NUMBER:
        raise ValueError(
            f"{name} must be a whole number from 0 to {MAX_OPTION_NUMBER}, not {value!r}"
        )
    return value


@dataclass(frozen=True)
class RummikubPreset:
    """The parameters of one way of playing.

    ``one_high``: runs may use 1 after 13 (``R12 R13 R1``), never on both ends at once.
    ``joker_value``: what a joker left on a rack counts at the end of a game (30; 25 variant).
    The ``international_*`` numbers are only used by International scoring; ``trump_bonus`` is the
    trump-tile variation (0 = off, 50 when a club plays it). House rules a club may set:
    ``joker_value`` (25 in Belgian clubs, 50 at the MSO), ``initial_meld_threshold``, ``one_high``
    (the 13-1 run outside closed hands, for Sabra) and ``never_opened_penalty``: in Sabra and
    American, a loser who never made the initial meld scores minus this instead of their rack
    (0 = off; 100 or 200 where the MSO's rules are played); ``opening_high_as_10``: tiles 10 to 13
    count 10 toward the initial meld (a meld's value elsewhere is unchanged);
    ``winner_scores_zero``: in Sabra and American the winner scores 0, the losers their racks
    only, and the game's book takes what the winner would have (``rules.rummikub.scoring``);
    ``closed_one_high``: off, no run of a closed hand goes on from 13 to 1 (``12 13 1``)."""

    name: str
    variant: Variant
    initial_meld_threshold: int
    one_high: bool
    joker_value: int = 30
    min_players: int = 2
    max_players: int = 4
    open_win: int = 100
    open_win_no_other_melded: int = 200
    foot_win: int = 200
    not_melded_loss: int = 100
    high_tile_value: int = 10
    joker_discard_factor: int = 2
    trump_bonus: int = 0
    never_opened_penalty: int = 0
    opening_high_as_10: bool = False
    winner_scores_zero: bool = False
    closed_one_high: bool = True
    closed_hand_values: HandValues = field(default=DEFAULT_CLOSED_HAND_VALUES)

    def __post_init__(self) -> None:
        for name in HOUSE_OPTIONS:
            house_option(name, getattr(self, name))
        numbers = {
            "open_win": self.open_win,
            "open_win_no_other_melded": self.open_win_no_other_melded,
            "foot_win": self.foot_win,
            "not_melded_loss": self.not_melded_loss,
            "high_tile_value": self.high_tile_value,
            "joker_discard_factor": self.joker_discard_factor,
        }
        for key, number in numbers.items():
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                raise ValueError(f"{key} must be a whole number >= 0, not {number!r}")
        if not 2 <= self.min_players <= self.max_players:
            raise ValueError("need 2 <= min_players <= max_players")
        if len(self.closed_hand_values) != 40 or any(
            len(row) != 3 for row in self.closed_hand_values
        ):
            raise ValueError("closed_hand_values needs 40 rows of (0, 1, 2 jokers) values")

    @property
    def counts_racks(self) -> bool:
        """Sabra and American count the losers' racks (and so may penalise never opening);
        International scores by its own table."""
        return self.variant != "international"


SABRA = RummikubPreset("sabra", "sabra", initial_meld_threshold=30, one_high=False)
#: The 1987 Pressman sheet (seed 000) and other editions: initial meld of 50.
SABRA_50 = RummikubPreset("sabra-50", "sabra", initial_meld_threshold=50, one_high=False)
#: A joker left on a rack counts 25 (Dutch edition of the Official Book).
SABRA_JOKER_25 = RummikubPreset(
    "sabra-joker-25", "sabra", initial_meld_threshold=30, one_high=False, joker_value=25
)
AMERICAN = RummikubPreset("american", "american", initial_meld_threshold=21, one_high=True)
AMERICAN_JOKER_25 = RummikubPreset(
    "american-joker-25", "american", initial_meld_threshold=21, one_high=True, joker_value=25
)
INTERNATIONAL = RummikubPreset(
    "international", "international", initial_meld_threshold=50, one_high=True
)
#: The trump-tile variation: holding the tile identical to the trump scores 50 more.
INTERNATIONAL_TRUMP = RummikubPreset(
    "international-trump", "international", initial_meld_threshold=50, one_high=True, trump_bonus=50
)

PRESETS: dict[str, RummikubPreset] = {
    preset.name: preset
    for preset in (
        SABRA,
        SABRA_50,
        SABRA_JOKER_25,
        AMERICAN,
        AMERICAN_JOKER_25,
        INTERNATIONAL,
        INTERNATIONAL_TRUMP,
    )
}
#: The default preset of each variant.
DEFAULT_PRESETS: dict[Variant, RummikubPreset] = {
    "sabra": SABRA,
    "american": AMERICAN,
    "international": INTERNATIONAL,
}


def preset_for(rules: RummikubPreset | str) -> RummikubPreset:
    """A preset given itself, a preset name or a variant name (its default preset)."""
    if isinstance(rules, RummikubPreset):
        return rules
    try:
        return PRESETS[rules]
    except KeyError:
        raise ValueError(
            f"unknown Rummikub preset {rules!r}: use one of {sorted(PRESETS)}"
        ) from None
