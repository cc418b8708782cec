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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from rules.errors import RuleViolation
from rules.rummikub.tiles import (
    JOKER,
    JOKER_CODE,
    NUMBER_TILES,
    Tile,
    check_copies,
    joker_as,
    parse_tile,
)

HandValues = tuple[tuple[int, int, int], ...]
Arrangement = tuple[tuple[Tile, ...], ...]

HAND_SIZE = 14
PICCOLO_TOTAL = 41
MINOR_TOTAL = 51
GRAND_SQUARE_SIZE = 8


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


# Range of a partition: any tiles, minor (1-9, 1 low) or major (10-13 and 1 high).
ANY, MINOR, MAJOR = 0, 1, 2
_BOUNDS = {ANY: (1, 14), MINOR: (1, 9), MAJOR: (10, 14)}
_INF = 1 << 30
_MAJOR_NUMBERS = frozenset((1, 10, 11, 12, 13))

# A meld found by the partition search: (GROUP, number, colour mask, jokers, 0) or
# (RUN, colour, lo, hi, joker position mask); positions run 1..14, 14 being a 1 after 13.
_GROUP, _RUN = 0, 1
_Desc = tuple[int, int, int, int, int]
_Option = tuple[int, int, int, _Desc]


def _number_at(position: int) -> int:
    return 1 if position == 14 else position


def _number_allowed(number: int, mode: int) -> bool:
    if mode == MINOR:
        return number <= 9
    if mode == MAJOR:
        return number in _MAJOR_NUMBERS
    return True


class _Partition:
    """Exact search for the least total of a partition of tiles into melds.

    The tiles are a state integer with two bits per tile code (its count); the search takes the
    lowest remaining tile, tries every meld that contains it (groups and/or runs, jokers anywhere
    they fit, within the range) and memoizes the least total over (remaining tiles, jokers)."""

    def __init__(self, groups: bool, runs: bool, mode: int) -> None:
        self.groups = groups
        self.runs = runs
        self.mode = mode
        self.lo, self.hi = _BOUNDS[mode]
        self.memo: dict[int, int] = {}
        self.failed: set[int] = set()
        self.choice: dict[int, tuple[int, int, _Desc]] = {}

    def best(self, state: int, jokers: int) -> int:
        if state == 0:
            return 0 if jokers == 0 else _INF
        key = state * 3 + jokers
        found = self.memo.get(key)
        if found is not None:
            return found
        result = _INF
        for rest, rest_jokers, value, _desc in self.options(state, jokers):
            if value >= result:
                continue
            total = value + self.best(rest, rest_jokers)
            if total < result:
                result = total
        self.memo[key] = result
        return result

    def find(self, state: int, jokers: int) -> bool:
        """Whether any partition exists (depth first, stopping at the first one found); the melds
        of the one found are kept in ``choice``."""
        if state == 0:
            return jokers == 0
        key = state * 3 + jokers
        if key in self.failed:
            return False
        for rest, rest_jokers, _value, desc in self.options(state, jokers):
            if self.find(rest, rest_jokers):
                self.choice[key] = (rest, rest_jokers, desc)
                return True
        self.failed.add(key)
        return False

    def found(self, state: int, jokers: int) -> list[_Desc]:
        melds = []
        while state:
            state, jokers, desc = self.choice[state * 3 + jokers]
            melds.append(desc)
        return melds

    def arrangement(self, state: int, jokers: int) -> list[_Desc]:
        melds: list[_Desc] = []
        target = self.best(state, jokers)
        while state:
            for rest, rest_jokers, value, desc in self.options(state, jokers):
                if value + self.best(rest, rest_jokers) == target:
                    melds.append(desc)
                    state, jokers, target = rest, rest_jokers, target - value
                    break
            else:  # pragma: no cover - the memo guarantees a matching option
                raise AssertionError("no meld reproduces the best total")
        return melds

    def options(self, state: int, jokers: int) -> list[_Option]:
        """Every meld holding the lowest remaining tile: (rest, jokers left, value, meld)."""
        code = ((state & -state).bit_length() - 1) >> 1
        colour, number = divmod(code, 13)
        number += 1
        state -= 1 << (2 * code)
        out: list[_Option] = []
        mode = self.mode
        if self.groups and _number_allowed(number, mode):
            others = [
                other
                for other in range(4)
                if other != colour and (state >> (2 * (other * 13 + number - 1))) & 3
            ]
            for mask in range(1 << len(others)):
                rest = state
                colours = 1 << colour
                real = 1
                for index, other in enumerate(others):
                    if mask >> index & 1:
                        rest -= 1 << (2 * (other * 13 + number - 1))
                        colours |= 1 << other
                        real += 1
                for used in range(max(0, 3 - real), min(jokers, 4 - real) + 1):
                    size = real + used
                    out.append(
                        (rest, jokers - used, number * size, (_GROUP, number, colours, used, 0))
                    )
        if self.runs:
            starts = []
            if number == 1:
                if mode != MAJOR:
                    starts.append(1)
                if mode != MINOR:
                    starts.append(14)
            elif self.lo <= number <= self.hi:
                starts.append(number)
            for start in starts:
                self._runs(state, jokers, colour, start, out)
        return out

    def _runs(self, state: int, jokers: int, colour: int, start: int, out: list[_Option]) -> None:
        base = colour * 13 - 1
        # Extensions below the start: (lo, state, jokers used, value, joker mask).
        frontier = [(state, 0, start if start != 14 else 1, 0)]
        downs = [(start, *frontier[0])]
        lowest = max(self.lo, 2) if start == 14 else self.lo
        for position in range(start - 1, lowest - 1, -1):
            shift = 2 * (base + position)
            grown = []
            for rest, used, value, mask in frontier:
                if (rest >> shift) & 3:
                    grown.append((rest - (1 << shift), used, value + position, mask))
                if used < jokers:
                    grown.append((rest, used + 1, value + position, mask | 1 << position))
            if not grown:
                break
            frontier = grown
            downs.extend((position, *item) for item in grown)
        for lo, rest, used, value, mask in downs:
            top = 13 if lo == 1 else self.hi
            length = start - lo + 1
            if length >= 3:
                out.append((rest, jokers - used, value, (_RUN, colour, lo, start, mask)))
            frontier = [(rest, used, value, mask)]
            for position in range(start + 1, top + 1):
                number = _number_at(position)
                shift = 2 * (base + number)
                grown = []
                for rest2, used2, value2, mask2 in frontier:
                    if (rest2 >> shift) & 3:
                        grown.append((rest2 - (1 << shift), used2, value2 + number, mask2))
                    if used2 < jokers:
                        grown.append((rest2, used2 + 1, value2 + number, mask2 | 1 << position))
                if not grown:
                    break
                frontier = grown
                if position - lo + 1 >= 3:
                    for rest2, used2, value2, mask2 in grown:
                        out.append(
                            (rest2, jokers - used2, value2, (_RUN, colour, lo, position, mask2))
                        )


def _meld_tiles(desc: _Desc) -> tuple[Tile, ...]:
    kind, first, second, third, mask = desc
    if kind == _GROUP:
        number, colours, used = first, second, third
        free = [colour for colour in range(4) if not colours >> colour & 1]
        jokers = set(free[:used])
        return tuple(
            joker_as(NUMBER_TILES[colour * 13 + number - 1])
            if colour in jokers
            else NUMBER_TILES[colour * 13 + number - 1]
            for colour in range(4)
            if colours >> colour & 1 or colour in jokers
        )
    colour, lo, hi = first, second, third
    tiles = []
    for position in range(lo, hi + 1):
        tile = NUMBER_TILES[colour * 13 + _number_at(position) - 1]
        tiles.append(joker_as(tile) if mask >> position & 1 else tile)
    return tuple(tiles)


def _joker_allotments(parts: int, jokers: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (jokers,)
        return
    for first in range(jokers + 1):
        for rest in _joker_allotments(parts - 1, jokers - first):
            yield (first, *rest)


class _Hand:
    """One hand's counts and the facts every type test reads, with the searches cached."""

    def __init__(self, tiles: Sequence[Tile]) -> None:
        self.tiles = tuple(tiles)
        counts = [0] * 52
        jokers = 0
        for tile in tiles:
            if tile.number is None:
                jokers += 1
            else:
                counts[tile.code] += 1
        self.counts = counts
        self.jokers = jokers
        self.codes = [code for code in range(52) for _ in range(counts[code])]
        self.state = sum(count << (2 * code) for code, count in enumerate(counts) if count)
        self.colours = sorted({code // 13 for code in self.codes})
        by_number = [0] * 14
        for code in self.codes:
            by_number[code % 13 + 1] += 1
        self.by_number = by_number
        self.total = sum(code % 13 + 1 for code in self.codes)
        self.minor = all(code % 13 + 1 <= 9 for code in self.codes)
        self.major = all(code % 13 + 1 in _MAJOR_NUMBERS for code in self.codes)
        self._searches: dict[tuple[bool, bool, int], _Partition] = {}
        self._best: dict[tuple[bool, bool, int], int] = {}

    # -- partitions -------------------------------------------------------------------------

    def _possible(self, groups: bool, runs: bool, mode: int) -> bool:
        """A quick necessary condition: every tile has partners for some meld."""
        if (mode == MINOR and not self.minor) or (mode == MAJOR and not self.major):
            return False
        counts, jokers = self.counts, self.jokers
        lo, hi = _BOUNDS[mode]
        if groups and not runs and len({code % 13 for code in self.codes}) > 4:
            return False
        for code in set(self.codes):
            colour, number = divmod(code, 13)
            number += 1
            if groups:
                others = sum(
                    1 for other in range(4) if other != colour and counts[other * 13 + number - 1]
                )
                if others + jokers >= 2:
                    continue
            if runs and self._run_partner(colour, number, lo, hi):
                continue
            return False
        return True

    def _run_partner(self, colour: int, number: int, lo: int, hi: int) -> bool:
        counts, jokers = self.counts, self.jokers
        positions = [number] if number != 1 else [1, 14]
        for position in positions:
            if not lo <= position <= hi:
                continue
            for first in range(position - 2, position + 1):
                last = first + 2
                if first < lo or last > hi or (first == 1 and last == 14):
                    continue
                missing = sum(
                    1
                    for other in range(first, last + 1)
                    if other != position and not counts[colour * 13 + _number_at(other) - 1]
                )
                if missing <= jokers:
                    return True
        return False

    def best_total(self, groups: bool, runs: bool, mode: int) -> int:
        """Least total of a partition into melds of those kinds in that range (_INF if none)."""
        key = (groups, runs, mode)
        found = self._best.get(key)
        if found is None:
            if self._possible(groups, runs, mode):
                search = _Partition(groups, runs, mode)
                self._searches[key] = search
                found = search.best(self.state, self.jokers)
            else:
                found = _INF
            self._best[key] = found
        return found

    def partition(
        self, groups: bool, runs: bool, mode: int, limit: int = _INF
    ) -> Arrangement | None:
        """An arrangement into melds of those kinds in that range (of least total when a
        ``limit`` on the total is given), or None."""
        key = (groups, runs, mode)
        if limit < _INF:
            if self.best_total(groups, runs, mode) > limit:
                return None
            melds = self._searches[key].arrangement(self.state, self.jokers)
        else:
            search = self._searches.get(key)
            if search is None:
                if not self._possible(groups, runs, mode):
                    self._best[key] = _INF
                    return None
                search = self._searches[key] = _Partition(groups, runs, mode)
            if self._best.get(key, 0) >= _INF or not search.find(self.state, self.jokers):
                return None
            melds = search.found(self.state, self.jokers)
        return tuple(_meld_tiles(desc) for desc in melds)

    # -- runs per colour ----------------------------------------------------------------------

    def _colour_numbers(self, colour: int) -> list[int] | None:
        """Numbers of one colour's tiles, or None when a number is there twice."""
        counts = self.counts[colour * 13 : colour * 13 + 13]
        if any(count > 1 for count in counts):
            return None
        return [index + 1 for index, count in enumerate(counts) if count]

    def _single_run(self, colour: int, jokers: int, mode: int) -> tuple[Tile, ...] | None:
        numbers = self._colour_numbers(colour)
        if not numbers:
            return None
        lo_bound, hi_bound = _BOUNDS[mode]
        length = len(numbers) + jokers
        if length < 3:
            return None
        choices = [numbers]
        if numbers[0] == 1:
            high = [*numbers[1:], 14]
            choices = [high] if mode == MAJOR else [numbers, high] if mode == ANY else [numbers]
        for positions in choices:
            low, high_end = min(positions), max(positions)
            if low < lo_bound or high_end > hi_bound:
                continue
            for lo in range(
                max(lo_bound, high_end - length + 1), min(low, hi_bound - length + 1) + 1
            ):
                hi = lo + length - 1
                if lo == 1 and hi == 14:
                    continue
                wanted = set(positions)
                mask = sum(1 << p for p in range(lo, hi + 1) if p not in wanted)
                return _meld_tiles((_RUN, colour, lo, hi, mask))
        return None

    def _runs_by_colour(self, colours: int, mode: int) -> Arrangement | None:
        if len(self.colours) != colours:
            return None
        for allotment in _joker_allotments(colours, self.jokers):
            runs = []
            for colour, jokers in zip(self.colours, allotment, strict=True):
                run = self._single_run(colour, jokers, mode)
                if run is None:
                    break
                runs.append(run)
            else:
                return tuple(runs)
        return None

    # -- the other shapes ---------------------------------------------------------------------

    def _all_tiles(self) -> Arrangement:
        return (tuple(NUMBER_TILES[code] for code in self.codes) + (JOKER,) * self.jokers,)

    def _grand_square(self) -> Arrangement | None:
        number = max(range(1, 14), key=lambda n: (self.by_number[n], -n))
        if self.by_number[number] + self.jokers < GRAND_SQUARE_SIZE:
            return None
        square = [NUMBER_TILES[code] for code in self.codes if code % 13 + 1 == number]
        others = [NUMBER_TILES[code] for code in self.codes if code % 13 + 1 != number]
        needed = max(0, GRAND_SQUARE_SIZE - len(square))
        for colour in range(4):
            code = colour * 13 + number - 1
            for _ in range(2 - self.counts[code]):
                if needed:
                    square.append(joker_as(NUMBER_TILES[code]))
                    needed -= 1
        others.extend([JOKER] * (self.jokers - max(0, GRAND_SQUARE_SIZE - self.by_number[number])))
        return (tuple(square), tuple(others))

    def _royal(self) -> Arrangement | None:
        if len(self.colours) != 1:
            return None
        colour = self.colours[0]
        counts = self.counts[colour * 13 : colour * 13 + 13]
        if any(count > 1 for count in counts[1:]):
            return None
        tiles = []
        ones = counts[0]
        for position in range(1, 15):
            number = _number_at(position)
            tile = NUMBER_TILES[colour * 13 + number - 1]
            if number == 1:
                real = ones > 0
                ones -= 1 if real else 0
            else:
                real = counts[number - 1] > 0
            tiles.append(tile if real else joker_as(tile))
        return (tuple(tiles),)

    def _colours_of(self, number: int) -> list[int]:
        return [code // 13 for code in self.codes if code % 13 + 1 == number]

    def _mosaic(self) -> Arrangement | None:
        if self.by_number[1] > 2 or any(self.by_number[n] > 1 for n in range(2, 14)):
            return None
        middle = []
        for number in range(2, 14):
            colours = self._colours_of(number)
            middle.append(colours[0] if colours else None)
        ones = self._colours_of(1)
        ends: list[tuple[int | None, int | None]]
        if len(ones) == 2:
            ends = [(ones[0], ones[1]), (ones[1], ones[0])]
        elif len(ones) == 1:
            ends = [(ones[0], None), (None, ones[0])]
        else:
            ends = [(None, None)]
        numbers = [*range(1, 14), 1]
        for first, last in ends:
            sequence = [first, *middle, last]
            if _alternates(sequence):
                return (_wave_tiles(sequence, numbers),)
        return None

    def _wave_numbers(self, little: bool) -> list[int] | None:
        numbers = list(range(1, 8)) if little else [*range(8, 14), 1]
        allowed = set(numbers)
        if any(code % 13 + 1 not in allowed for code in self.codes):
            return None
        if any(self.by_number[n] > 2 for n in numbers):
            return None
        return numbers

    def _wave_mixed(self, little: bool) -> Arrangement | None:
        numbers = self._wave_numbers(little)
        if numbers is None:
            return None
        # Dynamic programme over the seven numbers: state = colours at the end of both runs.
        layer: dict[tuple[int | None, int | None], list[tuple[int | None, int | None]]] = {
            (None, None): []
        }
        first = True
        for number in numbers:
            colours = self._colours_of(number)
            if len(colours) == 2:
                picks: list[tuple[int | None, int | None]] = [
                    (colours[0], colours[1]),
                    (colours[1], colours[0]),
                ]
            elif len(colours) == 1:
                picks = [(colours[0], None), (None, colours[0])]
            else:
                picks = [(None, None)]
            grown: dict[tuple[int | None, int | None], list[tuple[int | None, int | None]]] = {}
            for (end_a, end_b), path in layer.items():
                for pick_a, pick_b in picks:
                    if not first and (
                        (pick_a is not None and pick_a == end_a)
                        or (pick_b is not None and pick_b == end_b)
                    ):
                        continue
                    grown.setdefault((pick_a, pick_b), [*path, (pick_a, pick_b)])
            if not grown:
                return None
            layer = grown
            first = False
        path = next(iter(layer.values()))
        run_a = [a for a, _ in path]
        run_b = [b for _, b in path]
        return (_wave_tiles(run_a, numbers), _wave_tiles(run_b, numbers))

    def _wave_single(self, little: bool) -> Arrangement | None:
        numbers = self._wave_numbers(little)
        if numbers is None or len(self.colours) != 1:
            return None
        colour = self.colours[0]
        runs = []
        for copy in range(2):
            runs.append(
                tuple(
                    NUMBER_TILES[colour * 13 + n - 1]
                    if self.counts[colour * 13 + n - 1] > copy
                    else joker_as(NUMBER_TILES[colour * 13 + n - 1])
                    for n in numbers
                )
            )
        return tuple(runs)

    def _wave_two(self, little: bool) -> Arrangement | None:
        numbers = self._wave_numbers(little)
        if numbers is None or len(self.colours) != 2:
            return None
        runs = []
        for colour in self.colours:
            if any(self.counts[colour * 13 + n - 1] > 1 for n in numbers):
                return None
            runs.append(
                tuple(
                    NUMBER_TILES[colour * 13 + n - 1]
                    if self.counts[colour * 13 + n - 1]
                    else joker_as(NUMBER_TILES[colour * 13 + n - 1])
                    for n in numbers
                )
            )
        return tuple(runs)

    def _pairs(self, mode: int, one_colour: bool) -> Arrangement | None:
        if (mode == MINOR and not self.minor) or (mode == MAJOR and not self.major):
            return None
        if one_colour and len(self.colours) != 1:
            return None
        singles = [code for code in range(52) if self.counts[code] == 1]
        if len(singles) > self.jokers:
            return None
        pairs: list[tuple[Tile, ...]] = []
        for code in range(52):
            tile = NUMBER_TILES[code]
            if self.counts[code] == 2:
                pairs.append((tile, tile))
            elif self.counts[code] == 1:
                pairs.append((tile, joker_as(tile)))
        if self.jokers - len(singles) == 2:
            fits = [
                code
                for code in range(52)
                if _number_allowed(code % 13 + 1, mode)
                and (not one_colour or code // 13 == self.colours[0])
            ]
            code = next((c for c in fits if not self.counts[c]), fits[0])
            stand_in = joker_as(NUMBER_TILES[code])
            pairs.append((stand_in, stand_in))
        return tuple(pairs)

    # -- the table ------------------------------------------------------------------------------

    def fit(self, number: int, facts: tuple[bool, bool, bool]) -> Arrangement | None:
        """One arrangement proving the hand fits type ``number``, or None."""
        first_turn, original_hand, is_first_player = facts
        if number in (1, 39, 40):
            if number == 39 and not first_turn:
                return None
            if number == 40 and (not original_hand or is_first_player):
                return None
            return self.partition(True, True, ANY)
        if number == 2:
            return self.partition(True, True, MINOR)
        if number == 3:
            if self.total + self.jokers > MINOR_TOTAL:
                return None
            return self.partition(True, True, MINOR, MINOR_TOTAL)
        if number in (4, 9, 25, 26, 27):
            limit = {4: MINOR_TOTAL, 9: PICCOLO_TOTAL}.get(number, _INF)
            if (number == 26 and not self.minor) or (number == 27 and not self.major):
                return None
            if self.total + self.jokers > limit:
                return None
            return self.partition(True, False, ANY, limit)
        if number in (5, 8):
            limit = MINOR_TOTAL if number == 5 else PICCOLO_TOTAL
            if self.total + self.jokers > limit:
                return None
            return self.partition(False, True, ANY, limit)
        if number == 6:
            return self._all_tiles() if self.total + self.jokers <= PICCOLO_TOTAL else None
        if number == 7:
            if self.total + self.jokers > PICCOLO_TOTAL:
                return None
            return self.partition(True, True, ANY, PICCOLO_TOTAL)
        if number == 10:
            return self._all_tiles() if self.major else None
        if number == 11:
            return self.partition(True, True, MAJOR)
        if number == 12:
            return self._grand_square()
        if 13 <= number <= 18:
            colours = 4 if number <= 15 else 3
            return self._runs_by_colour(colours, (ANY, MINOR, MAJOR)[(number - 13) % 3])
        if 19 <= number <= 21:
            if len(self.colours) != 2:
                return None
            return self.partition(False, True, (ANY, MINOR, MAJOR)[number - 19])
        if number == 22:
            return self._all_tiles() if len(self.colours) == 1 else None
        if number == 23:
            if len(self.colours) != 1:
                return None
            return self.partition(False, True, ANY)
        if number == 24:
            return self._royal()
        if number == 28:
            return self._mosaic()
        if number in (29, 30):
            return self._wave_mixed(number == 29)
        if number in (31, 32):
            return self._wave_single(number == 31)
        if number in (33, 34):
            return self._wave_two(number == 33)
        if 35 <= number <= 38:
            mode = {36: MINOR, 37: MAJOR}.get(number, ANY)
            return self._pairs(mode, number == 38)
        raise ValueError(f"no closed hand type {number}: types are 1 to 40")


def _alternates(colours: Sequence[int | None]) -> bool:
    return all(a is None or b is None or a != b for a, b in pairwise(colours))


def _wave_tiles(colours: Sequence[int | None], numbers: Sequence[int]) -> tuple[Tile, ...]:
    """A mixed-colour run; each joker takes the first colour unlike both neighbours."""
    chosen: list[int] = []
    for index, colour in enumerate(colours):
        if colour is None:
            taken = {chosen[-1]} if chosen else set()
            following = colours[index + 1] if index + 1 < len(colours) else None
            if following is not None:
                taken.add(following)
            colour = next(c for c in range(4) if c not in taken)
            chosen.append(colour)
        else:
            chosen.append(colour)
    return tuple(
        NUMBER_TILES[colour * 13 + number - 1]
        if given is not None
        else joker_as(NUMBER_TILES[colour * 13 + number - 1])
        for colour, given, number in zip(chosen, colours, numbers, strict=True)
    )


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
) -> Arrangement | None:
    """One arrangement proving the 14 ``tiles`` fit closed hand type ``number`` (1-40), or None.
    A declared joker (``JK=R7``) stands for exactly what it declares."""
    standing, declared = _standing(_read_hand(tiles))
    arrangement = _Hand(standing).fit(number, (first_turn, original_hand, is_first_player))
    return None if arrangement is None else _marked(arrangement, declared)


def classify_closed_hand(
    tiles: Sequence[Tile | str],
    *,
    first_turn: bool = False,
    original_hand: bool = False,
    is_first_player: bool = False,
    values: HandValues = DEFAULT_CLOSED_HAND_VALUES,
) -> ClosedHand | None:
    """The most valuable closed hand type the 14 ``tiles`` fit, or None when they fit none.

    A joker declared with what it stands for (``JK=R7``) stands for exactly that tile: the hand
    is classified with it there (its value still counts it as a joker), and a hand that fits a
    type only with that joker elsewhere is refused (``joker_cannot_stand``, naming it).

    Raises ``RuleViolation`` (``bad_tile``, ``wrong_tile_count``, ``too_many_copies``,
    ``joker_cannot_stand``)."""
    parsed = _read_hand(tiles)
    standing, declared = _standing(parsed)
    hand = _Hand(standing)
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
        bare = _Hand([JOKER if tile.is_joker else tile for tile in parsed])
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
