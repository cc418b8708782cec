"""Okey presets: every number the Okey scoring uses, as typed, frozen parameters.

Two ways of scoring are common (``docs/rules.md``, "Okey"): **loss** (each other player loses
``finish_points`` when a player finishes) and **countdown** (each player counts down from
``target``: the finisher takes ``finish_points`` off their own count, and the first to reach 0
wins the game). Either way, finishing by discarding the okey and finishing with seven pairs each
multiply the points (x2, and x4 for both), and a player who shows the indicator's twin at their
first turn scores ``indicator_points`` as a finish would."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

Scoring = Literal["loss", "countdown"]
SCORINGS: tuple[Scoring, ...] = ("loss", "countdown")


class HouseOption(NamedTuple):
    """One house option a club may set: its type and what it means, in a sentence."""

    kind: type
    help: str


#: The house options of an Okey preset: the one list the batch contract and the preset's
#: ``okey`` section read, with the same names, checks (``house_option``) and messages.
HOUSE_OPTIONS: dict[str, HouseOption] = {
    "finish_points": HouseOption(int, "What a normal finish is worth (2)."),
    "okey_discard_factor": HouseOption(
        int, "How many times a finish by discarding the okey counts (2)."
    ),
    "pairs_factor": HouseOption(int, "How many times a finish with seven pairs counts (2)."),
    "indicator_points": HouseOption(
        int, "What showing the indicator's twin at one's first turn is worth (1; 0 off)."
    ),
    "target": HouseOption(int, "Countdown: each player's starting count (20)."),
    "one_after_thirteen": HouseOption(bool, "Runs may end 12 13 1 (true)."),
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
class OkeyPreset:
    """The parameters of one way of playing Okey (see the module's docstring)."""

    name: str
    scoring: Scoring
    finish_points: int = 2
    okey_discard_factor: int = 2
    pairs_factor: int = 2
    indicator_points: int = 1
    target: int = 20
    one_after_thirteen: bool = True
    min_players: int = 2
    max_players: int = 4

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {SCORINGS}, not {self.scoring!r}")
        for name in HOUSE_OPTIONS:
            house_option(name, getattr(self, name))
        if not 2 <= self.min_players <= self.max_players <= 4:
            raise ValueError("need 2 <= min_players <= max_players <= 4")


#: Each other player loses 2 (4 for an okey discard or seven pairs, 8 for both).
OKEY = OkeyPreset("okey", "loss")
#: Each player counts down from 20; the finisher takes off 2 (4, 8), the first at 0 wins.
OKEY_COUNTDOWN_20 = OkeyPreset("okey-countdown-20", "countdown")

PRESETS: dict[str, OkeyPreset] = {preset.name: preset for preset in (OKEY, OKEY_COUNTDOWN_20)}
DEFAULT_PRESET = OKEY


def preset_for(rules: OkeyPreset | str) -> OkeyPreset:
    """A preset given itself or its name."""
    if isinstance(rules, OkeyPreset):
        return rules
    try:
        return PRESETS[rules]
    except KeyError:
        raise ValueError(f"unknown Okey preset {rules!r}: use one of {sorted(PRESETS)}") from None
