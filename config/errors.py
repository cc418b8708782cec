"""Errors a service raises for a request it refuses. The API turns each into the one error shape
``{"error": {"code", "message", "details"}}`` with the status given here; pages show the message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class ServiceError(Exception):
    status = 400
    default_code = "invalid"

    def __init__(
        self, message: str, *, code: str | None = None, details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.details = details or {}


class InvalidInput(ServiceError):
    """The request names something wrong (a field, a card, a player)."""


class NotAllowed(ServiceError):
    status = 403
    default_code = "permission_denied"


class NotFoundError(ServiceError):
    status = 404
    default_code = "not_found"


class Gone(ServiceError):
    """It existed but is no longer usable (a table link whose table has finished)."""

    status = 410
    default_code = "gone"


class Conflict(ServiceError):
    """The request is fine on its own but clashes with the current state."""

    status = 409
    default_code = "conflict"


class TooManyRequests(ServiceError):
    """Asked for more often than allowed; ``retry_after`` seconds until it may be again."""

    status = 429
    default_code = "throttled"

    def __init__(self, message: str, *, retry_after: int, code: str | None = None) -> None:
        super().__init__(message, code=code, details={"retry_after_seconds": retry_after})
        self.retry_after = retry_after


#: What puts a rules engine refusal (its ``code``, ``token``, ``details`` and English ``message``,
#: as ``RuleViolation.as_dict`` gives them, or a stored reason of a deal with its ``player_name``)
#: into the request's language. config knows no app: the
#: app that knows the engine's codes registers its words when it starts (scoring's ``ready``).
_rule_words: list[Callable[[dict[str, Any]], str]] = []


def rule_words_register(words: Callable[[dict[str, Any]], str]) -> None:
    _rule_words[:] = [words]


def rule_words(violation: dict[str, Any]) -> str:
    """The refusal's sentence in the active language; the engine's English until words are
    registered."""
    return _rule_words[0](violation) if _rule_words else str(violation.get("message", ""))
