"""Okey tiles and their notation.

A number tile is a colour letter and a number: ``R`` red, ``K`` black, ``B`` blue, ``Y`` yellow,
numbers 1 to 13 (``R5``, ``K13``). A false joker (sahte okey) is ``FJ``. Input is
case-insensitive; ``str(tile)`` is the canonical upper-case form.

A game has 106 tiles: two copies of each of the 52 number tiles and two false jokers. The
indicator (gösterge) is turned face up before the deal, so one copy of it is out of every hand:
``check_copies`` enforces both over everything given in one request.

The okey is the tile after the indicator in its colour (13 is followed by 1): its two copies are
wild. A false joker is not wild: it stands for the okey's own face (``okey_face``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.errors import RuleViolation, shown

#: Colour letters in the engine's fixed order.
COLOURS: tuple[str, ...] = ("R", "K", "B", "Y")
COLOUR_NAMES: dict[str, str] = {"R": "red", "K": "black", "B": "blue", "Y": "yellow"}
COPIES_PER_TILE = 2
FALSE_JOKERS_PER_GAME = 2
TILES_PER_GAME = len(COLOURS) * 13 * COPIES_PER_TILE + FALSE_JOKERS_PER_GAME  # 106


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: ``colour`` and ``number`` are ``None`` for a false joker."""

    colour: str | None
    number: int | None

    def __post_init__(self) -> None:
        if self.colour is None and self.number is None:
            return
        if self.colour not in COLOURS or self.number is None or not 1 <= self.number <= 13:
            raise ValueError(f"not a tile: colour={self.colour!r} number={self.number!r}")

    @property
    def is_false_joker(self) -> bool:
        return self.number is None

    def __str__(self) -> str:
        return "FJ" if self.number is None else f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"


def tile_order(tile: Tile) -> tuple[int, int]:
    """A sort key: colours in the engine's order, then numbers, false jokers last."""
    if tile.colour is None or tile.number is None:
        return (len(COLOURS), 0)
    return (COLOURS.index(tile.colour), tile.number)


NUMBER_TILES: tuple[Tile, ...] = tuple(Tile(c, n) for c in COLOURS for n in range(1, 14))
FALSE_JOKER = Tile(None, None)
_BY_TEXT: dict[str, Tile] = {str(tile): tile for tile in NUMBER_TILES}
_BY_TEXT["FJ"] = FALSE_JOKER


def parse_tile(text: object) -> Tile:
    """Read one tile (``R5``, ``k13``, ``FJ``); raise ``RuleViolation('bad_tile')``."""
    if isinstance(text, Tile):
        return text
    if isinstance(text, str):
        tile = _BY_TEXT.get(text.strip().upper())
        if tile is not None:
            return tile
    raise RuleViolation(
        "bad_tile",
        f"{shown(text)} is not an Okey tile: write a colour (R, K, B, Y) and a number 1-13 "
        "such as R5, or FJ for a false joker",
        token=text if isinstance(text, str) else shown(text),
    )


def parse_tiles(tokens: object, *, field: str = "tiles") -> tuple[Tile, ...]:
    """Read a list of tiles; ``field`` names the list in the error when it is not a list."""
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Sequence):
        raise RuleViolation("bad_field", f"{field} must be a list of tiles", token=field)
    return tuple(parse_tile(token) for token in tokens)


def okey_of(indicator: Tile) -> Tile:
    """The okey: the tile after the indicator in its colour, 1 after 13."""
    if indicator.is_false_joker or indicator.colour is None or indicator.number is None:
        raise RuleViolation(
            "bad_tile", "the indicator is a number tile, not a false joker", token="FJ"
        )
    return Tile(indicator.colour, indicator.number % 13 + 1)


def check_copies(tiles: Iterable[Tile], indicator: Tile | None = None) -> None:
    """Raise ``RuleViolation('too_many_copies')`` naming the tile when ``tiles`` (everything of
    one game) hold more than two copies of a tile, more than two false jokers, or more than one
    copy of the indicator (the other lies face up)."""
    counts = Counter(tiles)
    for tile in sorted(counts, key=tile_order):
        count = counts[tile]
        limit = FALSE_JOKERS_PER_GAME if tile.is_false_joker else COPIES_PER_TILE
        why = f"a game has only {limit} of each tile"
        if tile == indicator:
            limit, why = 1, "the other copy is the indicator, face up on the table"
        if count > limit:
            raise RuleViolation(
                "too_many_copies",
                f"{count} copies of {tile}: {why}",
                token=str(tile),
                details={"count": count},
            )
