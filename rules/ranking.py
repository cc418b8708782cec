"""Finishing order: players ranked by a result, equal results sharing a rank (1, 2, 2, 4).

The finishing order of a game is the input of tournament advancement and of ratings; each format
says what its result is (``scoring/formats``), this module only ranks."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)


def competition_ranks(
    results: Mapping[K, Any], *, key: Callable[[Any], Any] | None = None, best: str = "high"
) -> dict[K, int]:
    """Rank players by ``results`` (``best="high"``: the largest first, ``"low"``: the smallest),
    through ``key`` when given. Equal results share the best of their places and the next
    player's rank counts everyone ahead (1, 2, 2, 4). Keys keep the mapping's order."""
    if best not in ("high", "low"):
        raise ValueError(f"best must be 'high' or 'low', not {best!r}")

    def value(player: K) -> Any:
        found = results[player]
        return key(found) if key is not None else found

    ordered = sorted(results, key=value, reverse=best == "high")
    ranks: dict[K, int] = {}
    for place, player in enumerate(ordered, start=1):
        previous = ordered[place - 2] if place > 1 else None
        if previous is not None and value(previous) == value(player):
            ranks[player] = ranks[previous]
        else:
            ranks[player] = place
    return {player: ranks[player] for player in results}
