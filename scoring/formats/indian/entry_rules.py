"""What the deal entry page's script reads from the rules engine (shown with ``json_script``):
the card notation, hand size, decks and outcome points the engine itself defines, so the script
checks and counts as you type without a copy of the rules. Whole hands (validity, arrangement,
points) are asked of ``POST /api/v1/rules/evaluate/``."""

from __future__ import annotations

import dataclasses
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
from rules.indian.preset import DEFAULT_HOUSE_RULES, HouseRules, IndianPreset


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


def deal_entry_rules(
    preset: IndianPreset,
    outcomes: Iterable[OutcomeOption],
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> dict[str, Any]:
    """The deal entry page's rules: the card notation, the hand size, the decks (copies of each
    card), the winner's outcome, and each outcome a deal may have: the points it may score
    without cards (``low``..``high``), whether its points follow the cards, whether cards given
    must (or must not) form a valid declaration, and its name for the evaluate endpoint."""
    winner = next(code for code, outcome in OUTCOME_NAMES.items() if outcome is Outcome.WINNER)
    return {
        "cards": _card_notation(),
        "hand_size": HAND_SIZE,
        "decks": preset.decks,
        # The house rules that differ from the defaults, sent with each hand to the evaluate
        # endpoint so the page checks hands as the deal check will.
        "house_rules": {
            field.name: getattr(house, field.name)
            for field in dataclasses.fields(house)
            if getattr(house, field.name) != getattr(DEFAULT_HOUSE_RULES, field.name)
        },
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
