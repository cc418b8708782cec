"""Whether a closed hand fits each of the 40 types (``rules.rummikub.closed_hands``): one hand's
counts and the facts every type test reads, the shapes decided by counting (pairs, waves, Royal,
Mosaic, any-14 types, colour runs) and the partitions through the cached searches
(``rules.rummikub.partitions``)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from rules.rummikub.partitions import (
    ANY,
    INF,
    MAJOR,
    MAJOR_NUMBERS,
    MINOR,
    RUN,
    Partition,
    bounds,
    joker_allotments,
    meld_tiles,
    number_allowed,
    number_at,
)
from rules.rummikub.tiles import JOKER, NUMBER_TILES, Tile, joker_as

Arrangement = tuple[tuple[Tile, ...], ...]

PICCOLO_TOTAL = 41
MINOR_TOTAL = 51
GRAND_SQUARE_SIZE = 8


class HandFit:
    """One hand's counts and the facts every type test reads, with the searches cached."""

    def __init__(self, tiles: Sequence[Tile], one_high: bool = True) -> None:
        self.tiles = tuple(tiles)
        self.one_high = one_high
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
        self.major = all(code % 13 + 1 in MAJOR_NUMBERS for code in self.codes)
        self._searches: dict[tuple[bool, bool, int], Partition] = {}
        self._best: dict[tuple[bool, bool, int], int] = {}

    # -- partitions -------------------------------------------------------------------------

    def _possible(self, groups: bool, runs: bool, mode: int) -> bool:
        """A quick necessary condition: every tile has partners for some meld."""
        if (mode == MINOR and not self.minor) or (mode == MAJOR and not self.major):
            return False
        counts, jokers = self.counts, self.jokers
        lo, hi = bounds(mode, self.one_high)
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
                    if other != position and not counts[colour * 13 + number_at(other) - 1]
                )
                if missing <= jokers:
                    return True
        return False

    def best_total(self, groups: bool, runs: bool, mode: int) -> int:
        """Least total of a partition into melds of those kinds in that range (INF if none)."""
        key = (groups, runs, mode)
        found = self._best.get(key)
        if found is None:
            if self._possible(groups, runs, mode):
                search = Partition(groups, runs, mode, self.one_high)
                self._searches[key] = search
                found = search.best(self.state, self.jokers)
            else:
                found = INF
            self._best[key] = found
        return found

    def partition(
        self, groups: bool, runs: bool, mode: int, limit: int = INF
    ) -> Arrangement | None:
        """An arrangement into melds of those kinds in that range (of least total when a
        ``limit`` on the total is given), or None."""
        key = (groups, runs, mode)
        if limit < INF:
            if self.best_total(groups, runs, mode) > limit:
                return None
            melds = self._searches[key].arrangement(self.state, self.jokers)
        else:
            search = self._searches.get(key)
            if search is None:
                if not self._possible(groups, runs, mode):
                    self._best[key] = INF
                    return None
                search = self._searches[key] = Partition(groups, runs, mode, self.one_high)
            if self._best.get(key, 0) >= INF or not search.find(self.state, self.jokers):
                return None
            melds = search.found(self.state, self.jokers)
        return tuple(meld_tiles(desc) for desc in melds)

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
        lo_bound, hi_bound = bounds(mode, self.one_high)
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
                return meld_tiles((RUN, colour, lo, hi, mask))
        return None

    def _runs_by_colour(self, colours: int, mode: int) -> Arrangement | None:
        if len(self.colours) != colours:
            return None
        for allotment in joker_allotments(colours, self.jokers):
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
            number = number_at(position)
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
                if number_allowed(code % 13 + 1, mode)
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
            limit = {4: MINOR_TOTAL, 9: PICCOLO_TOTAL}.get(number, INF)
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
