"""Rummikub engine benchmarks: meld validation throughput and closed-hand classification time.

``run(quick)`` prints melds/s for ``validate_meld`` (parsed tiles and from text) and the mean, p99
and worst time of ``classify_closed_hand`` over random 14-tile hands and over hands built to fit
each of the 40 types. The hand builders are also used by the property tests."""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from functools import partial

from rules.rummikub.closed_hands import classify_closed_hand
from rules.rummikub.international import international_scores
from rules.rummikub.melds import judge_meld, validate_melds
from rules.rummikub.preset import INTERNATIONAL, SABRA, RummikubPreset
from rules.rummikub.scoring import game_scores
from rules.rummikub.tiles import COLOURS, JOKER, NUMBER_TILES, Tile, parse_tile

Hand = list[Tile]

_MINOR = list(range(1, 10))
_MAJOR = [10, 11, 12, 13, 1]


def _tile(colour: int, number: int) -> Tile:
    return NUMBER_TILES[colour * 13 + number - 1]


def full_set() -> Hand:
    """All 106 tiles."""
    return [tile for tile in NUMBER_TILES for _ in range(2)] + [JOKER, JOKER]


def random_hand(rng: random.Random) -> Hand:
    """14 tiles drawn from a shuffled set."""
    return rng.sample(full_set(), 14)


class _Stock:
    """Tiles still available (two of each) while a hand is built."""

    def __init__(self) -> None:
        self.left: Counter[int] = Counter({code: 2 for code in range(52)})

    def take(self, tiles: list[Tile]) -> bool:
        need = Counter(tile.code for tile in tiles)
        if any(self.left[code] < count for code, count in need.items()):
            return False
        self.left.subtract(need)
        return True


def _run(rng: random.Random, length: int, colour: int, numbers: str) -> list[Tile] | None:
    if numbers == "low":
        positions = list(range(1, 7))
    elif numbers == "minor":
        positions = list(range(1, 10))
    elif numbers == "major":
        positions = list(range(10, 15))
    else:
        positions = list(range(1, 15))
    starts = [
        p
        for p in positions
        if p + length - 1 <= positions[-1] and not (p == 1 and p + length - 1 == 14)
    ]
    if not starts:
        return None
    start = rng.choice(starts)
    return [_tile(colour, 1 if p == 14 else p) for p in range(start, start + length)]


def _group(rng: random.Random, size: int, numbers: str) -> list[Tile]:
    pool = {"low": range(1, 5), "minor": _MINOR, "major": _MAJOR}.get(numbers, range(1, 14))
    number = rng.choice(list(pool))
    return [_tile(colour, number) for colour in rng.sample(range(4), size)]


def _sizes(rng: random.Random, parts: int | None = None, groups_only: bool = False) -> list[int]:
    while True:
        if groups_only:
            sizes = [4, 4, 3, 3]
        else:
            count = parts or rng.choice([2, 3, 4])
            cuts = sorted(rng.sample(range(1, 14), count - 1))
            sizes = [b - a for a, b in zip([0, *cuts], [*cuts, 14], strict=True)]
        if all(size >= 3 for size in sizes) and (groups_only or max(sizes) <= 13):
            rng.shuffle(sizes)
            return sizes


def _melds(
    rng: random.Random,
    kinds: str = "both",
    numbers: str = "any",
    parts: int | None = None,
    colours: list[int] | None = None,
    max_total: int | None = None,
) -> Hand:
    """14 tiles made of random melds (kinds: both/groups/runs), within numbers (any/minor/major),
    runs coloured from ``colours`` in turn when given."""
    for _ in range(10_000):
        stock = _Stock()
        sizes = _sizes(rng, parts, groups_only=kinds == "groups")
        hand: Hand = []
        for index, size in enumerate(sizes):
            kind = kinds if kinds != "both" else rng.choice(["groups", "runs"])
            if kind == "groups" and size > 4:
                kind = "runs"
            if kind == "groups":
                meld: list[Tile] | None = _group(rng, size, numbers)
            else:
                colour = colours[index % len(colours)] if colours else rng.randrange(4)
                meld = _run(rng, size, colour, numbers)
            if meld is None or not stock.take(meld):
                break
            hand.extend(meld)
        else:
            if max_total is None or sum(t.number or 0 for t in hand) <= max_total:
                return hand
    raise RuntimeError("could not build a hand")


def _low_melds(rng: random.Random, kinds: str, limit: int) -> Hand:
    for _ in range(10_000):
        hand = _melds(rng, kinds, "low" if limit <= 41 else "minor")
        if sum(tile.number or 0 for tile in hand) <= limit:
            return hand
    raise RuntimeError("could not build a low hand")


def _any_tiles(
    rng: random.Random, accept: Callable[[Tile], bool], limit: int | None = None
) -> Hand:
    pool = [tile for tile in full_set()[:-2] if accept(tile)]
    while True:
        hand = rng.sample(pool, 14)
        if limit is None or sum(tile.number or 0 for tile in hand) <= limit:
            return hand


def _alternating(rng: random.Random, length: int) -> list[int]:
    colours = [rng.randrange(4)]
    while len(colours) < length:
        colours.append(rng.choice([c for c in range(4) if c != colours[-1]]))
    return colours


def _wave(rng: random.Random, numbers: list[int], style: str) -> Hand:
    while True:
        if style == "single":
            colour = rng.randrange(4)
            runs = [[colour] * 7, [colour] * 7]
        elif style == "two":
            a, b = rng.sample(range(4), 2)
            runs = [[a] * 7, [b] * 7]
        else:
            runs = [_alternating(rng, 7), _alternating(rng, 7)]
        hand = [_tile(c, n) for run in runs for c, n in zip(run, numbers, strict=True)]
        if _Stock().take(hand):
            return hand


def _pairs(rng: random.Random, accept: Callable[[Tile], bool]) -> Hand:
    pool = [tile for tile in NUMBER_TILES if accept(tile)]
    return [tile for tile in rng.sample(pool, 7) for _ in range(2)]


def build_hand(rng: random.Random, number: int) -> Hand:
    """A random hand (no jokers) built to fit closed hand type ``number``."""
    low = list(range(1, 8))
    high = [*range(8, 14), 1]
    colour = rng.randrange(4)
    builders: dict[int, Callable[[], Hand]] = {
        1: lambda: _melds(rng),
        2: lambda: _melds(rng, numbers="minor"),
        3: lambda: _low_melds(rng, "both", 51),
        4: lambda: _melds(rng, "groups", max_total=51),
        5: lambda: _low_melds(rng, "runs", 51),
        6: lambda: _any_tiles(rng, lambda t: (t.number or 0) <= 4, 41),
        7: lambda: _low_melds(rng, "both", 41),
        8: lambda: _low_melds(rng, "runs", 41),
        9: lambda: _melds(rng, "groups", max_total=41),
        10: lambda: _any_tiles(rng, lambda t: t.number in _MAJOR),
        11: lambda: _melds(rng, numbers="major"),
        12: lambda: _square(rng),
        13: lambda: _melds(rng, "runs", parts=4, colours=rng.sample(range(4), 4)),
        14: lambda: _melds(rng, "runs", "minor", parts=4, colours=rng.sample(range(4), 4)),
        15: lambda: _melds(rng, "runs", "major", parts=4, colours=rng.sample(range(4), 4)),
        16: lambda: _melds(rng, "runs", parts=3, colours=rng.sample(range(4), 3)),
        17: lambda: _melds(rng, "runs", "minor", parts=3, colours=rng.sample(range(4), 3)),
        18: lambda: _melds(rng, "runs", "major", parts=3, colours=rng.sample(range(4), 3)),
        19: lambda: _melds(rng, "runs", colours=rng.sample(range(4), 2)),
        20: lambda: _melds(rng, "runs", "minor", colours=rng.sample(range(4), 2)),
        21: lambda: _melds(rng, "runs", "major", colours=rng.sample(range(4), 2)),
        22: lambda: _any_tiles(rng, lambda t: t.colour == COLOURS[colour]),
        23: lambda: _melds(rng, "runs", colours=[colour]),
        24: lambda: [_tile(colour, 1 if p == 14 else p) for p in range(1, 15)],
        25: lambda: _melds(rng, "groups"),
        26: lambda: _melds(rng, "groups", "minor"),
        27: lambda: _melds(rng, "groups", "major"),
        28: lambda: [
            _tile(c, n) for c, n in zip(_alternating(rng, 14), [*range(1, 14), 1], strict=True)
        ],
        29: lambda: _wave(rng, low, "mixed"),
        30: lambda: _wave(rng, high, "mixed"),
        31: lambda: _wave(rng, low, "single"),
        32: lambda: _wave(rng, high, "single"),
        33: lambda: _wave(rng, low, "two"),
        34: lambda: _wave(rng, high, "two"),
        35: lambda: _pairs(rng, lambda t: True),
        36: lambda: _pairs(rng, lambda t: (t.number or 0) <= 9),
        37: lambda: _pairs(rng, lambda t: t.number in _MAJOR),
        38: lambda: _pairs(rng, lambda t: t.colour == COLOURS[colour]),
        39: lambda: _melds(rng),
        40: lambda: _melds(rng),
    }
    hand = builders[number]()
    rng.shuffle(hand)
    return hand


def _square(rng: random.Random) -> Hand:
    number = rng.randint(1, 13)
    hand = [_tile(c, number) for c in range(4) for _ in range(2)]
    rest = [t for t in full_set()[:-2] if t.number != number]
    return hand + rng.sample(rest, 6)


def with_jokers(rng: random.Random, hand: Hand, jokers: int) -> Hand:
    """The hand with ``jokers`` random tiles replaced by jokers (it still fits its type)."""
    hand = list(hand)
    for index in rng.sample(range(len(hand)), jokers):
        hand[index] = JOKER
    return hand


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _time_hands(hands: list[Hand]) -> list[float]:
    times = []
    for hand in hands:
        started = time.perf_counter()
        classify_closed_hand(hand)
        times.append((time.perf_counter() - started) * 1000)
    return times


def _report(label: str, times: list[float]) -> None:
    print(
        f"   {label}: n={len(times)} mean {statistics.fmean(times):.3f} ms, "
        f"p99 {_percentile(times, 0.99):.3f} ms, max {max(times):.3f} ms",
        flush=True,
    )


def _meld_sample(rng: random.Random, count: int) -> list[list[str]]:
    melds = []
    for _ in range(count):
        length = rng.randint(3, 6)
        if rng.random() < 0.5:
            colour = rng.choice(COLOURS)
            start = rng.randint(1, 14 - length)
            meld = [f"{colour}{n}" for n in range(start, start + length)]
        else:
            number = rng.randint(1, 13)
            meld = [f"{c}{number}" for c in rng.sample(COLOURS, min(length, 4))]
        if rng.random() < 0.3:
            meld[rng.randrange(len(meld))] = "JK"
        if rng.random() < 0.2:
            meld[rng.randrange(len(meld))] = f"{rng.choice(COLOURS)}{rng.randint(1, 13)}"
        melds.append(meld)
    return melds


def _bench_melds(rng: random.Random, count: int) -> None:
    texts = _meld_sample(rng, count)
    parsed = [tuple(parse_tile(token) for token in meld) for meld in texts]
    for one_high, label in ((False, "Sabra"), (True, "American/International")):
        started = time.perf_counter()
        for meld in parsed:
            judge_meld(meld, one_high)
        elapsed = time.perf_counter() - started
        print(f"   meld validation ({label}, parsed tiles): {count / elapsed:,.0f} melds/s")
    started = time.perf_counter()
    for text in texts:
        judge_meld(tuple(parse_tile(token) for token in text), True)
    elapsed = time.perf_counter() - started
    print(f"   meld validation (from text, parse included): {count / elapsed:,.0f} melds/s")


#: Each house option on its own, as the bench times it against Sabra's defaults.
OPTIONS: dict[str, RummikubPreset] = {
    "one_high": dataclasses.replace(SABRA, one_high=True),
    "opening_high_as_10": dataclasses.replace(SABRA, opening_high_as_10=True),
    "never_opened_penalty=100": dataclasses.replace(SABRA, never_opened_penalty=100),
    "winner_scores_zero": dataclasses.replace(SABRA, winner_scores_zero=True),
    "initial_meld_threshold=50": dataclasses.replace(SABRA, initial_meld_threshold=50),
    "joker_value=50": dataclasses.replace(SABRA, joker_value=50),
}
#: International's own option, timed against International's defaults.
INTERNATIONAL_OPTIONS: dict[str, RummikubPreset] = {
    "trump_bonus=50": dataclasses.replace(INTERNATIONAL, trump_bonus=50),
}


def _opening(melds: list[list[str]], preset: RummikubPreset) -> object:
    return validate_melds(melds, preset, initial_meld=True)


def _racks(racks: dict[str, list[str]], melded: dict[str, bool], preset: RummikubPreset) -> object:
    return game_scores(racks, "a", preset, melded=melded)


def _opening_calls(rng: random.Random, count: int) -> list[Callable[[RummikubPreset], object]]:
    """An initial meld of one to three melds, or a game's racks with who had opened: the calls
    each option changes."""
    melds = _meld_sample(rng, 3 * count)
    calls: list[Callable[[RummikubPreset], object]] = []
    for k in range(count):
        opening = melds[3 * k : 3 * k + rng.randint(1, 3)]
        if max(Counter(tile for meld in opening for tile in meld).values()) <= 2:
            calls.append(partial(_opening, opening))
        racks = {name: [str(t) for t in rng.sample(full_set(), rng.randint(0, 9))]
                 for name in ("a", "b", "c")}  # fmt: skip
        racks["a"] = []
        if max(Counter(t for rack in racks.values() for t in rack).values(), default=0) <= 2:
            melded = {"b": rng.random() < 0.5, "c": rng.random() < 0.5}
            calls.append(partial(_racks, racks, melded))
    return calls


def _p99_cpu(calls: list[Callable[[RummikubPreset], object]], preset: RummikubPreset) -> float:
    """p99 CPU time of one call, in ms, each timed over 10 runs (the clock's grain)."""
    times = []
    for call in calls:
        started = time.process_time()
        for _ in range(10):
            call(preset)
        times.append((time.process_time() - started) * 100)
    return _percentile(times, 0.99)


def _international(
    racks: dict[str, list[str]], melded: dict[str, bool], preset: RummikubPreset
) -> object:
    return international_scores(racks, melded, "a", "open", trump_holders=["b"], rules=preset)


def _international_calls(
    rng: random.Random, count: int
) -> list[Callable[[RummikubPreset], object]]:
    """An International open win's racks, one loser named as having held the trump's twin."""
    calls: list[Callable[[RummikubPreset], object]] = []
    for _ in range(count):
        racks = {name: [str(t) for t in rng.sample(full_set(), rng.randint(0, 9))]
                 for name in ("b", "c")}  # fmt: skip
        if max(Counter(t for rack in racks.values() for t in rack).values(), default=0) <= 2:
            melded = {"b": rng.random() < 0.5, "c": rng.random() < 0.5}
            calls.append(partial(_international, {"a": [], **racks}, melded))
    return calls


def _compare(
    label: str,
    calls: list[Callable[[RummikubPreset], object]],
    base: RummikubPreset,
    options: dict[str, RummikubPreset],
) -> None:
    """Each option's p99 on the same calls against the base preset's, measured just before."""
    _p99_cpu(calls[:50], base)  # warm up
    default = _p99_cpu(calls, base)
    print(f"   house options ({label}; n={len(calls)}): default p99 {default:.4f} ms CPU")
    worst = 0.0
    for name, preset in options.items():
        p99 = _p99_cpu(calls, preset)
        worst = max(worst, p99 / default)
        flag = "" if p99 <= 1.5 * default else "  OVER 1.5x"
        print(f"     {name}: p99 {p99:.4f} ms CPU = {p99 / default:.2f}x{flag}")
    print(f"     worst option: {worst:.2f}x the default's p99 (limit 1.5x)", flush=True)


def _bench_options(rng: random.Random, count: int) -> None:
    _compare("Sabra openings, racks", _opening_calls(rng, count), SABRA, OPTIONS)
    calls = _international_calls(rng, count)
    _compare("International open wins", calls, INTERNATIONAL, INTERNATIONAL_OPTIONS)


def _bench_closed_option(rng: random.Random, per_type: int) -> None:
    """closed_one_high off against International's default, on hands built to fit each type."""
    hands = [
        with_jokers(rng, build_hand(rng, number), i % 3)
        for number in range(1, 41)
        for i in range(per_type)
    ]

    def cpu_p99(one_high: bool) -> float:
        times = []
        for hand in hands:
            started = time.process_time()
            classify_closed_hand(hand, one_high=one_high)
            times.append((time.process_time() - started) * 1000)
        return _percentile(times, 0.99)

    cpu_p99(True)  # warm up
    default = cpu_p99(True)
    p99 = cpu_p99(False)
    flag = "" if p99 <= 1.5 * default else "  OVER 1.5x"
    print(
        f"   house option closed_one_high=false (closed hands, n={len(hands)}): p99 {p99:.3f} ms"
        f" CPU against the default's {default:.3f} ms = {p99 / default:.2f}x{flag}",
        flush=True,
    )


def run(quick: bool) -> None:
    rng = random.Random(20240601)
    _bench_melds(rng, 20_000 if quick else 300_000)
    _bench_options(rng, 2_000 if quick else 20_000)
    _bench_closed_option(rng, 30 if quick else 500)
    count = 300 if quick else 5_000
    per_type = 30 if quick else 5_000
    _report("closed hands, random 14 tiles", _time_hands([random_hand(rng) for _ in range(count)]))
    every: list[float] = []
    rows = []
    for number in range(1, 41):
        hands = [with_jokers(rng, build_hand(rng, number), i % 3) for i in range(per_type)]
        times = _time_hands(hands)
        every.extend(times)
        rows.append((number, statistics.fmean(times), _percentile(times, 0.99), max(times)))
    _report(f"closed hands, {per_type} built to fit each of the 40 types (0/1/2 jokers)", every)
    slowest = sorted(rows, key=lambda row: row[2], reverse=True)[:5]
    print(
        "   slowest types by p99: "
        + ", ".join(f"{n} ({m:.2f}/{p:.2f}/{x:.2f} ms)" for n, m, p, x in slowest),
        flush=True,
    )
