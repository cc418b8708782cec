"""The batch line contract for ``"game": "rummikub"`` (the dispatcher adds the ``id``).

The request kind is chosen by its fields:

* ``melds`` -> meld validation: ``{"variant", "melds": [[tiles], ...], "initial_meld": bool}``;
* ``racks`` -> game scores: Sabra/American ``{"variant", "racks", "winner", "joker_value",
  "last_mover"}``; International adds ``"win"``, ``"melded"``, ``"closed_hand"`` (Closed win),
  ``"first_turn"``/``"original_hand"``/``"is_first_player"``, ``"final_discard_joker"``,
  ``"trump_holders"`` and ``"trump_bonus"``;
* ``closed_hand`` (without ``racks``) -> closed hand classification (International), or with
  ``"hand_type": N`` whether the hand fits that one type;
* ``session_scores`` -> session settlement (International) at ``"rate"`` (a string or integer).

Optional everywhere: ``"preset"`` (a preset name of the variant) and every house option of
``rules.rummikub.preset.HOUSE_OPTIONS`` (``"initial_meld_threshold"``, ``"joker_value"``,
``"trump_bonus"``, ``"never_opened_penalty"``, ``"one_high"``, ``"opening_high_as_10"``,
``"winner_scores_zero"``, ``"closed_one_high"``), the
names, checks and messages of a preset's ``rummikub`` section. Sabra and American racks take
``"melded"`` under a ``never_opened_penalty``, as the deal entry does. A field of another request
kind is an error; fields no request uses (``"expect"``, notes) are ignored."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from rules.errors import RuleViolation, shown
from rules.rummikub.closed_hands import (
    HAND_TYPES,
    ClosedHand,
    classify_closed_hand,
    fit_closed_hand_type,
)
from rules.rummikub.international import WINS, international_scores
from rules.rummikub.melds import validate_melds
from rules.rummikub.preset import (
    DEFAULT_PRESETS,
    HOUSE_OPTIONS,
    PRESETS,
    VARIANTS,
    RummikubPreset,
    house_option,
)
from rules.rummikub.scoring import book_share, game_scores
from rules.rummikub.settlement import settle_session
from rules.rummikub.tiles import Tile, parse_tile

_COMMON = frozenset({"id", "game", "variant", "preset", *HOUSE_OPTIONS})
_FIELDS: dict[str, frozenset[str]] = {
    "melds": frozenset({"melds", "initial_meld"}),
    "scores": frozenset({"racks", "winner", "last_mover", "melded"}),
    "international_scores": frozenset(
        {
            "racks",
            "winner",
            "win",
            "melded",
            "closed_hand",
            "first_turn",
            "original_hand",
            "is_first_player",
            "final_discard_joker",
            "trump_holders",
        }
    ),
    "closed_hand": frozenset(
        {"closed_hand", "first_turn", "original_hand", "is_first_player", "hand_type"}
    ),
    "settlement": frozenset({"session_scores", "rate"}),
}
_KNOWN = frozenset().union(*_FIELDS.values(), _COMMON)
_NAMES = {
    "melds": "melds",
    "scores": "game scores",
    "international_scores": "International game scores",
    "closed_hand": "closed hand",
    "settlement": "settlement",
}


def _bool(obj: Mapping[str, Any], field: str, default: bool = False) -> bool:
    value = obj.get(field, default)
    if not isinstance(value, bool):
        raise RuleViolation(
            "bad_field", f"{field} must be true or false, not {shown(value)}", field
        )
    return value


def _name(value: Any, field: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise RuleViolation("bad_field", f"{field} must be a player's name or null", field)


def _tiles(value: Any, field: str) -> list[Tile]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise RuleViolation("bad_field", f"{field} must be a list of tiles", field)
    return [parse_tile(token) for token in value]


def _racks(obj: Mapping[str, Any]) -> dict[str, list[Tile]]:
    racks = obj["racks"]
    if not isinstance(racks, Mapping):
        raise RuleViolation(
            "bad_field", "racks must be an object: player name -> tiles left on the rack", "racks"
        )
    return {str(name): _tiles(tiles, f"racks.{name}") for name, tiles in racks.items()}


def _preset(obj: Mapping[str, Any]) -> RummikubPreset:
    variant = obj.get("variant")
    if variant not in VARIANTS:
        raise RuleViolation(
            "bad_variant",
            f"variant must be one of {', '.join(VARIANTS)}, not {shown(variant)}",
            variant if variant is None or isinstance(variant, str) else shown(variant),
        )
    name = obj.get("preset")
    if name is None:
        preset: RummikubPreset | None = DEFAULT_PRESETS[variant]
    else:
        preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is None or preset.variant != variant:
        choices = sorted(key for key, value in PRESETS.items() if value.variant == variant)
        raise RuleViolation(
            "bad_field",
            f"preset must be one of {', '.join(choices)} for {variant}, not {shown(name)}",
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


def _melded(obj: Mapping[str, Any]) -> dict[str, bool]:
    melded = obj.get("melded")
    if not isinstance(melded, Mapping) or not all(isinstance(v, bool) for v in melded.values()):
        raise RuleViolation(
            "bad_field", "melded must be an object: player name -> true/false", "melded"
        )
    return {str(name): value for name, value in melded.items()}


def _kind(obj: Mapping[str, Any]) -> str:
    kinds = []
    if "melds" in obj:
        kinds.append("melds")
    if "racks" in obj:
        kinds.append("international_scores" if obj.get("variant") == "international" else "scores")
    if "closed_hand" in obj and "racks" not in obj:
        kinds.append("closed_hand")
    if "session_scores" in obj:
        kinds.append("settlement")
    if not kinds:
        raise RuleViolation(
            "missing_field",
            "say what to evaluate: melds, racks (game scores), closed_hand or session_scores",
        )
    if len(kinds) > 1:
        raise RuleViolation(
            "ambiguous_request",
            f"one request is one kind: it has fields of {' and '.join(_NAMES[k] for k in kinds)}",
        )
    kind = kinds[0]
    for field in obj:
        if field in _KNOWN and field not in _FIELDS[kind] and field not in _COMMON:
            raise RuleViolation(
                "bad_field", f"{field} does not belong to a {_NAMES[kind]} request", field
            )
    return kind


def _require(obj: Mapping[str, Any], field: str, hint: str) -> Any:
    if field not in obj:
        raise RuleViolation("missing_field", f"{field} is missing: {hint}", field)
    return obj[field]


def _closed_hand_json(hand: ClosedHand) -> dict[str, Any]:
    return {
        "type": hand.type,
        "name": hand.name,
        "value": hand.value,
        "jokers": hand.jokers,
        "arrangement": [[str(tile) for tile in meld] for meld in hand.arrangement],
    }


def _melds(obj: Mapping[str, Any]) -> dict[str, Any]:
    preset = _preset(obj)
    melds = obj["melds"]
    if (
        isinstance(melds, (str, bytes))
        or not isinstance(melds, Sequence)
        or not melds
        or any(isinstance(m, (str, bytes)) or not isinstance(m, Sequence) for m in melds)
    ):
        raise RuleViolation(
            "bad_field", "melds must be a non-empty list of lists of tiles", "melds"
        )
    parsed = [_tiles(meld, "melds") for meld in melds]
    result = validate_melds(parsed, preset, initial_meld=_bool(obj, "initial_meld"))
    out_melds = []
    for meld in result.melds:
        item: dict[str, Any] = {
            "tiles": [str(tile) for tile in meld.tiles],
            "kind": meld.kind,
            "value": meld.value,
            "jokers": [str(tile) for tile in meld.jokers],
        }
        if meld.reason is not None:
            item["reason"] = meld.reason
        out_melds.append(item)
    return {
        "valid": result.valid,
        "value": result.value,
        "meets_initial_meld": result.meets_initial_meld,
        "melds": out_melds,
    }


def _scores(obj: Mapping[str, Any]) -> dict[str, Any]:
    preset = _preset(obj)
    racks = _racks(obj)
    winner = _name(
        _require(obj, "winner", "the winner's name, or null when the pool ran out"), "winner"
    )
    last_mover = _name(obj.get("last_mover"), "last_mover")
    melded = None
    if obj.get("melded") is not None:
        if not preset.never_opened_penalty:  # as the deal entry: only the penalty asks for it
            raise RuleViolation(
                "bad_field",
                "melded is for International Rummikub, or Sabra and American under a "
                "never_opened_penalty",
                "melded",
            )
        melded = _melded(obj)
    scores = game_scores(racks, winner, preset, last_mover=last_mover, melded=melded)
    if preset.winner_scores_zero:  # the book's share, so that the answer sums to zero
        return {"scores": scores, "book": book_share(scores)}
    return {"scores": scores}


def _international_scores(obj: Mapping[str, Any]) -> dict[str, Any]:
    preset = _preset(obj)
    racks = _racks(obj)
    winner = _name(_require(obj, "winner", "the winner's name, or null for no winner"), "winner")
    win = _require(obj, "win", f"one of {', '.join(WINS)}, or null for no winner")
    if win is not None and win not in WINS:
        raise RuleViolation("bad_field", f"win must be one of {', '.join(WINS)} or null", "win")
    _require(obj, "melded", "an object: player name -> whether they have melded")
    melded = _melded(obj)
    closed = obj.get("closed_hand")
    holders = obj.get("trump_holders", [])
    if isinstance(holders, (str, bytes)) or not isinstance(holders, Sequence):
        raise RuleViolation(
            "bad_field", "trump_holders must be a list of player names", "trump_holders"
        )
    result = international_scores(
        racks,
        melded,
        winner,
        win,
        closed_hand=None if closed is None else _tiles(closed, "closed_hand"),
        first_turn=_bool(obj, "first_turn"),
        original_hand=_bool(obj, "original_hand"),
        is_first_player=_bool(obj, "is_first_player"),
        final_discard_joker=_bool(obj, "final_discard_joker"),
        trump_holders=[_name(name, "trump_holders") or "" for name in holders],
        rules=preset,
    )
    answer: dict[str, Any] = {"scores": result.scores}
    if result.closed_hand is not None:
        answer["closed_hand"] = _closed_hand_json(result.closed_hand)
    return answer


def _closed_hand(obj: Mapping[str, Any]) -> dict[str, Any]:
    preset = _preset(obj)
    if preset.variant != "international":
        raise RuleViolation(
            "bad_variant", "closed hands are an International Rummikub win", str(obj["variant"])
        )
    tiles = _tiles(obj["closed_hand"], "closed_hand")
    facts = {
        "first_turn": _bool(obj, "first_turn"),
        "original_hand": _bool(obj, "original_hand"),
        "is_first_player": _bool(obj, "is_first_player"),
    }
    if "hand_type" in obj:
        number = obj["hand_type"]
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 40:
            raise RuleViolation(
                "bad_field", "hand_type must be a closed hand type, 1 to 40", "hand_type"
            )
        arrangement = fit_closed_hand_type(tiles, number, **facts, one_high=preset.closed_one_high)
        jokers = sum(1 for tile in tiles if tile.is_joker)
        return {
            "hand_type": number,
            "name": HAND_TYPES[number - 1].name,
            "fits": arrangement is not None,
            "value": preset.closed_hand_values[number - 1][jokers],
            "jokers": jokers,
            "arrangement": None
            if arrangement is None
            else [[str(tile) for tile in meld] for meld in arrangement],
        }
    hand = classify_closed_hand(
        tiles, **facts, values=preset.closed_hand_values, one_high=preset.closed_one_high
    )
    return {"type": None} if hand is None else _closed_hand_json(hand)


def _rate(value: Any) -> Decimal | int:
    if isinstance(value, (bool, float)):
        raise RuleViolation(
            "bad_rate",
            'give the rate as a string such as "0.10" or a whole number: floats are not exact',
            shown(value),
        )
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return Decimal(value.strip())
        except InvalidOperation:
            pass
    raise RuleViolation(
        "bad_rate",
        f'the rate {shown(value)} is not an amount such as "0.10"',
        value if isinstance(value, str) else shown(value),
    )


def _settlement(obj: Mapping[str, Any]) -> dict[str, Any]:
    preset = _preset(obj)
    if preset.variant != "international":
        raise RuleViolation(
            "bad_variant",
            "sessions settle by score difference in International Rummikub; Sabra and American "
            "games are already zero-sum",
            str(obj["variant"]),
        )
    scores = obj["session_scores"]
    if not isinstance(scores, Mapping):
        raise RuleViolation(
            "bad_field", "session_scores must be an object: player name -> score", "session_scores"
        )
    raw_rate = _require(obj, "rate", 'the amount per point of difference, e.g. "0.10"')
    try:
        nets = settle_session({str(name): score for name, score in scores.items()}, _rate(raw_rate))
    except RuleViolation as exc:
        if exc.code == "bad_rate" and isinstance(raw_rate, str):
            exc.token = raw_rate
        raise
    return {"net": {name: format(net, "f") for name, net in nets.items()}}


_HANDLERS = {
    "melds": _melds,
    "scores": _scores,
    "international_scores": _international_scores,
    "closed_hand": _closed_hand,
    "settlement": _settlement,
}


def evaluate(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Answer one Rummikub request (without its ``id``); raise ``RuleViolation`` for bad input."""
    return _HANDLERS[_kind(obj)](obj)
