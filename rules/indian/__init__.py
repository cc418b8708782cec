"""Indian rummy (13 cards): the rules engine. Pure Python, no Django.

The rules are ``indian-rummy.md`` (shared rules folder); the choices made where the sources are
silent are the Decisions in ``docs/rules.md``. Every error is a ``rules.errors.RuleViolation``
with a stable ``code`` and the offending ``token``.

Public API (all importable from ``rules.indian``):

Cards (``cards``)
    ``Card`` (an interned small int: ``.rank``, ``.suit``, ``.is_printed_joker``, ``str()``),
    ``parse_card(token) -> Card``, ``parse_cards(tokens) -> list[Card]``,
    ``parse_groups(groups) -> list[list[Card]]``, ``parse_hand_text("2H 3H 4H | ...")``,
    ``format_card``, ``format_cards``, ``format_hand_text``,
    ``parse_wild("QH" | "Q" | "10" | "JK") -> int`` (the wild rank, 1 ace .. 13 king; a printed
    joker cut makes Aces wild), ``card_value(card, wild_rank)``, ``is_joker(card, wild_rank)``,
    ``check_copies(cards, decks=2)`` (one hand), ``check_deal_copies(hands, decks=2, cut=None)``
    (every hand of a deal, plus the face-up cut card when known).

Groups (``groups``)
    ``classify_group(cards, wild_rank) -> GroupKind`` (``PURE_SEQUENCE``, ``IMPURE_SEQUENCE``,
    ``SET``, ``INVALID``).

Scoring (``hand``, ``arrangement``)
    ``score_declaration(groups, wild_rank, preset=DEFAULT_PRESET) -> HandResult``: a declared
    13-card hand as grouped (checks copies and count).
    ``best_arrangement(cards, wild_rank, preset=DEFAULT_PRESET) -> HandResult``: 13 ungrouped
    cards, the lowest-scoring grouping (exact) and whether a valid declaration exists.
    ``score_groups`` / ``arrange``: the same for any number of cards, without the checks.
    ``HandResult(valid, score, groups)``; each group a ``ScoredGroup(cards, kind)``.

Deal outcomes (``preset``, ``outcomes``)
    ``IndianPreset`` (frozen; every number a parameter): ``IndianPreset()`` points rummy,
    ``IndianPreset.for_pool(101 | 201)``, ``IndianPreset.for_deals(n)``.
    ``Outcome`` (``hand``, ``winner``, ``first_drop``, ``middle_drop``, ``missed_turns``,
    ``wrong_show``, ``late_declare``, ``valid_not_declared``, ``deal_show``), ``parse_outcome``,
    ``deal_points(outcome, preset, hand=None) -> int``.

Deals and formats (imported from their modules, not from ``rules.indian``)
    ``deal``: one deal as entered, checked and scored (``evaluate_indian_deal``,
    ``outcome_options``); ``points``: the money of a points-rummy deal; ``pool``: pool rummy's
    elimination, rejoin and split; ``deals``: deals rummy's chips.

Batch contract
    ``rules.indian.evaluate.evaluate(obj) -> dict``: one JSON request in, one answer out (used by
    ``rules.evaluate.evaluate_request`` and ``manage.py evaluate_hands``).
"""

from rules.indian.arrangement import arrange, best_arrangement
from rules.indian.cards import (
    CARDS,
    PRINTED_JOKER,
    Card,
    card_value,
    check_copies,
    check_deal_copies,
    format_card,
    format_cards,
    format_hand_text,
    format_rank,
    is_joker,
    parse_card,
    parse_cards,
    parse_groups,
    parse_hand_text,
    parse_wild,
)
from rules.indian.groups import GroupKind, classify_group
from rules.indian.hand import HAND_SIZE, HandResult, ScoredGroup, score_declaration, score_groups
from rules.indian.outcomes import Outcome, deal_points, parse_outcome
from rules.indian.preset import DEFAULT_PRESET, IndianPreset

__all__ = [
    "CARDS",
    "DEFAULT_PRESET",
    "HAND_SIZE",
    "PRINTED_JOKER",
    "Card",
    "GroupKind",
    "HandResult",
    "IndianPreset",
    "Outcome",
    "ScoredGroup",
    "arrange",
    "best_arrangement",
    "card_value",
    "check_copies",
    "check_deal_copies",
    "classify_group",
    "deal_points",
    "format_card",
    "format_cards",
    "format_hand_text",
    "format_rank",
    "is_joker",
    "parse_card",
    "parse_cards",
    "parse_groups",
    "parse_hand_text",
    "parse_outcome",
    "parse_wild",
    "score_declaration",
    "score_groups",
]
