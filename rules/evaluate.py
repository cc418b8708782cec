"""One request object in, one answer object out: the contract shared by the batch command
(``manage.py evaluate_hands``) and ``POST /api/v1/rules/evaluate/``.

Each game's module exposes ``evaluate(obj) -> dict`` that raises ``RuleViolation`` for input it
cannot evaluate; this dispatcher echoes the ``id`` and turns violations into error answers so a
batch goes on past a bad line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.errors import RuleViolation

Evaluator = Callable[[Mapping[str, Any]], dict[str, Any]]


def _indian(obj: Mapping[str, Any]) -> dict[str, Any]:
    from rules.indian.evaluate import evaluate

    return evaluate(obj)


def _rummikub(obj: Mapping[str, Any]) -> dict[str, Any]:
    from rules.rummikub.evaluate import evaluate

    return evaluate(obj)


GAMES: dict[str, Evaluator] = {"indian": _indian, "rummikub": _rummikub}


def evaluate_request(obj: Any) -> dict[str, Any]:
    """Evaluate one request object; never raises for bad input."""
    if not isinstance(obj, Mapping):
        return {
            "id": None,
            "error": {
                "code": "bad_request",
                "message": "each request must be a JSON object",
                "token": None,
            },
        }
    ident = obj.get("id")
    try:
        game = obj.get("game")
        evaluator = GAMES.get(game) if isinstance(game, str) else None
        if evaluator is None:
            raise RuleViolation(
                "bad_game",
                f"unknown game {game!r}: use one of {', '.join(sorted(GAMES))}",
                token=None if game is None else str(game),
            )
        answer = evaluator(obj)
    except RuleViolation as exc:
        return {"id": ident, "error": exc.as_dict()}
    return {"id": ident, **answer}
