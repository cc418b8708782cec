"""Okey engine benchmarks: group judging throughput and how long a 14-tile hand takes to arrange.

``run(quick)`` prints, in CPU time (a busy machine changes it little), groups/s for
``meld_kind`` and the mean, p99 and worst time of ``arrange`` (melds by an exact search, then
seven pairs) over random hands holding 0, 1 and 2 okeys, and over hands built to finish
(``built_hand``, also used by the tests)."""

from __future__ import annotations

import random
import statistics
import time

from rules.okey.hands import arrange
from rules.okey.melds import meld_kind
from rules.okey.tiles import COLOURS, FALSE_JOKER, NUMBER_TILES, Tile, okey_of

Hand = list[Tile]


def _deck(indicator: Tile) -> Hand:
    deck = [tile for tile in NUMBER_TILES for _ in range(2)] + [FALSE_JOKER] * 2
    deck.remove(indicator)
    return deck


def _random_hand(rng: random.Random, indicator: Tile, okeys: int) -> Hand:
    okey = okey_of(indicator)
    deck = [tile for tile in _deck(indicator) if tile != okey]
    return rng.sample(deck, 14 - okeys) + [okey] * okeys


def built_hand(rng: random.Random, indicator: Tile) -> Hand:
    """Melds of 3 to 5 tiles (runs and sets) making 14, with a tile now and then an okey."""
    okey = okey_of(indicator)
    while True:
        hand: Hand = []
        for size in rng.choice(((3, 3, 4, 4), (3, 3, 3, 5), (4, 5, 5), (3, 3, 3, 3, 2))):
            if size == 2:
                break
            if rng.random() < 0.5:
                start = rng.randint(1, 14 - size)
                colour = rng.choice(COLOURS)
                hand += [Tile(colour, number) for number in range(start, start + size)]
            else:
                number = rng.randint(1, 13)
                hand += [Tile(c, number) for c in rng.sample(COLOURS, min(size, 4))]
        if len(hand) != 14:
            continue
        wilds = rng.choice((0, 1, 2))
        for index in rng.sample(range(14), wilds):
            hand[index] = okey
        counts = {tile: hand.count(tile) for tile in hand}
        if all(n <= (1 if t == indicator else 2) for t, n in counts.items()):
            return hand


def _times(hands: list[tuple[Hand, Tile]]) -> tuple[float, float, float]:
    spent = []
    for hand, okey in hands:
        started = time.process_time()
        arrange(hand, okey)
        spent.append((time.process_time() - started) * 1000)
    spent.sort()
    return statistics.mean(spent), spent[int(len(spent) * 0.99) - 1], spent[-1]


def run(quick: bool = False) -> None:
    rng = random.Random(46)
    count = 200 if quick else 2_000
    groups = []
    for _ in range(count * 10):
        indicator = rng.choice(NUMBER_TILES)
        groups.append((rng.sample(_deck(indicator), rng.randint(3, 6)), okey_of(indicator)))
    started = time.process_time()
    for group, okey in groups:
        meld_kind(group, okey)
    rate = len(groups) / (time.process_time() - started)
    print(f"   meld_kind, random groups of 3-6: {rate:,.0f} groups/s")
    for okeys in (0, 1, 2):
        hands = []
        for _ in range(count):
            indicator = rng.choice(NUMBER_TILES)
            hands.append((_random_hand(rng, indicator, okeys), okey_of(indicator)))
        mean, p99, worst = _times(hands)
        print(
            f"   arrange, {count} random hands, {okeys} okeys: mean {mean:.2f} ms, "
            f"p99 {p99:.2f} ms, max {worst:.2f} ms"
        )
    hands = []
    for _ in range(count):
        indicator = rng.choice(NUMBER_TILES)
        hands.append((built_hand(rng, indicator), okey_of(indicator)))
    mean, p99, worst = _times(hands)
    print(
        f"   arrange, {count} hands built to finish (0-2 okeys): mean {mean:.2f} ms, "
        f"p99 {p99:.2f} ms, max {worst:.2f} ms"
    )
