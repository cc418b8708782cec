"""Okey, the Turkish tile rummy (``docs/rules.md``, "Okey").

Pure Python; every function raises ``rules.errors.RuleViolation`` (with the offending tile or
field as ``token``) for input that breaks a rule. The public API:

Tiles
    ``Tile``, ``parse_tile``, ``parse_tiles``, ``okey_of(indicator)``, ``check_copies(tiles,
    indicator)`` (106 tiles: two of each, two false jokers, one indicator face up).
Melds and hands
    ``meld_kind(tiles, okey)``, ``validate_meld``, ``is_pair``; ``check_finish(groups, okey)``,
    ``arrange(tiles, okey) -> Finish | None`` (14 tiles as melds, or seven pairs).
Presets
    ``OkeyPreset``; ``OKEY`` (loss), ``OKEY_COUNTDOWN_20``; ``PRESETS``; ``HOUSE_OPTIONS``.
Scores
    ``deal_scores(players, finisher, preset, finish=..., okey_discard=..., indicator_shown=...)``,
    ``book_share(scores)``, ``counts_left(totals, preset)``, ``game_winners(totals, preset)``.
Batch contract
    ``rules.okey.evaluate.evaluate(obj)`` (used by ``rules.evaluate``)."""

from rules.okey.hands import Finish, arrange, check_finish
from rules.okey.melds import Meld, is_pair, meld_kind, validate_meld
from rules.okey.preset import HOUSE_OPTIONS, OKEY, OKEY_COUNTDOWN_20, PRESETS, OkeyPreset
from rules.okey.scoring import book_share, counts_left, deal_scores, game_winners
from rules.okey.tiles import Tile, check_copies, okey_of, parse_tile, parse_tiles

__all__ = [
    "HOUSE_OPTIONS",
    "OKEY",
    "OKEY_COUNTDOWN_20",
    "PRESETS",
    "Finish",
    "Meld",
    "OkeyPreset",
    "Tile",
    "arrange",
    "book_share",
    "check_copies",
    "check_finish",
    "counts_left",
    "deal_scores",
    "game_winners",
    "is_pair",
    "meld_kind",
    "okey_of",
    "parse_tile",
    "parse_tiles",
    "validate_meld",
]
