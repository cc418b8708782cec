"""Okey melds and pairs (``docs/rules.md``, "Okey").

A meld is a run (3 or more consecutive numbers of one colour; 1 may follow 13, as in
``R12 R13 R1``, unless the preset says otherwise, but a run never goes on past it: ``R13 R1 R2``
is not a run) or a set (3 or 4 tiles of one number in distinct colours). A pair is two identical
tiles. The okey's two copies are wild: each stands for any tile a meld or pair needs (its own
face included). A false joker stands for the okey's face and nothing else."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rules.errors import RuleViolation
from rules.okey.tiles import Tile

Kind = Literal["run", "set"]
#: The highest position in a run: 14 is 1 played after 13.
_HIGH_ONE = 14


@dataclass(frozen=True)
class Meld:
    """A judged meld: its kind, its tiles as given, and how many okeys it holds as wild."""

    kind: Kind
    tiles: tuple[Tile, ...]
    wilds: int


def split_wilds(tiles: Sequence[Tile], okey: Tile) -> tuple[list[Tile], int]:
    """The faces the tiles show (a false joker shows the okey's face) and the number of wild
    okeys among them."""
    faces: list[Tile] = []
    wilds = 0
    for tile in tiles:
        if tile == okey:
            wilds += 1
        elif tile.is_false_joker:
            faces.append(okey)
        else:
            faces.append(tile)
    return faces, wilds


def is_set(faces: Sequence[Tile], wilds: int) -> bool:
    """3 or 4 tiles of one number in distinct colours, wilds filling the rest."""
    size = len(faces) + wilds
    if not 3 <= size <= 4:
        return False
    colours = [face.colour for face in faces]
    return len({face.number for face in faces}) <= 1 and len(set(colours)) == len(colours)


def is_run(faces: Sequence[Tile], wilds: int, *, one_after_thirteen: bool = True) -> bool:
    """3 or more consecutive numbers of one colour, wilds filling the gaps or the ends. With
    ``one_after_thirteen`` the positions go up to 14 (1 after 13); a window never wraps."""
    size = len(faces) + wilds
    top = _HIGH_ONE if one_after_thirteen else 13
    if size < 3 or size > top or len({face.colour for face in faces}) > 1:
        return False
    numbers = Counter(face.number for face in faces)
    ones = numbers.pop(1, 0)
    if any(count > 1 for count in numbers.values()):
        return False
    for start in range(1, top - size + 2):
        end = start + size - 1
        if not all(start <= number <= end for number in numbers if number is not None):
            continue
        if ones <= int(start == 1) + int(end == _HIGH_ONE):
            return True
    return False


def meld_kind(tiles: Sequence[Tile], okey: Tile, *, one_after_thirteen: bool = True) -> Kind | None:
    """``"set"`` or ``"run"`` when the tiles make one (a set first, as a group of wilds and one
    face is both), else ``None``."""
    faces, wilds = split_wilds(tiles, okey)
    if is_set(faces, wilds):
        return "set"
    if is_run(faces, wilds, one_after_thirteen=one_after_thirteen):
        return "run"
    return None


def is_pair(tiles: Sequence[Tile], okey: Tile) -> bool:
    """Two identical tiles (a false joker is the okey's face), or any tile and a wild okey."""
    if len(tiles) != 2:
        return False
    faces, wilds = split_wilds(tiles, okey)
    return wilds > 0 or faces[0] == faces[1]


def validate_meld(
    tiles: Sequence[Tile], okey: Tile, *, one_after_thirteen: bool = True, index: int = 0
) -> Meld:
    """The meld the tiles make; ``RuleViolation('not_a_meld')`` naming the group otherwise."""
    kind = meld_kind(tiles, okey, one_after_thirteen=one_after_thirteen)
    if kind is None:
        shown = " ".join(str(tile) for tile in tiles)
        raise RuleViolation(
            "not_a_meld",
            f"group {index + 1} ({shown}) is neither a run of one colour nor a set of one "
            "number in distinct colours",
            token=shown,
            details={"group": index},
        )
    return Meld(kind, tuple(tiles), split_wilds(tiles, okey)[1])
