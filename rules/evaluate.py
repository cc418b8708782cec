"""One request object in, one answer object out: the contract shared by the batch command
(``manage.py evaluate_hands``) and ``POST /api/v1/rules/evaluate/``.

Each game's module exposes ``evaluate(obj) -> dict`` that raises ``RuleViolation`` for input it
cannot evaluate; this dispatcher echoes the ``id`` and turns violations into error answers so a
batch goes on past a bad line."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from rules.errors import RuleViolation

Evaluator = Callable[[Mapping[str, Any]], dict[str, Any]]


# Each game's evaluator, imported on first use so that one game's import cost is not paid by
# callers of the other.
GAME_MODULES: dict[str, str] = {
    "indian": "rules.indian.evaluate",
    "rummikub": "rules.rummikub.evaluate",
    "okey": "rules.okey.evaluate",
}
_loaded: dict[str, Evaluator] = {}


def _evaluator(game: str) -> Evaluator:
    if game not in _loaded:
        module = importlib.import_module(GAME_MODULES[game])
        _loaded[game] = module.evaluate
    return _loaded[game]


def reason(exc: RuleViolation) -> dict[str, Any]:
    """A violation in the shape of every reason the service gives (the API's ``ReasonOutput``):
    a hand evaluated on its own blames no player or seat."""
    return {"player": None, "player_name": None, "seat": None, "details": {}, **exc.as_dict()}


def evaluate_request(obj: Any) -> dict[str, Any]:
    """Evaluate one request object; never raises for bad input. An answer that could not be
    evaluated is ``{"id", "error": <reason>}``."""
    if not isinstance(obj, Mapping):
        return {
            "id": None,
            "error": reason(RuleViolation("bad_request", "each request must be a JSON object")),
        }
    ident = obj.get("id")
    try:
        game = obj.get("game")
        if not isinstance(game, str) or game not in GAME_MODULES:
            raise RuleViolation(
                "bad_game",
                f"unknown game {game!r}: use one of {', '.join(sorted(GAME_MODULES))}",
                token=None if game is None else str(game),
            )
        answer = _evaluator(game)(obj)
    except RuleViolation as exc:
        return {"id": ident, "error": reason(exc)}
    return {"id": ident, **answer}
