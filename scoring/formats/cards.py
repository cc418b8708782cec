"""Cards, and Rummikub and Okey tiles, as pages show them: a card with its suit symbol and a
spoken name, its colour as a class only; a tile's colour as a letter and a word, never by colour
alone."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.okey.tiles import COLOUR_NAMES as OKEY_COLOUR_NAMES
from rules.okey.tiles import FALSE_JOKER as OKEY_FALSE_JOKER

_TILE_SPLIT = re.compile(r"[\s,;]+")


def split_tiles(text: str) -> list[str]:
    """``"r5 k13, jk"`` -> ``["R5", "K13", "JK"]``, as typed in a tile field: the rules engine
    checks each tile."""
    return [tile.upper() for tile in _TILE_SPLIT.split(text or "") if tile]


SUITS = {
    "S": ("♠", "spades", False),
    "H": ("♥", "hearts", True),
    "D": ("♦", "diamonds", True),
    "C": ("♣", "clubs", False),
}
SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
JOKER_WORDS = {"JK", "PJ", "JOKER"}
TILE_COLOURS = {"K": "black", "R": "red", "B": "blue", "O": "orange"}
#: Okey's colours (yellow for Rummikub's orange); its ``FJ`` is a false joker.
OKEY_TILE_COLOURS = OKEY_COLOUR_NAMES
FALSE_JOKER = str(OKEY_FALSE_JOKER)


@dataclass(frozen=True)
class CardView:
    """A card as a page shows it: ``10♥`` with a spoken name, and its colour as a class only."""

    code: str
    rank: str
    symbol: str
    name: str
    red: bool
    known: bool = True

    @property
    def text(self) -> str:
        return f"{self.rank}{self.symbol}"


def card_view(token: object) -> CardView:
    raw = str(token).strip()
    upper = raw.upper()
    if upper in JOKER_WORDS:
        return CardView("JK", "JK", "", "printed joker", False)
    suit = SUIT_LETTERS.get(raw[-1:], upper[-1:])
    rank = upper[:-1].replace("♥️", "")
    rank = "10" if rank == "T" else rank
    if suit in SUITS and rank in {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}:
        symbol, suit_name, red = SUITS[suit]
        return CardView(
            rank + suit, rank, symbol, f"{RANK_NAMES.get(rank, rank)} of {suit_name}", red
        )
    return CardView(raw, raw, "", f"unknown card {raw}", False, known=False)


def cards_view(tokens: Any) -> list[CardView]:
    return [card_view(token) for token in tokens or []]


@dataclass(frozen=True)
class TileView:
    """A tile as a page shows it: ``R5`` as a letter and a number, ``red 5`` spoken."""

    code: str
    colour: str
    number: str
    name: str
    known: bool = True

    @property
    def joker(self) -> bool:
        return self.code.startswith("JK")


def tile_view(token: object, colours: dict[str, str] = TILE_COLOURS) -> TileView:
    """A tile of the game whose ``colours`` are given (Rummikub's by default)."""
    raw = str(token).strip().upper()
    if colours is OKEY_TILE_COLOURS and raw == FALSE_JOKER:
        return TileView(raw, "", raw, "false joker")
    if raw.startswith("JK") and colours is TILE_COLOURS:
        stands = raw[3:] if raw.startswith("JK=") else ""
        as_what = tile_view(stands) if stands else None
        name = f"joker as {as_what.name}" if as_what and as_what.known else "joker"
        return TileView(raw, "", "JK", name)
    colour, number = raw[:1], raw[1:]
    if colour in colours and number.isdigit() and 1 <= int(number) <= 13:
        return TileView(raw, colour, number, f"{colours[colour]} {number}")
    return TileView(raw, "", raw, f"unknown tile {raw}", known=False)


def tiles_view(
    tokens: Any,
    bad: set[str] | frozenset[str] = frozenset(),
    colours: dict[str, str] = TILE_COLOURS,
) -> list[dict[str, Any]]:
    return [
        {"t": tile_view(token, colours), "bad": str(token).strip().upper() in bad}
        for token in tokens or []
        if isinstance(token, str)
    ]
