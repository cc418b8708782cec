"""What the entry pages' scripts read from the rules engine, as one JSON-ready dict per page (shown
with ``json_script``): the notation, sizes, deck limits, outcome points and tile values the engine
itself defines, so the scripts check and count as you type without a copy of the rules.

Checks that need the cards of a whole hand (validity, arrangement, points) are asked of
``POST /api/v1/rules/evaluate/`` by the script instead."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from rules.indian.cards import (
    CARDS,
    NAMES,
    PRINTED_JOKER,
    RANK_NAMES,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    card_spellings,
    format_rank,
    parse_wild,
)
from rules.indian.deal import OUTCOME_NAMES, OutcomeOption
from rules.indian.hand import HAND_SIZE
from rules.indian.outcomes import Outcome
from rules.indian.preset import IndianPreset
from rules.rummikub.closed_hands import HAND_SIZE as CLOSED_HAND_SIZE
from rules.rummikub.international import melded_hand_value
from rules.rummikub.preset import RummikubPreset
from rules.rummikub.scoring import rack_total
from rules.rummikub.tiles import COLOUR_NAMES, JOKER, NUMBER_TILES, joker_as


@cache
def _card_notation() -> dict[str, Any]:
    """Every spelling of a card the engine reads (upper case: the script upper-cases what is
    typed), each to its canonical code; every spelling of a cut card to the rank it makes wild;
    the deck in the engine's order (each natural card's rank and suit letter), each suit's
    symbol, the ranks per suit and the printed joker's code."""
    spellings = {
        token: NAMES[card] for token, card in card_spellings().items() if token == token.upper()
    }
    ranks = {token[:-1] for token in spellings if token.endswith(SUIT_LETTERS[0])}
    wild = {token: format_rank(parse_wild(token)) for token in [*spellings, *sorted(ranks)]}
    return {
        "deck": {
            NAMES[card]: [format_rank(card.rank), SUIT_LETTERS[card.suit]]
            for card in CARDS
            if card.rank is not None and card.suit is not None
        },
        "suits": dict(zip(SUIT_LETTERS, SUIT_SYMBOLS, strict=True)),
        "ranks_per_suit": len(RANK_NAMES),
        "joker": NAMES[PRINTED_JOKER],
        "spellings": spellings,
        "wild": wild,
    }


def deal_entry_rules(preset: IndianPreset, outcomes: Iterable[OutcomeOption]) -> dict[str, Any]:
    """The deal entry page's rules: the card notation, the hand size, the decks (copies of each
    card), the winner's outcome, and each outcome a deal may have: the points it may score
    without cards (``low``..``high``), whether its points follow the cards, whether cards given
    must (or must not) form a valid declaration, and its name for the evaluate endpoint."""
    winner = next(code for code, outcome in OUTCOME_NAMES.items() if outcome is Outcome.WINNER)
    return {
        "cards": _card_notation(),
        "hand_size": HAND_SIZE,
        "decks": preset.decks,
        "winner": winner,
        "outcomes": {
            option.code: {
                "low": option.low,
                "high": option.high,
                "cards": option.needs_cards,
                "valid": option.valid_hand,
                "evaluate_as": OUTCOME_NAMES[option.code].value,
            }
            for option in outcomes
        },
    }


def rack_entry_rules(preset: RummikubPreset, *, international: bool) -> dict[str, Any]:
    """The Rummikub entry page's rules: every tile spelling the engine reads (upper case), with
    its colour, number, name and what it counts left on a rack (International: a melded loser's
    count), and the size of a closed hand."""
    tiles: dict[str, Any] = {}
    for tile in [*NUMBER_TILES, JOKER, *map(joker_as, NUMBER_TILES)]:
        tiles[str(tile)] = {
            "colour": tile.colour,
            "number": tile.number,
            "name": f"{COLOUR_NAMES[tile.colour]} {tile.number}" if tile.colour else "joker",
            "value": melded_hand_value([tile], preset)
            if international
            else rack_total([tile], preset.joker_value),
        }
    return {"tiles": tiles, "closed_hand_size": CLOSED_HAND_SIZE}
