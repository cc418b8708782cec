"""The batch line contract for Indian rummy (``rules.evaluate`` adds the ``id``).

In::

    {"game": "indian", "wild": "QH" | "Q" | "JK", "decks": 2,
     "groups": [["2H", "3H", "4H"], ...]   or   "cards": ["2H", ...],   (exactly one)
     "outcome": "hand", "pool": 101 | 201}

``wild`` is required; ``decks`` (default 2), ``outcome`` (default ``hand``) and ``pool`` (default:
points rummy) are optional, and ``null`` means not given. ``expect`` and ``note`` are accepted and
ignored (case files carry them); any other field is an error (``unknown_field``), so a misspelt
``outcome`` cannot silently score a hand.

Out: ``{"valid": bool, "against": int, "groups": [{"cards": [...], "kind": ...}, ...]}``. With
``groups`` the hand is scored as grouped (groups and cards in the order given, in canonical
notation); with ``cards`` (13 ungrouped) ``groups`` is the best arrangement and ``against`` its
score. ``valid`` is whether the hand is (or, for ``cards``, can be grouped into) a valid
declaration; ``against`` (the points the rules count against the hand) follows ``outcome``.
``points`` repeats it under its older name (deprecated, kept for a release; the case files still
expect it).

Error codes: ``unknown_field``, ``missing_field``, ``conflicting_fields``, ``bad_wild``,
``bad_decks``, ``bad_pool``, ``bad_outcome``, ``bad_groups``, ``bad_cards``, ``bad_card``,
``too_many_copies``, ``wrong_card_count``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rules.errors import RuleViolation
from rules.indian.arrangement import arrange
from rules.indian.cards import (
    NAMES,
    check_copies,
    parse_cards,
    parse_groups,
    parse_wild,
    token_text,
)
from rules.indian.hand import HandResult, check_hand_size, score_groups
from rules.indian.outcomes import Outcome, deal_points, parse_outcome
from rules.indian.preset import DEFAULT_HOUSE_RULES, POOL_DROPS, HouseRules, IndianPreset

FIELDS = frozenset(
    {"id", "game", "wild", "decks", "groups", "cards", "outcome", "pool", "house_rules"}
)
IGNORED = frozenset({"expect", "note"})
_KNOWN = FIELDS | IGNORED

_presets: dict[tuple[object, int], IndianPreset] = {}


def _house_rules(options: object) -> HouseRules:
    """The request's ``house_rules`` (the fields of ``HouseRules``), each checked."""
    if options is None:
        return DEFAULT_HOUSE_RULES
    if not isinstance(options, dict):
        raise RuleViolation("bad_house_rules", "house_rules must be an object", "house_rules")
    known = {field.name for field in dataclasses.fields(HouseRules)}
    unknown = sorted(set(options) - known)
    if unknown:
        shown = token_text(unknown[0])
        raise RuleViolation(
            "bad_house_rules",
            f"house_rules: unknown option {shown!r}: use {', '.join(sorted(known))}",
            shown,
        )
    try:
        return HouseRules(**options)
    except ValueError as exc:
        name = next((key for key in options if str(exc).startswith(key)), "house_rules")
        raise RuleViolation("bad_house_rules", f"house_rules: {exc}", name) from None


def _preset(pool: object, decks: object) -> IndianPreset:
    if decks is None:
        decks = 2
    elif type(decks) is not int or decks < 1:
        shown = token_text(decks)
        raise RuleViolation("bad_decks", f"decks must be a whole number >= 1, not {shown}", shown)
    if pool is not None and (type(pool) is not int or pool not in POOL_DROPS):
        shown = token_text(pool)
        raise RuleViolation(
            "bad_pool", f"pool must be one of {', '.join(map(str, POOL_DROPS))}, not {shown}", shown
        )
    key = (pool, decks)
    preset = _presets.get(key)
    if preset is None:
        preset = IndianPreset(decks=decks) if pool is None else IndianPreset.for_pool(pool, decks)
        if len(_presets) < 256:
            _presets[key] = preset
    return preset


def _groups_out(result: HandResult) -> list[dict[str, Any]]:
    return [
        {"cards": [NAMES[card] for card in group.cards], "kind": str(group.kind)}
        for group in result.groups
    ]


def evaluate(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Evaluate one request; raises ``RuleViolation`` for anything it cannot evaluate."""
    if not _KNOWN.issuperset(obj):
        shown = token_text(next(key for key in obj if key not in _KNOWN))
        raise RuleViolation(
            "unknown_field", f"unknown field {shown!r}: use {', '.join(sorted(FIELDS))}", shown
        )
    wild_token = obj.get("wild")
    if wild_token is None:
        raise RuleViolation("missing_field", "wild is required (the cut card or its rank)", "wild")
    house = _house_rules(obj.get("house_rules"))
    wild = parse_wild(wild_token, house.cut_card_only, house.cut_card_free)
    preset = _preset(obj.get("pool"), obj.get("decks"))
    outcome_token = obj.get("outcome")
    outcome = Outcome.HAND if outcome_token is None else parse_outcome(outcome_token)
    groups = obj.get("groups")
    cards = obj.get("cards")
    if groups is not None:
        if cards is not None:
            raise RuleViolation("conflicting_fields", "give groups or cards, not both", "cards")
        if not isinstance(groups, list | tuple):
            raise RuleViolation("bad_groups", "groups must be a list of lists of cards", "groups")
        for index, group in enumerate(groups):
            if not (type(group) is list or isinstance(group, tuple)) or not group:
                raise RuleViolation(
                    "bad_groups",
                    f"group {index + 1} must be a non-empty list of cards",
                    "groups",
                    {"group": index},
                )
        parsed = parse_groups(groups)
        flat = [card for group in parsed for card in group]
        if len(flat) - len(set(flat)) >= preset.decks:
            check_copies(flat, preset.decks, [token for group in groups for token in group])
        check_hand_size(len(flat))
        result = score_groups(parsed, wild, preset, house)
    elif cards is not None:
        if not isinstance(cards, list | tuple):
            raise RuleViolation("bad_cards", "cards must be a list of cards", "cards")
        hand = parse_cards(cards)
        check_copies(hand, preset.decks, cards)
        check_hand_size(len(hand))
        result = arrange(hand, wild, preset, house)
    else:
        raise RuleViolation(
            "missing_field", "give the hand: groups (as declared) or cards (13)", "groups"
        )
    against = deal_points(outcome, preset, result)
    return {
        "valid": result.valid,
        "against": against,
        "points": against,  # deprecated: the older name of ``against``
        "groups": _groups_out(result),
    }
