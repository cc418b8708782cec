"""Cards, and Rummikub and Okey tiles, as pages show them: a card with its suit symbol and a
spoken name, its colour as a class only; a tile's colour as a letter and a word, never by colour
alone."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop

from rules.okey.tiles import FALSE_JOKER as OKEY_FALSE_JOKER

_TILE_SPLIT = re.compile(r"[\s,;]+")


def split_tiles(text: str) -> list[str]:
    """``"r5 k13, jk"`` -> ``["R5", "K13", "JK"]``, as typed in a tile field: the rules engine
    checks each tile."""
    return [tile.upper() for tile in _TILE_SPLIT.split(text or "") if tile]


# Each suit's symbol, its card's spoken name (the rank put in, in the page's language) and
# whether it is red.
SUITS = {
    "S": ("♠", gettext_noop("%(rank)s of spades"), False),
    "H": ("♥", gettext_noop("%(rank)s of hearts"), True),
    "D": ("♦", gettext_noop("%(rank)s of diamonds"), True),
    "C": ("♣", gettext_noop("%(rank)s of clubs"), False),
}
SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK_NAMES = {
    "A": gettext_noop("ace"),
    "J": gettext_noop("jack"),
    "Q": gettext_noop("queen"),
    "K": gettext_noop("king"),
}
JOKER_WORDS = {"JK", "PJ", "JOKER"}
# A tile's spoken name by its colour letter (the number put in).
TILE_COLOURS = {
    "K": gettext_noop("black %(number)s"),
    "R": gettext_noop("red %(number)s"),
    "B": gettext_noop("blue %(number)s"),
    "O": gettext_noop("orange %(number)s"),
}
#: Okey's colours (yellow for Rummikub's orange); its ``FJ`` is a false joker.
OKEY_TILE_COLOURS = {
    "R": gettext_noop("red %(number)s"),
    "K": gettext_noop("black %(number)s"),
    "B": gettext_noop("blue %(number)s"),
    "Y": gettext_noop("yellow %(number)s"),
}
FALSE_JOKER = str(OKEY_FALSE_JOKER)


def tile_name(colour: str, number: object, colours: dict[str, str] = TILE_COLOURS) -> str:
    """A number tile's spoken name in the page's language: "red 5"."""
    return gettext(colours[colour]) % {"number": number}


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
        return CardView("JK", "JK", "", gettext("printed joker"), False)
    suit = SUIT_LETTERS.get(raw[-1:], upper[-1:])
    rank = upper[:-1].replace("♥️", "")
    rank = "10" if rank == "T" else rank
    if suit in SUITS and rank in {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}:
        symbol, name, red = SUITS[suit]
        rank_name = gettext(RANK_NAMES[rank]) if rank in RANK_NAMES else rank
        return CardView(rank + suit, rank, symbol, gettext(name) % {"rank": rank_name}, red)
    unknown = gettext("unknown card %(card)s") % {"card": raw}
    return CardView(raw, raw, "", unknown, False, known=False)


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
        return TileView(raw, "", raw, gettext("false joker"))
    if raw.startswith("JK") and colours is TILE_COLOURS:
        stands = raw[3:] if raw.startswith("JK=") else ""
        as_what = tile_view(stands) if stands else None
        if as_what and as_what.known:
            name = gettext("joker as %(tile)s") % {"tile": as_what.name}
        else:
            name = gettext("joker")
        return TileView(raw, "", "JK", name)
    colour, number = raw[:1], raw[1:]
    if colour in colours and number.isdigit() and 1 <= int(number) <= 13:
        return TileView(raw, colour, number, tile_name(colour, number, colours))
    return TileView(raw, "", raw, gettext("unknown tile %(tile)s") % {"tile": raw}, known=False)


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
