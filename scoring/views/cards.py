"""Rummikub tiles as pages show them: the colour as a letter and a word, never by colour alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TILE_COLOURS = {"K": "black", "R": "red", "B": "blue", "O": "orange"}


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
