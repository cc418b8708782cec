"""Chip-level tournaments (``formats.md``, "Knock-out tournaments", chip-level variants).

Everyone starts with the same chips. The tournament is played in levels, each with its own point
value (chips a point) and two thresholds: at the end of a level a player below its ``minimum``
is out (or buys back in where the rules allow it), one at or above its ``qualify`` figure goes on
to the next level, and one between the two plays the level once more with the others between
(see ``docs/rules.md``, "Decision: between the thresholds"). The points of every deal convert to
chips at the level's value, so chips stay zero-sum among the players like the points they come
from.

Pure: players are any hashable keys; chips and money are whole numbers (money in minor units)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules.errors import RuleViolation
from rules.money import require_int

K = TypeVar("K", bound=Hashable)

#: The most levels a tournament declares (a sanity bound for a form and the API).
MAX_LEVELS = 20


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipLevel:
    """One level: ``point_value`` chips a point, out below ``minimum`` chips at its end, on to
    the next level at ``qualify`` chips or more."""

    point_value: int
    minimum: int
    qualify: int

    def __post_init__(self) -> None:
        require_int(self.point_value, "point_value", minimum=1, code="bad_chip_levels")
        require_int(self.minimum, "minimum", minimum=0, code="bad_chip_levels")
        require_int(self.qualify, "qualify", minimum=1, code="bad_chip_levels")
        if self.qualify <= self.minimum:
            raise RuleViolation(
                "bad_chip_levels",
                f"qualify ({self.qualify}) must be above minimum ({self.minimum})",
                token=str(self.qualify),
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipLevelRules:
    """The settings of a chip-level tournament.

    - ``starting_chips``: each entrant's chips at the start (1,000).
    - ``levels``: the levels in order; after the last, play goes on at the last level's figures
      until the players left fit one final table.
    - ``rebuys``: how many times one player may buy back in (0: never); ``rebuy_price_minor``
      the money each costs (into the purse, all of it to the prize pool); ``rebuy_chips`` the
      chips each gives; ``rebuy_until_level``: a player knocked out at the end of this level or
      an earlier one may buy back in, not later."""

    starting_chips: int = 1000
    levels: tuple[ChipLevel, ...]
    rebuys: int = 0
    rebuy_price_minor: int = 0
    rebuy_chips: int = 1000
    rebuy_until_level: int = 1

    def __post_init__(self) -> None:
        require_int(self.starting_chips, "starting_chips", minimum=1, code="bad_chip_levels")
        if not self.levels or len(self.levels) > MAX_LEVELS:
            raise RuleViolation(
                "bad_chip_levels", f"levels: give 1 to {MAX_LEVELS} levels", token="levels"
            )
        for level in self.levels:
            if not isinstance(level, ChipLevel):
                raise RuleViolation("bad_chip_levels", "levels: each level is a ChipLevel")
        require_int(self.rebuys, "rebuys", minimum=0, maximum=10, code="bad_chip_levels")
        require_int(self.rebuy_price_minor, "rebuy_price_minor", minimum=0, code="bad_chip_levels")
        require_int(self.rebuy_chips, "rebuy_chips", minimum=1, code="bad_chip_levels")
        require_int(
            self.rebuy_until_level, "rebuy_until_level", minimum=1, maximum=len(self.levels),
            code="bad_chip_levels",
        )  # fmt: skip
        first = self.levels[0]
        if self.starting_chips < first.minimum:
            raise RuleViolation(
                "bad_chip_levels",
                f"starting_chips ({self.starting_chips}) is below the first level's minimum "
                f"({first.minimum})",
                token=str(self.starting_chips),
            )

    def level(self, number: int) -> ChipLevel:
        """Level ``number`` (1-based); past the last, the last."""
        require_int(number, "level", minimum=1, code="bad_chip_levels")
        return self.levels[min(number, len(self.levels)) - 1]

    def rebuy_allowed(self, *, level: int, rebuys_taken: int) -> bool:
        return self.rebuys > 0 and level <= self.rebuy_until_level and rebuys_taken < self.rebuys

    def as_dict(self) -> dict[str, Any]:
        return {
            "starting_chips": self.starting_chips,
            "levels": [
                {"point_value": lv.point_value, "minimum": lv.minimum, "qualify": lv.qualify}
                for lv in self.levels
            ],
            "rebuys": self.rebuys,
            "rebuy_price_minor": self.rebuy_price_minor,
            "rebuy_chips": self.rebuy_chips,
            "rebuy_until_level": self.rebuy_until_level,
        }

    @classmethod
    def from_dict(cls, data: object) -> ChipLevelRules:
        """The rules from their stored or submitted form; a ``RuleViolation`` names the field."""
        if not isinstance(data, Mapping):
            raise RuleViolation("bad_chip_levels", "chip_levels: an object of settings")
        known = {
            "starting_chips", "levels", "rebuys", "rebuy_price_minor", "rebuy_chips",
            "rebuy_until_level",
        }  # fmt: skip
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleViolation(
                "bad_chip_levels", f"{unknown[0]}: not a chip-level setting", token=unknown[0]
            )
        raw_levels = data.get("levels", DEFAULT_CHIP_LEVELS.as_dict()["levels"])
        if not isinstance(raw_levels, Sequence) or isinstance(raw_levels, str | bytes):
            raise RuleViolation("bad_chip_levels", "levels: a list of levels", token="levels")
        levels = []
        for index, raw in enumerate(raw_levels, start=1):
            if not isinstance(raw, Mapping) or set(raw) != {"point_value", "minimum", "qualify"}:
                raise RuleViolation(
                    "bad_chip_levels",
                    f"levels[{index}]: give point_value, minimum and qualify",
                    token=f"levels[{index}]",
                )
            try:
                levels.append(ChipLevel(**raw))
            except RuleViolation as exc:
                raise RuleViolation(
                    exc.code, f"levels[{index}].{exc}", token=f"levels[{index}]"
                ) from None
        settings = {key: data[key] for key in known - {"levels"} if key in data}
        return cls(levels=tuple(levels), **settings)


#: The chip-level preset the online sites run: 1,000 chips to start, four levels at 5, 10, 15
#: and 20 chips a point with minimums of 800, 1,000, 1,200 and 1,600 and qualifying figures
#: 400 above them; no rebuys.
DEFAULT_CHIP_LEVELS = ChipLevelRules(
    starting_chips=1000,
    levels=(
        ChipLevel(point_value=5, minimum=800, qualify=1200),
        ChipLevel(point_value=10, minimum=1000, qualify=1400),
        ChipLevel(point_value=15, minimum=1200, qualify=1600),
        ChipLevel(point_value=20, minimum=1600, qualify=2000),
    ),
)


def chips_for_points(net_points: Mapping[K, int], level: ChipLevel) -> dict[K, int]:
    """The chips each player wins (or loses) for their net points at a level's value; zero-sum
    when the points are."""
    moves = {}
    for player, points in net_points.items():
        require_int(points, "net points", code="bad_points")
        moves[player] = points * level.point_value
    return moves


@dataclass(frozen=True)
class LevelSplit(Generic[K]):
    """The end of a level for the players who played it: out (below the minimum), between the
    thresholds, and on to the next level (at or above the qualifying figure)."""

    out: tuple[K, ...]
    between: tuple[K, ...]
    qualified: tuple[K, ...]


def level_split(chips: Mapping[K, int], level: ChipLevel) -> LevelSplit[K]:
    """Split the players of a level by their chips at its end (most chips first in each part)."""
    ordered = sorted(chips, key=lambda p: -chips[p])
    return LevelSplit(
        out=tuple(p for p in ordered if chips[p] < level.minimum),
        between=tuple(p for p in ordered if level.minimum <= chips[p] < level.qualify),
        qualified=tuple(p for p in ordered if chips[p] >= level.qualify),
    )
