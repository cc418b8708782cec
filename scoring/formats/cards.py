"""Cards and Rummikub tiles as pages show them: a card with its suit symbol and a spoken name, its
colour as a class only; a tile's colour as a letter and a word, never by colour alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


def tile_view(token: object) -> TileView:
    raw = str(token).strip().upper()
    if raw.startswith("JK"):
        stands = raw[3:] if raw.startswith("JK=") else ""
        as_what = tile_view(stands) if stands else None
        name = f"joker as {as_what.name}" if as_what and as_what.known else "joker"
        return TileView(raw, "", "JK", name)
    colour, number = raw[:1], raw[1:]
    if colour in TILE_COLOURS and number.isdigit() and 1 <= int(number) <= 13:
        return TileView(raw, colour, number, f"{TILE_COLOURS[colour]} {number}")
    return TileView(raw, "", raw, f"unknown tile {raw}", known=False)


def tiles_view(tokens: Any, bad: set[str] | frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    return [
        {"t": tile_view(token), "bad": str(token).strip().upper() in bad}
        for token in tokens or []
        if isinstance(token, str)
    ]
