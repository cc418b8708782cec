"""A reference Okey group judge transcribed from okey-solver-py (test code only).

Source: https://github.com/AtaCanYmc/okey-solver-py at commit
b6461d79caff3c47a91279cca1e218d9df32eaa1 (Apache License 2.0): ``OkeyRuleValidator`` in
``src/okey_solver/rules.py`` (``is_per``, ``is_seri``, ``evaluate_group``, ``is_tiles_same``,
``get_effective_tile``), and how ``SolverEngine.find_best_arrangement`` (``solver.py``) and
``MeldGenerator`` (``meld_generator.py``) feed it: false jokers are first resolved to the okey's
face, then every tile showing the okey's face is taken out as a wildcard, and a wildcard enters a
group as a concrete tile before the validator judges it. ``judge`` does the same for one
candidate group: it tries the wildcards as every tile they could usefully be.

Only the shapes are changed: a tile is ``(colour, value)`` (colours ``R K B Y``, a false joker
``("JOKER", 0)``), and the okey is given as the okey tile itself (their ``OkeyMeta``)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import NamedTuple

JOKER = "JOKER"
COLOURS = ("R", "K", "B", "Y")


class RefTile(NamedTuple):
    color: str
    value: int


PER, SERI, CIFT, INVALID = "PER", "SERI", "CIFT", "INVALID"


def get_effective_tile(tile: RefTile, okey_meta: RefTile | None) -> RefTile:
    if not okey_meta:
        return tile
    if tile.color == JOKER:
        return RefTile(okey_meta.color, okey_meta.value)
    return tile


def get_effective_tiles(tiles: Sequence[RefTile], okey_meta: RefTile | None) -> list[RefTile]:
    return [get_effective_tile(t, okey_meta) for t in tiles]


def is_per(tiles: Sequence[RefTile], okey_meta: RefTile | None = None) -> bool:
    if len(tiles) < 3 or len(tiles) > 4:
        return False
    effective_tiles = get_effective_tiles(tiles, okey_meta)
    first_value = effective_tiles[0].value
    colors = set()
    for tile in effective_tiles:
        if tile.value != first_value:
            return False
        if tile.color in colors:
            return False
        colors.add(tile.color)
    return True


def is_seri(
    tiles: Sequence[RefTile], allow_one_after: bool = True, okey_meta: RefTile | None = None
) -> bool:
    if len(tiles) < 3:
        return False
    effective_tiles = get_effective_tiles(tiles, okey_meta)
    sorted_tiles = sorted(effective_tiles, key=lambda t: t.value)
    first_color = sorted_tiles[0].color
    is_normal = True
    is_circular = True
    for i in range(len(sorted_tiles)):
        if sorted_tiles[i].color != first_color:
            return False
        if i > 0:
            if sorted_tiles[i].value != sorted_tiles[i - 1].value + 1:
                is_normal = False
            if i > 1 and sorted_tiles[i].value != sorted_tiles[i - 1].value + 1:
                is_circular = False
    if is_normal:
        return True
    return bool(
        allow_one_after
        and is_circular
        and sorted_tiles[0].value == 1
        and sorted_tiles[-1].value == 13
    )


def is_tiles_same(a: RefTile, b: RefTile, okey_meta: RefTile | None = None) -> bool:
    eff_a = get_effective_tile(a, okey_meta)
    eff_b = get_effective_tile(b, okey_meta)
    return eff_a.value == eff_b.value and eff_a.color == eff_b.color


def evaluate_group(tiles: Sequence[RefTile], okey_meta: RefTile | None = None) -> str:
    if is_per(tiles, okey_meta):
        return PER
    if is_seri(tiles, True, okey_meta):
        return SERI
    if len(tiles) == 2 and is_tiles_same(tiles[0], tiles[1], okey_meta):
        return CIFT
    return INVALID


def split(
    tiles: Sequence[RefTile], okey_meta: RefTile, *, false_jokers_wild: bool = True
) -> tuple[list[RefTile], int]:
    """``find_best_arrangement``'s first steps: resolve false jokers, then take out every tile
    showing the okey's face as a wildcard. With ``false_jokers_wild=False`` a resolved false
    joker stays a plain tile (the rules' reading, for classifying a difference)."""
    normal: list[RefTile] = []
    wildcards = 0
    for tile in tiles:
        resolved = get_effective_tile(tile, okey_meta)
        if resolved == okey_meta and (false_jokers_wild or tile.color != JOKER):
            wildcards += 1
        else:
            normal.append(resolved)
    return normal, wildcards


def _candidates(normal: Sequence[RefTile]) -> list[RefTile]:
    """The tiles a wildcard may usefully stand for: a per shares its value, a seri its colour
    (with no plain tile, one colour's run and one value's set stand for all by symmetry)."""
    if not normal:
        return sorted({RefTile("R", v) for v in range(1, 14)} | {RefTile(c, 1) for c in COLOURS})
    colours = {t.color for t in normal}
    values = {t.value for t in normal}
    return sorted(
        {RefTile(c, v) for c in colours for v in range(1, 14)}
        | {RefTile(c, v) for c in COLOURS for v in values}
    )


def kinds(
    tiles: Sequence[RefTile], okey_meta: RefTile, *, false_jokers_wild: bool = True
) -> frozenset[str]:
    """Every verdict the validator can reach for one candidate group (``PER``, ``SERI``,
    ``CIFT``; empty when none), as the solver would reach it: wildcards entering as concrete
    tiles, and the pair finder pairing a wildcard with anything."""
    normal, wildcards = split(tiles, okey_meta, false_jokers_wild=false_jokers_wild)
    if wildcards == 0:
        kind = evaluate_group(normal, okey_meta)
        return frozenset() if kind == INVALID else frozenset({kind})
    if len(tiles) == 2:
        return frozenset({CIFT})
    found: set[str] = set()
    for filled in combinations_with_replacement(_candidates(normal), wildcards):
        kind = evaluate_group([*normal, *filled], okey_meta)
        if kind in (PER, SERI):
            found.add(kind)
            if len(found) == 2:
                break
    return frozenset(found)
