"""Rummikub rules: Sabra, American and International (``docs/rules.md``, "Rummikub").

Pure Python; every function raises ``rules.errors.RuleViolation`` (with the offending tile or
field as ``token``) for input that breaks a rule. The public API:

Tiles
    ``Tile``, ``parse_tile(text) -> Tile``, ``parse_tiles(tokens) -> tuple[Tile, ...]``,
    ``check_copies(tiles)`` (two of each tile, two jokers per game).
Presets (frozen dataclasses, every number a parameter)
    ``RummikubPreset``; ``SABRA``, ``SABRA_50``, ``SABRA_JOKER_25``, ``AMERICAN``,
    ``AMERICAN_JOKER_25``, ``INTERNATIONAL``, ``INTERNATIONAL_TRUMP``; ``PRESETS`` by name;
    ``preset_for(preset_or_name)``.
Melds
    ``validate_meld(tiles, rules) -> Meld``;
    ``validate_melds(melds, rules, initial_meld=False) -> MeldsResult``.
Sabra and American game scores (zero-sum)
    ``game_scores(racks, winner, rules, last_mover=None) -> dict[str, int]``;
    ``pool_exhausted_scores(totals, last_mover=None)``, ``winner_scores(totals, winner)``,
    ``rack_total(tiles, joker_value=30)``; a match: ``match_totals(games)``,
    ``match_leaders(totals)``.
International
    ``international_scores(racks, melded, winner, win, closed_hand=..., first_turn=...,
    original_hand=..., is_first_player=..., final_discard_joker=..., trump_holders=...,
    rules=INTERNATIONAL) -> InternationalScores``; ``melded_hand_value(tiles, rules)``;
    ``classify_closed_hand(tiles, first_turn=..., original_hand=..., is_first_player=...)
    -> ClosedHand | None``; ``fit_closed_hand_type(tiles, number, ...) -> arrangement | None``;
    ``HAND_TYPES``; ``settle_session(scores, rate) -> dict[str, Decimal]``.
Batch contract
    ``rules.rummikub.evaluate.evaluate(obj)`` (used by ``rules.evaluate``)."""

from rules.rummikub.closed_hands import (
    DEFAULT_CLOSED_HAND_VALUES,
    HAND_TYPES,
    ClosedHand,
    HandType,
    classify_closed_hand,
    fit_closed_hand_type,
)
from rules.rummikub.international import (
    InternationalScores,
    Win,
    international_scores,
    melded_hand_value,
)
from rules.rummikub.melds import Meld, MeldsResult, validate_meld, validate_melds
from rules.rummikub.preset import (
    AMERICAN,
    AMERICAN_JOKER_25,
    INTERNATIONAL,
    INTERNATIONAL_TRUMP,
    PRESETS,
    SABRA,
    SABRA_50,
    SABRA_JOKER_25,
    RummikubPreset,
    Variant,
    preset_for,
)
from rules.rummikub.scoring import (
    game_scores,
    match_leaders,
    match_totals,
    pool_exhausted_scores,
    rack_total,
    winner_scores,
)
from rules.rummikub.settlement import settle_session
from rules.rummikub.tiles import Tile, check_copies, parse_tile, parse_tiles

__all__ = [
    "AMERICAN",
    "AMERICAN_JOKER_25",
    "DEFAULT_CLOSED_HAND_VALUES",
    "HAND_TYPES",
    "INTERNATIONAL",
    "INTERNATIONAL_TRUMP",
    "PRESETS",
    "SABRA",
    "SABRA_50",
    "SABRA_JOKER_25",
    "ClosedHand",
    "HandType",
    "InternationalScores",
    "Meld",
    "MeldsResult",
    "RummikubPreset",
    "Tile",
    "Variant",
    "Win",
    "check_copies",
    "classify_closed_hand",
    "fit_closed_hand_type",
    "game_scores",
    "international_scores",
    "match_leaders",
    "match_totals",
    "melded_hand_value",
    "parse_tile",
    "parse_tiles",
    "pool_exhausted_scores",
    "preset_for",
    "rack_total",
    "settle_session",
    "validate_meld",
    "validate_melds",
    "winner_scores",
]
