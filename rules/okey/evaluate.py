"""The batch line contract for ``"game": "okey"`` (the dispatcher adds the ``id``).

Every request names the ``"indicator"`` tile (the okey is the next number of its colour). The
request kind is chosen by its fields:

* ``melds`` -> each group judged: ``{"melds": [[tiles], ...]}`` answers ``valid`` and each
  group's ``kind`` (``run``, ``set``, ``pair`` or ``invalid``) and ``wilds`` (okeys used as wild);
* ``hand`` -> a finished hand: ``{"hand": [14 tiles]}`` answers whether it finishes and how
  (``melds`` or ``pairs``) with one arrangement; ``{"hand": [[group], ...]}`` judges the groups
  shown (each a meld, or seven pairs);
* ``players`` -> a deal's scores: ``{"players", "finisher", "finish", "okey_discard",
  "indicator_shown"}`` answers ``scores`` and the book's share ``book``.

Optional everywhere: ``"preset"`` (``okey`` or ``okey-countdown-20``) and every house option of
``rules.okey.preset.HOUSE_OPTIONS``. A field of another request kind is an error; fields no
request uses (``"expect"``, notes) are ignored."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import RuleViolation, shown
from rules.okey.hands import Finish, arrange, check_finish
from rules.okey.melds import is_pair, meld_kind, split_wilds
from rules.okey.preset import DEFAULT_PRESET, HOUSE_OPTIONS, PRESETS, OkeyPreset, house_option
from rules.okey.scoring import book_share, deal_scores
from rules.okey.tiles import Tile, check_copies, okey_of, parse_tile, parse_tiles

_COMMON = frozenset({"id", "game", "indicator", "preset", *HOUSE_OPTIONS})
_FIELDS: dict[str, frozenset[str]] = {
    "melds": frozenset({"melds"}),
    "hand": frozenset({"hand"}),
    "scores": frozenset({"players", "finisher", "finish", "okey_discard", "indicator_shown"}),
}
_KNOWN = frozenset().union(*_FIELDS.values(), _COMMON)
#: The field that picks each request kind.
_KEYS = {"melds": "melds", "hand": "hand", "scores": "players"}


def _preset(obj: Mapping[str, Any]) -> OkeyPreset:
    name = obj.get("preset")
    preset = (
        DEFAULT_PRESET if name is None else PRESETS.get(name) if isinstance(name, str) else None
    )
    if preset is None:
        raise RuleViolation(
            "bad_field",
            f"preset must be one of {', '.join(sorted(PRESETS))}, not {shown(name)}",
            "preset",
        )
    changes: dict[str, Any] = {}
    for option in HOUSE_OPTIONS:
        value = obj.get(option)
        if value is not None:
            try:
                changes[option] = house_option(option, value)
            except ValueError as exc:
                raise RuleViolation("bad_field", str(exc), option) from None
    return dataclasses.replace(preset, **changes) if changes else preset


def _kind(obj: Mapping[str, Any]) -> str:
    kinds = [kind for kind, key in _KEYS.items() if key in obj]
    if not kinds:
        raise RuleViolation(
            "missing_field", "say what to evaluate: melds, hand or players (a deal's scores)"
        )
    if len(kinds) > 1:
        raise RuleViolation(
            "ambiguous_request",
            f"one request is one kind: it has {' and '.join(_KEYS[k] for k in kinds)}",
        )
    kind = kinds[0]
    for field in obj:
        if field in _KNOWN and field not in _FIELDS[kind] and field not in _COMMON:
            raise RuleViolation("bad_field", f"{field} does not belong to a {kind} request", field)
    return kind


def _indicator(obj: Mapping[str, Any]) -> Tile:
    if "indicator" not in obj:
        raise RuleViolation(
            "missing_field", "indicator is missing: the tile turned face up (R7)", "indicator"
        )
    return parse_tile(obj["indicator"])


def _groups(value: Any, field: str) -> list[tuple[Tile, ...]]:
    if (
        isinstance(value, (str, bytes))
        or not isinstance(value, Sequence)
        or not value
        or any(isinstance(g, (str, bytes)) or not isinstance(g, Sequence) for g in value)
    ):
        raise RuleViolation(
            "bad_field", f"{field} must be a non-empty list of lists of tiles", field
        )
    return [parse_tiles(group, field=field) for group in value]


def _group_json(group: Sequence[Tile], okey: Tile, preset: OkeyPreset) -> dict[str, Any]:
    kind: str | None = meld_kind(group, okey, one_after_thirteen=preset.one_after_thirteen)
    if kind is None:
        kind = "pair" if is_pair(group, okey) else "invalid"
    return {
        "tiles": [str(tile) for tile in group],
        "kind": kind,
        "wilds": split_wilds(group, okey)[1],
    }


def _finish_json(finish: Finish | None) -> dict[str, Any]:
    if finish is None:
        return {"finishes": False, "finish": None, "groups": []}
    return {
        "finishes": True,
        "finish": finish.kind,
        "groups": [[str(tile) for tile in group] for group in finish.groups],
    }


def _melds(obj: Mapping[str, Any], preset: OkeyPreset, indicator: Tile) -> dict[str, Any]:
    groups = _groups(obj["melds"], "melds")
    check_copies([tile for group in groups for tile in group], indicator)
    okey = okey_of(indicator)
    out = [_group_json(group, okey, preset) for group in groups]
    return {"valid": all(g["kind"] in ("run", "set") for g in out), "melds": out}


def _hand(obj: Mapping[str, Any], preset: OkeyPreset, indicator: Tile) -> dict[str, Any]:
    hand = obj["hand"]
    okey = okey_of(indicator)
    grouped = isinstance(hand, Sequence) and any(
        isinstance(item, Sequence) and not isinstance(item, str) for item in hand
    )
    if grouped:
        groups = _groups(hand, "hand")
        check_copies([tile for group in groups for tile in group], indicator)
        try:
            finish: Finish | None = check_finish(
                groups, okey, one_after_thirteen=preset.one_after_thirteen
            )
        except RuleViolation as exc:
            if exc.code == "wrong_tile_count":
                raise
            return {**_finish_json(None), "reason": exc.as_dict()}
        return _finish_json(finish)
    tiles = parse_tiles(hand, field="hand")
    check_copies(tiles, indicator)
    return _finish_json(arrange(tiles, okey, one_after_thirteen=preset.one_after_thirteen))


def _bool(obj: Mapping[str, Any], field: str) -> bool:
    value = obj.get(field, False)
    if not isinstance(value, bool):
        raise RuleViolation(
            "bad_field", f"{field} must be true or false, not {shown(value)}", field
        )
    return value


def _names(value: Any, field: str) -> list[str]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise RuleViolation("bad_field", f"{field} must be a list of players' names", field)
    if not all(isinstance(name, str) for name in value):
        raise RuleViolation("bad_field", f"{field} must be a list of players' names", field)
    return list(value)


def _scores(obj: Mapping[str, Any], preset: OkeyPreset) -> dict[str, Any]:
    players = _names(obj["players"], "players")
    if "finisher" not in obj:
        raise RuleViolation(
            "missing_field", "finisher is missing: a player's name, or null", "finisher"
        )
    finisher = obj["finisher"]
    if finisher is not None and not isinstance(finisher, str):
        raise RuleViolation("bad_field", "finisher must be a player's name or null", "finisher")
    finish = obj.get("finish", "melds")
    if finish not in ("melds", "pairs"):
        raise RuleViolation(
            "bad_field", f"finish must be melds or pairs, not {shown(finish)}", "finish"
        )
    scores = deal_scores(
        players,
        finisher,
        preset,
        finish=finish,
        okey_discard=_bool(obj, "okey_discard"),
        indicator_shown=_names(obj.get("indicator_shown", []), "indicator_shown"),
    )
    return {"scores": scores, "book": book_share(scores)}


def evaluate(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Answer one ``"game": "okey"`` request; ``RuleViolation`` for input it cannot evaluate."""
    kind = _kind(obj)
    preset = _preset(obj)
    if kind == "scores":
        return _scores(obj, preset)
    indicator = _indicator(obj)
    if kind == "melds":
        return _melds(obj, preset, indicator)
    return _hand(obj, preset, indicator)
