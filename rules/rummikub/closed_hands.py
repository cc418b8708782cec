"""International Rummikub closed hands: the 40 hand types and an exact classifier.

``classify_closed_hand(tiles, first_turn=..., original_hand=..., is_first_player=...)`` returns the
most valuable type the 14 tiles fit (value by the number of jokers among them) with one arrangement
that proves it, or ``None``. ``fit_closed_hand_type`` asks about one type.

How the table is read (see docs/rules.md, "Closed hands"):

* "groups/runs": all 14 tiles partitioned into valid groups and International runs (1 low or high,
  never both). "Groups only" / "runs only" / "N runs": exactly that kind and number of melds;
  four groups (Sticks) hold all 14 tiles (4 + 4 + 3 + 3).
* Minor: every tile, jokers as what they stand for, at most 9. Major: every tile 10 to 13 or 1,
  a 1 counting high. Totals count each tile at its number (1 counts 1), jokers as what they stand
  for in the arrangement; in "any 14 tiles" types a joker counts 1 (Piccolo) and is 10 or above
  (Grand).
* A joker may stand for any tile, whatever copies are elsewhere; in mosaic and waves it takes a
  colour unlike its neighbours, so it never breaks the "no two neighbours of one colour" rule.
* Grand square: eight tiles of one number (jokers among them stand for that number) and any six.
* Little and Grand Blitz also need their facts (``first_turn``; ``original_hand`` and not
  ``is_first_player``).
* Types of equal value: the highest-numbered type is reported (the table lists the narrower
  variants after the general ones: Piccolo 41 runs rather than Minor 51 runs).

Arrangements list melds (runs low to high, groups in K R B O order), pairs, the two waves, or for
"any 14 tiles" types all tiles in one list. A joker is written ``JK=R7`` when the type fixes what it
stands for and ``JK`` when it may be anything.

Speed (bench/rummikub.py): types are tried from the most valuable down and the first that fits
wins; shapes (pairs, waves, Royal, Mosaic, any-14 types, colour runs) are decided by counting, and
partitions into groups and runs by a memoized search over (remaining tiles packed two bits per
tile into one integer, jokers left) that always extends the lowest remaining tile, after a quick
check that every tile has partners for some meld. Searches are shared by the types of one hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules.errors import RuleViolation
from rules.rummikub.tiles import (
    JOKER,
    JOKER_CODE,
    Tile,
    check_copies,
    parse_tile,
)
from rules.rummikub.type_fit import Arrangement, HandFit

HandValues = tuple[tuple[int, int, int], ...]

HAND_SIZE = 14


@dataclass(frozen=True)
class HandType:
    """One row of the closed hand table (values are in the preset)."""

    number: int
    name: str
    condition: str


HAND_TYPES: tuple[HandType, ...] = tuple(
    HandType(number, name, condition)
    for number, (name, condition) in enumerate(
        (
            ("Basic", "groups/runs"),
            ("Hand minor", "groups/runs, minor"),
            ("Hand minor 51", "groups/runs, minor, total at most 51"),
            ("Minor 51 groups", "groups only, total at most 51"),
            ("Minor 51 runs", "runs only, total at most 51"),
            ("Piccolo 41 odd", "any 14 tiles, total at most 41"),
            ("Piccolo 41 sets", "groups/runs, total at most 41"),
            ("Piccolo 41 runs", "runs only, total at most 41"),
            ("Piccolo 41 groups", "groups only, total at most 41"),
            ("Grand odd", "any 14 tiles, major"),
            ("Grand sets", "groups/runs, major"),
            ("Grand square", "eight tiles of one number, the other six anything"),
            ("Four colours", "four runs, four different colours"),
            ("Four colours minor", "four runs, four different colours, minor"),
            ("Four colours major", "four runs, four different colours, major"),
            ("Three colours", "three runs, three different colours"),
            ("Three colours minor", "three runs, three different colours, minor"),
            ("Three colours major", "three runs, three different colours, major"),
            ("Two colours", "two, three or four runs using only two colours"),
            ("Two colours minor", "two, three or four runs using only two colours, minor"),
            ("Two colours major", "two, three or four runs using only two colours, major"),
            ("Single colour odd", "any 14 tiles of one colour"),
            ("Single colour runs", "two, three or four runs of one colour"),
            ("Royal", "one 14-tile run 1 (low) to 1 (high)"),
            ("Sticks", "four groups"),
            ("Sticks minor", "four groups, minor"),
            ("Sticks major", "four groups, major"),
            ("Mosaic", "one run 1 (low) to 1 (high) of mixed colours, no two neighbours alike"),
            ("Little wave", "two mixed-colour runs 1 to 7, no two neighbours of one colour"),
            ("Big wave", "two mixed-colour runs 8 to 1 (high), no two neighbours of one colour"),
            ("Little wave single colour", "two runs 1 to 7, both one colour"),
            ("Big wave single colour", "two runs 8 to 1 (high), both one colour"),
            ("Little wave two colours", "two runs 1 to 7, of two different colours"),
            ("Big wave two colours", "two runs 8 to 1 (high), of two different colours"),
            ("Seven pairs", "seven pairs of identical tiles"),
            ("Seven pairs minor", "seven pairs of identical tiles, minor"),
            ("Seven pairs major", "seven pairs of identical tiles, major"),
            ("Seven pairs single colour", "seven pairs of identical tiles, all one colour"),
            ("Little Blitz", "groups/runs, melded on the player's first turn"),
            ("Grand Blitz", "groups/runs in the original hand (not for the first player)"),
        ),
        start=1,
    )
)

#: Values for 0, 1 and 2 jokers among the 14 tiles, by type number - 1.
DEFAULT_CLOSED_HAND_VALUES: HandValues = (
    (500, 400, 300),
    (800, 700, 600),
    (1000, 900, 800),
    (1600, 1400, 1200),
    (1600, 1400, 1200),
    (800, 700, 600),
    (1400, 1200, 1000),
    (1600, 1400, 1200),
    (1600, 1400, 1200),
    (700, 600, 500),
    (1400, 1200, 1000),
    (1600, 1400, 1200),
    (900, 800, 700),
    (1000, 900, 800),
    (1000, 900, 800),
    (700, 600, 500),
    (900, 800, 700),
    (900, 800, 700),
    (1000, 900, 800),
    (1400, 1200, 1000),
    (1400, 1200, 1000),
    (1600, 1400, 1200),
    (2000, 1800, 1600),
    (2400, 2200, 2000),
    (1000, 900, 800),
    (1400, 1200, 1000),
    (1400, 1200, 1000),
    (1000, 900, 800),
    (1200, 1000, 900),
    (1200, 1000, 900),
    (2600, 2400, 2200),
    (2600, 2400, 2200),
    (2200, 2000, 1800),
    (2200, 2000, 1800),
    (1700, 1500, 1300),
    (2000, 1800, 1600),
    (2000, 1800, 1600),
    (2200, 2000, 1800),
    (1600, 1400, 1200),
    (2000, 1800, 1600),
)


@dataclass(frozen=True)
class ClosedHand:
    """A classified closed hand: the type's number and name, its value for ``jokers`` jokers, and
    one arrangement of the 14 tiles that proves the type."""

    type: int
    name: str
    value: int
    jokers: int
    arrangement: Arrangement


@lru_cache(maxsize=64)
def _type_order(values: HandValues, jokers: int) -> tuple[int, ...]:
    return tuple(sorted(range(1, 41), key=lambda number: (-values[number - 1][jokers], -number)))


def _read_hand(tiles: Sequence[Tile | str]) -> list[Tile]:
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Sequence):
        raise RuleViolation("bad_field", "closed_hand must be a list of 14 tiles", "closed_hand")
    parsed = [parse_tile(tile) for tile in tiles]
    if len(parsed) != HAND_SIZE:
        raise RuleViolation(
            "wrong_tile_count",
            f"a closed hand has {HAND_SIZE} tiles, not {len(parsed)}",
            token="closed_hand",
            details={"count": len(parsed)},
        )
    check_copies(parsed)
    return parsed


def _standing(parsed: Sequence[Tile]) -> tuple[list[Tile], list[Tile]]:
    """The hand with every declared joker (``JK=R7``) standing where it says, as that tile, and
    the declared jokers. A bare joker stays a joker the search may place anywhere."""
    declared = [tile for tile in parsed if tile.is_joker and tile.stands_for is not None]
    standing = [
        tile.stands_for if tile.is_joker and tile.stands_for is not None else tile
        for tile in parsed
    ]
    for joker in declared:
        assert joker.stands_for is not None
        if sum(1 for tile in standing if tile == joker.stands_for) > 3:
            raise RuleViolation(
                "joker_cannot_stand",
                f"{joker} cannot stand for {joker.stands_for}: the hand would hold it four times",
                token=str(joker),
            )
    return standing, declared


def _marked(arrangement: Arrangement, declared: Sequence[Tile]) -> Arrangement:
    """The arrangement with each declared joker shown as itself (``JK=R7``) in place of one of
    the tiles it stands for (identical to the search, so any one of them)."""
    melds = [list(meld) for meld in arrangement]
    for joker in declared:
        place = next(
            (m, i)
            for m, meld in enumerate(melds)
            for i, tile in enumerate(meld)
            if tile == joker.stands_for
        )
        melds[place[0]][place[1]] = joker
    return tuple(tuple(meld) for meld in melds)


def _refuse_declared(declared: Sequence[Tile], fits_bare: bool) -> None:
    """A hand that fits no type with its declared jokers where they say: refused naming the
    joker when it would fit with them elsewhere (a declared joker is never moved)."""
    if declared and fits_bare:
        names = ", ".join(str(joker) for joker in declared)
        raise RuleViolation(
            "joker_cannot_stand",
            f"{names} cannot stand there: no closed hand type fits the 14 tiles with "
            f"{'that joker' if len(declared) == 1 else 'those jokers'} as declared",
            token=str(declared[0]),
        )


def fit_closed_hand_type(
    tiles: Sequence[Tile | str],
    number: int,
    *,
    first_turn: bool = False,
    original_hand: bool = False,
    is_first_player: bool = False,
    one_high: bool = True,
) -> Arrangement | None:
    """One arrangement proving the 14 ``tiles`` fit closed hand type ``number`` (1-40), or None.
    A declared joker (``JK=R7``) stands for exactly what it declares; without ``one_high`` (the
    house option ``closed_one_high`` off) no run goes on from 13 to 1."""
    standing, declared = _standing(_read_hand(tiles))
    arrangement = HandFit(standing, one_high).fit(
        number, (first_turn, original_hand, is_first_player)
    )
    return None if arrangement is None else _marked(arrangement, declared)


def classify_closed_hand(
    tiles: Sequence[Tile | str],
    *,
    first_turn: bool = False,
    original_hand: bool = False,
    is_first_player: bool = False,
    values: HandValues = DEFAULT_CLOSED_HAND_VALUES,
    one_high: bool = True,
) -> ClosedHand | None:
    """The most valuable closed hand type the 14 ``tiles`` fit, or None when they fit none.

    A joker declared with what it stands for (``JK=R7``) stands for exactly that tile: the hand
    is classified with it there (its value still counts it as a joker), and a hand that fits a
    type only with that joker elsewhere is refused (``joker_cannot_stand``, naming it). Without
    ``one_high`` (the house option ``closed_one_high`` off) no run goes on from 13 to 1.

    Raises ``RuleViolation`` (``bad_tile``, ``wrong_tile_count``, ``too_many_copies``,
    ``joker_cannot_stand``)."""
    parsed = _read_hand(tiles)
    standing, declared = _standing(parsed)
    hand = HandFit(standing, one_high)
    jokers = hand.jokers + len(declared)
    facts = (first_turn, original_hand, is_first_player)
    for number in _type_order(values, jokers):
        arrangement = hand.fit(number, facts)
        if arrangement is not None:
            return ClosedHand(
                type=number,
                name=HAND_TYPES[number - 1].name,
                value=values[number - 1][jokers],
                jokers=jokers,
                arrangement=_marked(arrangement, declared),
            )
    if declared:
        bare = HandFit([JOKER if tile.is_joker else tile for tile in parsed], one_high)
        _refuse_declared(declared, any(bare.fit(n, facts) for n in _type_order(values, jokers)))
    return None


__all__ = [
    "DEFAULT_CLOSED_HAND_VALUES",
    "HAND_TYPES",
    "JOKER_CODE",
    "ClosedHand",
    "HandType",
    "classify_closed_hand",
    "fit_closed_hand_type",
]
