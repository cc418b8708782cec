"""The partition search of closed hands (``rules.rummikub.closed_hands``): the least total, or
any partition, of a hand's tiles into groups and/or International runs within a range (any, minor,
major), memoized over (remaining tiles packed two bits per tile into one integer, jokers left)."""

from __future__ import annotations

from collections.abc import Iterator

from rules.rummikub.tiles import NUMBER_TILES, Tile, joker_as

# Range of a partition: any tiles, minor (1-9, 1 low) or major (10-13 and 1 high).
ANY, MINOR, MAJOR = 0, 1, 2
BOUNDS = {ANY: (1, 14), MINOR: (1, 9), MAJOR: (10, 14)}
INF = 1 << 30
MAJOR_NUMBERS = frozenset((1, 10, 11, 12, 13))

# A meld found by the partition search: (GROUP, number, colour mask, jokers, 0) or
# (RUN, colour, lo, hi, joker position mask); positions run 1..14, 14 being a 1 after 13.
GROUP, RUN = 0, 1
MeldDesc = tuple[int, int, int, int, int]
MeldOption = tuple[int, int, int, MeldDesc]


def bounds(mode: int, one_high: bool = True) -> tuple[int, int]:
    """The first and last run position of a range; without ``one_high`` (the house option
    ``closed_one_high`` off) no run goes on from 13 to 1, so position 14 is out."""
    lo, hi = BOUNDS[mode]
    return lo, hi if one_high else min(hi, 13)


def number_at(position: int) -> int:
    return 1 if position == 14 else position


def number_allowed(number: int, mode: int) -> bool:
    if mode == MINOR:
        return number <= 9
    if mode == MAJOR:
        return number in MAJOR_NUMBERS
    return True


class Partition:
    """Exact search for the least total of a partition of tiles into melds.

    The tiles are a state integer with two bits per tile code (its count); the search takes the
    lowest remaining tile, tries every meld that contains it (groups and/or runs, jokers anywhere
    they fit, within the range) and memoizes the least total over (remaining tiles, jokers)."""

    def __init__(self, groups: bool, runs: bool, mode: int, one_high: bool = True) -> None:
        self.groups = groups
        self.runs = runs
        self.mode = mode
        self.lo, self.hi = bounds(mode, one_high)
        self.memo: dict[int, int] = {}
        self.failed: set[int] = set()
        self.choice: dict[int, tuple[int, int, MeldDesc]] = {}

    def best(self, state: int, jokers: int) -> int:
        if state == 0:
            return 0 if jokers == 0 else INF
        key = state * 3 + jokers
        found = self.memo.get(key)
        if found is not None:
            return found
        result = INF
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

    def found(self, state: int, jokers: int) -> list[MeldDesc]:
        melds = []
        while state:
            state, jokers, desc = self.choice[state * 3 + jokers]
            melds.append(desc)
        return melds

    def arrangement(self, state: int, jokers: int) -> list[MeldDesc]:
        melds: list[MeldDesc] = []
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

    def options(self, state: int, jokers: int) -> list[MeldOption]:
        """Every meld holding the lowest remaining tile: (rest, jokers left, value, meld)."""
        code = ((state & -state).bit_length() - 1) >> 1
        colour, number = divmod(code, 13)
        number += 1
        state -= 1 << (2 * code)
        out: list[MeldOption] = []
        mode = self.mode
        if self.groups and number_allowed(number, mode):
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
                        (rest, jokers - used, number * size, (GROUP, number, colours, used, 0))
                    )
        if self.runs:
            starts = []
            if number == 1:
                if mode != MAJOR:
                    starts.append(1)
                if mode != MINOR and self.hi == 14:
                    starts.append(14)
            elif self.lo <= number <= self.hi:
                starts.append(number)
            for start in starts:
                self._runs(state, jokers, colour, start, out)
        return out

    def _runs(
        self, state: int, jokers: int, colour: int, start: int, out: list[MeldOption]
    ) -> None:
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
                out.append((rest, jokers - used, value, (RUN, colour, lo, start, mask)))
            frontier = [(rest, used, value, mask)]
            for position in range(start + 1, top + 1):
                number = number_at(position)
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
                            (rest2, jokers - used2, value2, (RUN, colour, lo, position, mask2))
                        )


def meld_tiles(desc: MeldDesc) -> tuple[Tile, ...]:
    kind, first, second, third, mask = desc
    if kind == GROUP:
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
        tile = NUMBER_TILES[colour * 13 + number_at(position) - 1]
        tiles.append(joker_as(tile) if mask >> position & 1 else tile)
    return tuple(tiles)


def joker_allotments(parts: int, jokers: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (jokers,)
        return
    for first in range(jokers + 1):
        for rest in joker_allotments(parts - 1, jokers - first):
            yield (first, *rest)
