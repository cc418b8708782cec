"""What the Rummikub entry page's script reads from the rules engine (shown with
``json_script``): every tile spelling with what it counts, and the closed hand's size."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from rules.rummikub.closed_hands import HAND_SIZE as CLOSED_HAND_SIZE
from rules.rummikub.international import melded_hand_value
from rules.rummikub.preset import RummikubPreset
from rules.rummikub.scoring import rack_total
from rules.rummikub.tiles import JOKER, NUMBER_TILES, joker_as
from scoring.formats.cards import tile_name


def rack_entry_rules(preset: RummikubPreset, *, international: bool) -> dict[str, Any]:
    """The Rummikub entry page's rules: every tile spelling the engine reads (upper case), with
    its colour, number, name and what it counts left on a rack (International: a melded loser's
    count), and the size of a closed hand."""
    tiles: dict[str, Any] = {}
    for tile in [*NUMBER_TILES, JOKER, *map(joker_as, NUMBER_TILES)]:
        tiles[str(tile)] = {
            "colour": tile.colour,
            "number": tile.number,
            "name": tile_name(tile.colour, tile.number) if tile.colour else gettext("joker"),
            "value": melded_hand_value([tile], preset)
            if international
            else rack_total([tile], preset.joker_value),
        }
    return {"tiles": tiles, "closed_hand_size": CLOSED_HAND_SIZE}
