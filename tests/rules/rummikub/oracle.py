"""A slow, independent reading of the closed hand table, for checking the classifier.

It shares nothing with ``rules.rummikub.closed_hands``: tiles are ``(colour, number)`` pairs and
``None`` for a joker, melds are found by enumerating subsets of the hand, and jokers are replaced
by candidate tiles by brute force. ``fits(hand, type)`` says whether the hand fits a type;
``check_arrangement`` checks an arrangement the engine returned against the type it names."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

Tile = tuple[str, int] | None  # None is a joker
Concrete = tuple[str, int]

COLOURS = "KRBO"
MAJOR = {1, 10, 11, 12, 13}
ALL_TILES: list[Concrete] = [(c, n) for c in COLOURS for n in range(1, 14)]

# Type number -> (name, values for 0/1/2 jokers), retyped from the rules table.
TABLE: dict[int, tuple[str, tuple[int, int, int]]] = {
    1: ("Basic", (500, 400, 300)),
    2: ("Hand minor", (800, 700, 600)),
    3: ("Hand minor 51", (1000, 900, 800)),
    4: ("Minor 51 groups", (1600, 1400, 1200)),
    5: ("Minor 51 runs", (1600, 1400, 1200)),
    6: ("Piccolo 41 odd", (800, 700, 600)),
    7: ("Piccolo 41 sets", (1400, 1200, 1000)),
    8: ("Piccolo 41 runs", (1600, 1400, 1200)),
    9: ("Piccolo 41 groups", (1600, 1400, 1200)),
    10: ("Grand odd", (700, 600, 500)),
    11: ("Grand sets", (1400, 1200, 1000)),
    12: ("Grand square", (1600, 1400, 1200)),
    13: ("Four colours", (900, 800, 700)),
    14: ("Four colours minor", (1000, 900, 800)),
    15: ("Four colours major", (1000, 900, 800)),
    16: ("Three colours", (700, 600, 500)),
    17: ("Three colours minor", (900, 800, 700)),
    18: ("Three colours major", (900, 800, 700)),
    19: ("Two colours", (1000, 900, 800)),
    20: ("Two colours minor", (1400, 1200, 1000)),
    21: ("Two colours major", (1400, 1200, 1000)),
    22: ("Single colour odd", (1600, 1400, 1200)),
    23: ("Single colour runs", (2000, 1800, 1600)),
    24: ("Royal", (2400, 2200, 2000)),
    25: ("Sticks", (1000, 900, 800)),
    26: ("Sticks minor", (1400, 1200, 1000)),
    27: ("Sticks major", (1400, 1200, 1000)),
    28: ("Mosaic", (1000, 900, 800)),
    29: ("Little wave", (1200, 1000, 900)),
    30: ("Big wave", (1200, 1000, 900)),
    31: ("Little wave single colour", (2600, 2400, 2200)),
    32: ("Big wave single colour", (2600, 2400, 2200)),
    33: ("Little wave two colours", (2200, 2000, 1800)),
    34: ("Big wave two colours", (2200, 2000, 1800)),
    35: ("Seven pairs", (1700, 1500, 1300)),
    36: ("Seven pairs minor", (2000, 1800, 1600)),
    37: ("Seven pairs major", (2000, 1800, 1600)),
    38: ("Seven pairs single colour", (2200, 2000, 1800)),
    39: ("Little Blitz", (1600, 1400, 1200)),
    40: ("Grand Blitz", (2000, 1800, 1600)),
}


def read(token: str) -> Tile:
    token = token.upper()
    if token.startswith("JK"):
        return None
    return (token[0], int(token[1:]))


def read_with_stand_in(token: str) -> tuple[Tile, Concrete | None]:
    """(the tile as held, what it stands for when the arrangement says so)."""
    token = token.upper()
    if token.startswith("JK="):
        return None, (token[3], int(token[4:]))
    tile = read(token)
    return tile, tile


# -- one meld, concrete ------------------------------------------------------------------------


def concrete_group(tiles: Sequence[Concrete]) -> bool:
    return (
        3 <= len(tiles) <= 4
        and len({n for _, n in tiles}) == 1
        and len({c for c, _ in tiles}) == len(tiles)
    )


def concrete_run(tiles: Sequence[Concrete]) -> bool:
    """Any order of the tiles may be the run (1 low or high, not both)."""
    if len(tiles) < 3 or len({c for c, _ in tiles}) != 1:
        return False
    numbers = sorted(n for _, n in tiles)
    if len(set(numbers)) != len(numbers):
        return False
    if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return True
    high = sorted(14 if n == 1 else n for n in numbers)
    return high == list(range(high[0], high[0] + len(high)))


def concrete_run_in_order(tiles: Sequence[Concrete]) -> bool:
    """The tiles as written are a run from low to high (1 low at the start or high at the end)."""
    if len(tiles) < 3 or len({c for c, _ in tiles}) != 1:
        return False
    positions = [n for _, n in tiles]
    if positions[-1] == 1 and len(positions) > 1:
        positions[-1] = 14
    if positions[0] == 1 and positions[-1] == 14:
        return False
    return positions == list(range(positions[0], positions[0] + len(positions)))


@lru_cache(maxsize=200_000)
def interpretations(
    meld: tuple[Tile, ...], one_high: bool = True
) -> frozenset[tuple[str, str, int, bool, bool]]:
    """Every way the tiles can be a meld: (kind, run colour or '', total, minor, major).

    A group's jokers take its number in missing colours; a run is every interval of positions
    (1..13, or 2..14 with 14 a high 1 unless not ``one_high``) of the meld's length that holds
    all its number tiles."""
    real = [t for t in meld if t is not None]
    if not real:
        return frozenset()
    out = set()
    numbers = {n for _, n in real}
    colours = [c for c, _ in real]
    if len(numbers) == 1 and len(set(colours)) == len(colours) and 3 <= len(meld) <= 4:
        (number,) = numbers
        out.add(("group", "", number * len(meld), number <= 9, number in MAJOR))
    if len(set(colours)) == 1 and len(numbers) == len(real) and 3 <= len(meld) <= 13:
        for lo in range(1, (15 if one_high else 14) - len(meld) + 1):
            positions = range(lo, lo + len(meld))
            if 1 in positions and 14 in positions:
                continue
            held = {1 if p == 14 else p for p in positions}
            if not numbers <= held or (1 in numbers and 1 in positions and 14 in positions):
                continue
            tiles = [1 if p == 14 else p for p in positions]
            out.add(
                (
                    "run",
                    colours[0],
                    sum(tiles),
                    all(n <= 9 for n in tiles) and 14 not in positions,
                    all(p >= 10 for p in positions),
                )
            )
    return frozenset(out)


def _could_grow(part: Sequence[Tile]) -> bool:
    real = [t for t in part if t is not None]
    if len(part) - len(real) > 2:
        return False
    return len({n for _, n in real}) <= 1 or len({c for c, _ in real}) <= 1


@lru_cache(maxsize=200_000)
def partitions(hand: tuple[Tile, ...]) -> tuple[tuple[tuple[Tile, ...], ...], ...]:
    """Every partition of the (sorted) hand into meld-able parts."""
    if not hand:
        return ((),)
    first, rest = hand[0], hand[1:]
    results: set[tuple[tuple[Tile, ...], ...]] = set()
    chosen_parts: set[tuple[Tile, ...]] = set()

    def grow(part: list[Tile], start: int) -> None:
        if len(part) >= 3:
            key = tuple(sorted(part, key=_key))
            if key not in chosen_parts:
                chosen_parts.add(key)
        for index in range(start, len(rest)):
            candidate = [*part, rest[index]]
            if len(candidate) <= 13 and _could_grow(candidate):
                grow(candidate, index + 1)

    grow([first], 0)
    for part in chosen_parts:
        if not interpretations(part):
            continue
        remaining = _minus(hand, part)
        for tail in partitions(tuple(sorted(remaining, key=_key))):
            results.add(tuple(sorted((part, *tail), key=lambda p: [_key(t) for t in p])))
    return tuple(results)


def _key(tile: Tile) -> tuple[int, str, int]:
    return (1, "", 0) if tile is None else (0, tile[0], tile[1])


def _minus(hand: Sequence[Tile], part: Sequence[Tile]) -> list[Tile]:
    left = list(hand)
    for tile in part:
        left.remove(tile)
    return left


def _sorted(hand: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(hand, key=_key))


def _partition_fits_of(
    hand: Sequence[Tile],
    kinds: set[str],
    *,
    minor: bool = False,
    major: bool = False,
    limit: int | None = None,
    runs: int | None = None,
    colours: str | None = None,
    one_high: bool = True,
) -> bool:
    """A partition exists whose melds are of ``kinds`` (in range, within the total), with
    ``runs`` runs, and colours 'distinct' (every run another colour) or 'two'/'one' colours."""
    for parts in partitions(_sorted(hand)):
        if runs is not None and len(parts) != runs:
            continue
        choices = []
        for part in parts:
            options = [
                o
                for o in interpretations(part, one_high)
                if o[0] in kinds and (not minor or o[3]) and (not major or o[4])
            ]
            if not options:
                break
            choices.append(options)
        else:
            for combo in itertools.product(*choices):
                if limit is not None and sum(o[2] for o in combo) > limit:
                    continue
                run_colours = [o[1] for o in combo]
                if colours == "distinct" and len(set(run_colours)) != len(run_colours):
                    continue
                if colours == "two" and len(set(run_colours)) != 2:
                    continue
                if colours == "one" and len(set(run_colours)) != 1:
                    continue
                return True
    return False


# -- the other shapes, by brute force over what the jokers stand for -----------------------------


def _fillings(hand: Sequence[Tile], candidates: Sequence[Concrete]) -> Iterable[list[Concrete]]:
    real = [t for t in hand if t is not None]
    jokers = len(hand) - len(real)
    for stand_ins in itertools.product(candidates, repeat=jokers):
        yield [*real, *stand_ins]


def _alternate(colours: Sequence[str]) -> bool:
    return all(a != b for a, b in itertools.pairwise(colours))


def _mosaic(hand: Sequence[Tile]) -> bool:
    real = [t for t in hand if t is not None]
    if sorted(Counter(n for _, n in real).values(), reverse=True)[:1] > [2]:
        return False
    for tiles in _fillings(hand, ALL_TILES):
        if sorted(n for _, n in tiles) != [1, 1, *range(2, 14)]:
            continue
        middle = [next(c for c, n in tiles if n == k) for k in range(2, 14)]
        ones = [c for c, n in tiles if n == 1]
        for first, last in ((ones[0], ones[1]), (ones[1], ones[0])):
            if _alternate([first, *middle, last]):
                return True
    return False


def _waves(hand: Sequence[Tile], numbers: list[int], style: str) -> bool:
    real = [t for t in hand if t is not None]
    if any(n not in numbers for _, n in real):
        return False
    candidates = [t for t in ALL_TILES if t[1] in numbers]
    for tiles in _fillings(hand, candidates):
        by_number = {k: [c for c, n in tiles if n == k] for k in numbers}
        if any(len(v) != 2 for v in by_number.values()):
            continue
        for flips in itertools.product((0, 1), repeat=len(numbers)):
            run_a = [by_number[k][f] for k, f in zip(numbers, flips, strict=True)]
            run_b = [by_number[k][1 - f] for k, f in zip(numbers, flips, strict=True)]
            if style == "mixed" and _alternate(run_a) and _alternate(run_b):
                return True
            if style == "single" and len(set(run_a) | set(run_b)) == 1:
                return True
            if (
                style == "two"
                and len(set(run_a)) == 1
                and len(set(run_b)) == 1
                and run_a[0] != run_b[0]
            ):
                return True
    return False


def _pairs(hand: Sequence[Tile], accept: str) -> bool:
    for tiles in _fillings(hand, ALL_TILES):
        counts = Counter(tiles)
        if any(v % 2 for v in counts.values()):
            continue
        if accept == "minor" and any(n > 9 for _, n in tiles):
            continue
        if accept == "major" and any(n not in MAJOR for _, n in tiles):
            continue
        if accept == "colour" and len({c for c, _ in tiles}) != 1:
            continue
        return True
    return False


def _royal(hand: Sequence[Tile]) -> bool:
    real = [t for t in hand if t is not None]
    colours = {c for c, _ in real}
    if len(colours) != 1:
        return False
    colour = colours.pop()
    for tiles in _fillings(hand, [(colour, n) for n in range(1, 14)]):
        if sorted(n for _, n in tiles) == [1, 1, *range(2, 14)]:
            return True
    return False


def fits(
    hand: Sequence[Tile],
    number: int,
    *,
    first_turn: bool = False,
    original_hand: bool = False,
    is_first_player: bool = False,
    one_high: bool = True,
) -> bool:
    """Whether the 14 tiles fit closed hand type ``number``, read straight from the table
    (without ``one_high``, no run of a partition goes on from 13 to 1)."""
    partition_fits = functools.partial(_partition_fits_of, one_high=one_high)
    real = [t for t in hand if t is not None]
    jokers = len(hand) - len(real)
    total = sum(n for _, n in real)
    both = {"group", "run"}
    little = list(range(1, 8))
    big = [*range(8, 14), 1]
    checks = {
        1: lambda: partition_fits(hand, both),
        2: lambda: partition_fits(hand, both, minor=True),
        3: lambda: partition_fits(hand, both, minor=True, limit=51),
        4: lambda: partition_fits(hand, {"group"}, limit=51),
        5: lambda: partition_fits(hand, {"run"}, limit=51),
        6: lambda: total + jokers <= 41,
        7: lambda: partition_fits(hand, both, limit=41),
        8: lambda: partition_fits(hand, {"run"}, limit=41),
        9: lambda: partition_fits(hand, {"group"}, limit=41),
        10: lambda: all(n in MAJOR for _, n in real),
        11: lambda: partition_fits(hand, both, major=True),
        12: lambda: any(sum(1 for _, n in real if n == k) + jokers >= 8 for k in range(1, 14)),
        13: lambda: partition_fits(hand, {"run"}, runs=4, colours="distinct"),
        14: lambda: partition_fits(hand, {"run"}, minor=True, runs=4, colours="distinct"),
        15: lambda: partition_fits(hand, {"run"}, major=True, runs=4, colours="distinct"),
        16: lambda: partition_fits(hand, {"run"}, runs=3, colours="distinct"),
        17: lambda: partition_fits(hand, {"run"}, minor=True, runs=3, colours="distinct"),
        18: lambda: partition_fits(hand, {"run"}, major=True, runs=3, colours="distinct"),
        19: lambda: partition_fits(hand, {"run"}, colours="two"),
        20: lambda: partition_fits(hand, {"run"}, minor=True, colours="two"),
        21: lambda: partition_fits(hand, {"run"}, major=True, colours="two"),
        22: lambda: len({c for c, _ in real}) == 1,
        23: lambda: partition_fits(hand, {"run"}, colours="one"),
        24: lambda: _royal(hand),
        25: lambda: partition_fits(hand, {"group"}, runs=4),
        26: lambda: partition_fits(hand, {"group"}, minor=True, runs=4),
        27: lambda: partition_fits(hand, {"group"}, major=True, runs=4),
        28: lambda: _mosaic(hand),
        29: lambda: _waves(hand, little, "mixed"),
        30: lambda: _waves(hand, big, "mixed"),
        31: lambda: _waves(hand, little, "single"),
        32: lambda: _waves(hand, big, "single"),
        33: lambda: _waves(hand, little, "two"),
        34: lambda: _waves(hand, big, "two"),
        35: lambda: _pairs(hand, "any"),
        36: lambda: _pairs(hand, "minor"),
        37: lambda: _pairs(hand, "major"),
        38: lambda: _pairs(hand, "colour"),
        39: lambda: first_turn and partition_fits(hand, both),
        40: lambda: original_hand and not is_first_player and partition_fits(hand, both),
    }
    return bool(checks[number]())


def best(hand: Sequence[Tile], **facts: bool) -> tuple[int | None, int]:
    """(type, value) of the most valuable fitting type (highest number among equals)."""
    jokers = sum(1 for t in hand if t is None)
    order = sorted(TABLE, key=lambda k: (-TABLE[k][1][jokers], -k))
    for number in order:
        if fits(hand, number, **facts):
            return number, TABLE[number][1][jokers]
    return None, 0


# -- checking an arrangement the engine gave -----------------------------------------------------


def check_arrangement(
    hand_tokens: Sequence[str], number: int, arrangement: Sequence[Sequence[str]]
) -> None:
    """Assert that ``arrangement`` uses exactly the hand's tiles and proves type ``number``."""
    held = Counter(read(t) for t in hand_tokens)
    read_melds = [[read_with_stand_in(t) for t in meld] for meld in arrangement]
    used = Counter(tile for meld in read_melds for tile, _ in meld)
    assert used == held, f"arrangement tiles {used} differ from the hand {held}"
    melds: list[list[Concrete]] = []
    free: list[int] = []  # jokers left free (bare JK) per meld
    for meld in read_melds:
        melds.append([s for _, s in meld if s is not None])
        free.append(sum(1 for _, s in meld if s is None))
    flat = [t for meld in melds for t in meld]
    numbers = [n for _, n in flat]
    if number in (6, 10, 22):
        assert len(melds) == 1
        if number == 6:
            assert sum(numbers) + free[0] <= 41
        if number == 10:
            assert all(n in MAJOR for n in numbers)
        if number == 22:
            assert len({c for c, _ in flat}) == 1
        return
    assert not any(free[:1] if number == 12 else free), "a joker's stand-in is missing"
    if number == 12:
        square, _rest = melds[0], melds[1:]
        assert len(arrangement[0]) == 8 and len({n for _, n in square}) == 1
        return
    if number in (24, 28):
        (run,) = melds
        assert [n for _, n in run] == [*range(1, 14), 1]
        colours = [c for c, _ in run]
        assert len(set(colours)) == 1 if number == 24 else _alternate(colours)
        return
    if 29 <= number <= 34:
        assert len(melds) == 2
        expected = list(range(1, 8)) if number % 2 == 1 else [*range(8, 14), 1]
        for run in melds:
            assert [n for _, n in run] == expected
        colours = [[c for c, _ in run] for run in melds]
        if number in (29, 30):
            assert all(_alternate(c) for c in colours)
        elif number in (31, 32):
            assert len(set(colours[0]) | set(colours[1])) == 1
        else:
            assert len(set(colours[0])) == len(set(colours[1])) == 1
            assert colours[0][0] != colours[1][0]
        return
    if 35 <= number <= 38:
        assert len(melds) == 7 and all(len(p) == 2 and p[0] == p[1] for p in melds)
        if number == 36:
            assert all(n <= 9 for n in numbers)
        if number == 37:
            assert all(n in MAJOR for n in numbers)
        if number == 38:
            assert len({c for c, _ in flat}) == 1
        return
    # Groups and runs, each as written.
    kinds = []
    for meld in melds:
        if concrete_group(meld):
            kinds.append("group")
        elif concrete_run_in_order(meld):
            kinds.append("run")
        else:
            raise AssertionError(f"{meld} is not a group or a run as written")
    total = sum(numbers)
    minor = all(n <= 9 for n in numbers)
    major = all(n in MAJOR for n in numbers)
    run_colours = [meld[0][0] for meld, kind in zip(melds, kinds, strict=True) if kind == "run"]
    requirements = {
        2: minor,
        3: minor and total <= 51,
        4: set(kinds) == {"group"} and total <= 51,
        5: set(kinds) == {"run"} and total <= 51,
        7: total <= 41,
        8: set(kinds) == {"run"} and total <= 41,
        9: set(kinds) == {"group"} and total <= 41,
        11: major,
        25: kinds == ["group"] * 4,
        26: kinds == ["group"] * 4 and minor,
        27: kinds == ["group"] * 4 and major,
    }
    if 13 <= number <= 18:
        count = 4 if number <= 15 else 3
        range_ok = (True, minor, major)[(number - 13) % 3]
        requirements[number] = (
            kinds == ["run"] * count and len(set(run_colours)) == count and range_ok
        )
    if 19 <= number <= 21:
        range_ok = (True, minor, major)[number - 19]
        requirements[number] = set(kinds) == {"run"} and len(set(run_colours)) == 2 and range_ok
    if number == 23:
        requirements[number] = set(kinds) == {"run"} and len(set(run_colours)) == 1
    assert requirements.get(number, True), f"arrangement does not prove type {number}"
