"""A finished Okey hand: 14 tiles shown as melds, or as seven pairs (çifte gitmek).

``check_finish`` judges the groups a player shows; ``arrange`` searches every way to finish the
14 tiles (an exact search: every meld that holds the lowest tile left, then the rest)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rules.errors import RuleViolation
from rules.okey.melds import is_pair, split_wilds, validate_meld
from rules.okey.tiles import FALSE_JOKER, Tile, tile_order

HAND_SIZE = 14
PAIRS = HAND_SIZE // 2
FinishKind = Literal["melds", "pairs"]


@dataclass(frozen=True)
class Finish:
    """How a hand finished, and its groups (each a meld, or each a pair)."""

    kind: FinishKind
    groups: tuple[tuple[Tile, ...], ...]


def _count(tiles: Sequence[Tile]) -> None:
    if len(tiles) != HAND_SIZE:
        raise RuleViolation(
            "wrong_tile_count",
            f"a finished Okey hand shows {HAND_SIZE} tiles, not {len(tiles)}",
            details={"count": len(tiles)},
        )


def check_finish(
    groups: Sequence[Sequence[Tile]], okey: Tile, *, one_after_thirteen: bool = True
) -> Finish:
    """The finish the shown groups make: seven pairs, or melds only. ``RuleViolation`` naming
    the group that is neither (``not_a_meld``) or the count (``wrong_tile_count``)."""
    _count([tile for group in groups for tile in group])
    if len(groups) == PAIRS and all(len(group) == 2 for group in groups):
        for index, group in enumerate(groups):
            if not is_pair(group, okey):
                shown = " ".join(str(tile) for tile in group)
                raise RuleViolation(
                    "not_a_pair",
                    f"group {index + 1} ({shown}) is not two identical tiles",
                    token=shown,
                    details={"group": index},
                )
        return Finish("pairs", tuple(tuple(group) for group in groups))
    for index, group in enumerate(groups):
        validate_meld(group, okey, one_after_thirteen=one_after_thirteen, index=index)
    return Finish("melds", tuple(tuple(group) for group in groups))


def pairs_finish(tiles: Sequence[Tile], okey: Tile) -> tuple[tuple[Tile, ...], ...] | None:
    """Seven pairs from the 14 tiles, each okey pairing a tile left alone, or ``None``."""
    faces, wilds = split_wilds(tiles, okey)
    counts = Counter(faces)
    groups: list[tuple[Tile, ...]] = []
    singles: list[Tile] = []
    for face in sorted(counts, key=tile_order):
        # A face equal to the okey's is a false joker: the okeys themselves are wild.
        name = FALSE_JOKER if face == okey else face
        groups.extend([(name, name)] * (counts[face] // 2))
        if counts[face] % 2:
            singles.append(name)
    if len(singles) > wilds:
        return None
    groups.extend((name, okey) for name in singles)
    groups.extend([(okey, okey)] * ((wilds - len(singles)) // 2))
    return tuple(groups)


#: A place in a meld taken by a wild okey, while searching.
Choice = tuple[Tile | None, ...]


def _set_choices(first: Tile, rest: tuple[Tile, ...], wilds: int) -> list[Choice]:
    others = sorted(
        {t for t in rest if t.number == first.number and t.colour != first.colour},
        key=tile_order,
    )
    choices: list[Choice] = []

    def grow(chosen: Choice, start: int) -> None:
        for used in range(wilds + 1):
            if 3 <= len(chosen) + used <= 4:
                choices.append(chosen + (None,) * used)
        for index in range(start, len(others)):
            if len(chosen) < 4:
                grow((*chosen, others[index]), index + 1)

    grow((first,), 0)
    return choices


def _run_choices(first: Tile, rest: tuple[Tile, ...], wilds: int, top: int) -> list[Choice]:
    assert first.number is not None
    have = Counter(t for t in rest if t.colour == first.colour)
    positions = {first.number} | ({14} if first.number == 1 and top == 14 else set())
    choices: list[Choice] = []
    for own in positions:
        # ``first`` is the lowest tile left, so below its own place only wilds can stand.
        lowest = own - wilds if own == first.number else own - top + 1
        for start in range(max(1, lowest), own + 1):
            for end in range(max(own, start + 2), top + 1):
                options: list[list[Tile | None]] = []
                for position in range(start, end + 1):
                    if position != own:
                        face = Tile(first.colour, 1 if position == 14 else position)
                        options.append([face, None] if have[face] else [None])
                _expand(first, options, have, wilds, choices)
    return choices


def _expand(
    first: Tile,
    options: list[list[Tile | None]],
    have: Counter[Tile],
    wilds: int,
    choices: list[Choice],
) -> None:
    def walk(index: int, chosen: Choice, used: int, taken: Counter[Tile]) -> None:
        if index == len(options):
            choices.append((first, *chosen))
            return
        for option in options[index]:
            if option is None:
                if used < wilds:
                    walk(index + 1, (*chosen, None), used + 1, taken)
            elif taken[option] < have[option]:
                walk(index + 1, (*chosen, option), used, taken + Counter([option]))

    walk(0, (), 0, Counter())


def melds_finish(
    tiles: Sequence[Tile], okey: Tile, *, one_after_thirteen: bool = True
) -> tuple[tuple[Tile, ...], ...] | None:
    """The 14 tiles as melds only, or ``None``: every meld holding the lowest tile left is tried,
    then the rest. The groups name each tile as given (a wild as the okey, a false joker FJ)."""
    faces, wilds = split_wilds(tiles, okey)
    top = 14 if one_after_thirteen else 13

    @functools.cache
    def search(rest: tuple[Tile, ...], wilds: int) -> tuple[Choice, ...] | None:
        if not rest:
            return () if wilds == 0 else None
        first, others = rest[0], rest[1:]
        tried = set()
        for choice in _set_choices(first, others, wilds) + _run_choices(first, others, wilds, top):
            taken = tuple(sorted((t for t in choice[1:] if t is not None), key=tile_order))
            if (taken, choice.count(None)) in tried:
                continue  # the same tiles as a meld tried already: the same rest
            tried.add((taken, choice.count(None)))
            left = Counter(others)
            left.subtract(t for t in choice[1:] if t is not None)
            after = tuple(sorted(left.elements(), key=tile_order))
            found = search(after, wilds - choice.count(None))
            if found is not None:
                return (choice, *found)
        return None

    found = search(tuple(sorted(faces, key=tile_order)), wilds)
    if found is None:
        return None
    # A face equal to the okey's can only be a false joker: the okeys themselves are wild.
    return tuple(
        tuple(okey if t is None else FALSE_JOKER if t == okey else t for t in meld)
        for meld in found
    )


def arrange(tiles: Sequence[Tile], okey: Tile, *, one_after_thirteen: bool = True) -> Finish | None:
    """A finish of the 14 tiles (melds first, then seven pairs), or ``None`` when none."""
    _count(tiles)
    melds = melds_finish(tiles, okey, one_after_thirteen=one_after_thirteen)
    if melds is not None:
        return Finish("melds", melds)
    pairs = pairs_finish(tiles, okey)
    return None if pairs is None else Finish("pairs", pairs)
