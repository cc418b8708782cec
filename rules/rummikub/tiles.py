"""Rummikub tiles and their notation.

A number tile is a colour letter and a number: ``K`` black, ``R`` red, ``B`` blue, ``O`` orange,
numbers 1 to 13 (``R5``, ``K13``, ``B1``). A joker is ``JK``; it may carry what it stands for,
``JK=R7``. Input is case-insensitive; ``str(tile)`` is the canonical upper-case form.

A game has two copies of each number tile and two jokers: ``check_copies`` enforces that over
everything given in one request."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.errors import RuleViolation, shown

#: Colour letters in the engine's fixed order (used wherever a colour has to be chosen).
COLOURS: tuple[str, ...] = ("K", "R", "B", "O")
COLOUR_NAMES: dict[str, str] = {"K": "black", "R": "red", "B": "blue", "O": "orange"}
#: Copies of each number tile, and jokers, in one game.
COPIES_PER_TILE = 2
JOKERS_PER_GAME = 2
JOKER_CODE = 52


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile. ``colour``/``number`` are ``None`` for a joker; ``stands_for`` is the number
    tile an explicit ``JK=R7`` names (``None`` for a bare joker and for number tiles).

    ``code`` is a compact integer: ``colour index x 13 + number - 1`` (0..51), 52 for a joker."""

    colour: str | None
    number: int | None
    stands_for: Tile | None = None

    def __post_init__(self) -> None:
        if self.colour is None and self.number is None:
            if self.stands_for is not None and self.stands_for.is_joker:
                raise ValueError("a joker stands for a number tile")
            return
        if self.colour not in COLOURS or self.number is None or not 1 <= self.number <= 13:
            raise ValueError(f"not a tile: colour={self.colour!r} number={self.number!r}")
        if self.stands_for is not None:
            raise ValueError("only a joker stands for another tile")

    @property
    def is_joker(self) -> bool:
        return self.number is None

    @property
    def code(self) -> int:
        if self.number is None or self.colour is None:
            return JOKER_CODE
        return COLOURS.index(self.colour) * 13 + self.number - 1

    def __str__(self) -> str:
        if self.number is None:
            return "JK" if self.stands_for is None else f"JK={self.stands_for}"
        return f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"


#: Every number tile by code (0..51).
NUMBER_TILES: tuple[Tile, ...] = tuple(Tile(c, n) for c in COLOURS for n in range(1, 14))
JOKER = Tile(None, None)

_BY_TEXT: dict[str, Tile] = {}
for _tile in NUMBER_TILES:
    _BY_TEXT[str(_tile)] = _tile
    _joker = Tile(None, None, _tile)
    _BY_TEXT[str(_joker)] = _joker
_BY_TEXT["JK"] = JOKER


def tile_from_code(code: int) -> Tile:
    """The tile with this ``code`` (52 is a bare joker)."""
    return JOKER if code == JOKER_CODE else NUMBER_TILES[code]


def joker_as(tile: Tile) -> Tile:
    """The joker written as standing for ``tile`` (``JK=R7``)."""
    return _BY_TEXT[f"JK={tile}"]


def parse_tile(text: object) -> Tile:
    """Read one tile (``R5``, ``k13``, ``JK``, ``jk=r7``); raise ``RuleViolation('bad_tile')``."""
    if isinstance(text, Tile):
        return text
    if isinstance(text, str):
        tile = _BY_TEXT.get(text.strip().upper())
        if tile is not None:
            return tile
        token = text
    else:
        token = shown(text)
    raise RuleViolation(
        "bad_tile",
        f"{shown(text)} is not a tile: write a colour (K, R, B, O) and a number 1-13 such as R5, "
        "or JK, or JK=R7",
        token=token,
    )


def parse_tiles(tokens: object, *, field: str = "tiles") -> tuple[Tile, ...]:
    """Read a list of tiles; ``field`` names the list in the error when it is not a list."""
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Sequence):
        raise RuleViolation("bad_field", f"{field} must be a list of tiles", token=field)
    return tuple(parse_tile(token) for token in tokens)


def check_copies(tiles: Iterable[Tile], *, extra_jokers: int = 0) -> None:
    """Raise ``RuleViolation('too_many_copies')`` naming the tile when ``tiles`` (everything of one
    game) hold more than two copies of a number tile or more than two jokers. ``extra_jokers``
    counts jokers known to be elsewhere (e.g. a final discard). A ``JK=R7`` counts as a joker."""
    counts = Counter(tile.code for tile in tiles)
    if extra_jokers:
        counts[JOKER_CODE] += extra_jokers
    for code in sorted(counts):
        count = counts[code]
        if code == JOKER_CODE:
            if count > JOKERS_PER_GAME:
                raise RuleViolation(
                    "too_many_copies",
                    f"{count} jokers: a game has only {JOKERS_PER_GAME}",
                    token="JK",
                    details={"count": count},
                )
        elif count > COPIES_PER_TILE:
            name = str(NUMBER_TILES[code])
            raise RuleViolation(
                "too_many_copies",
                f"{count} copies of {name}: a game has only {COPIES_PER_TILE} of each tile",
                token=name,
                details={"count": count},
            )
