"""A slow, obviously correct reference for the best arrangement: try every partition of the cards
into groups and score each with ``score_groups`` (only for small hands: Bell(9) = 21147)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rules.indian import DEFAULT_PRESET, Card, IndianPreset, score_groups


def partitions(items: Sequence[Card]) -> Iterator[list[list[Card]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in partitions(rest):
        yield [[first], *partition]
        for k in range(len(partition)):
            yield [*partition[:k], [first, *partition[k]], *partition[k + 1 :]]


def brute_force(
    cards: Sequence[Card], wild_rank: int, preset: IndianPreset = DEFAULT_PRESET
) -> tuple[int, bool]:
    """(lowest score over every grouping, whether some grouping is a valid declaration)."""
    best = None
    valid = False
    for partition in partitions(list(cards)):
        result = score_groups(partition, wild_rank, preset)
        if best is None or result.score < best:
            best = result.score
        valid = valid or result.valid
    assert best is not None
    return best, valid
