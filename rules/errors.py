"""The engine's errors: ``RuleViolation`` for what a user did wrong (with the offending token),
``InvariantError`` for a bug in the engine itself."""

from __future__ import annotations

from typing import Any


class RulesError(Exception):
    """Base of every error the engine raises on purpose."""


class RuleViolation(RulesError):
    """Input that breaks a rule or cannot be read.

    ``code`` is a stable machine-readable identifier (``bad_card``, ``too_many_copies``, ...),
    ``token`` the offending card, tile or field as the user wrote it (or ``None``), and ``details``
    optional structured context (e.g. ``{"group": 2}``)."""

    def __init__(
        self,
        code: str,
        message: str,
        token: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.token = token
        self.details = details or {}

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message, "token": self.token}
        if self.details:
            out["details"] = self.details
        return out

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r}, token={self.token!r})"


class InvariantError(RulesError):
    """Something the engine guarantees did not hold: a bug, never the user's fault."""


def shown(value: object, limit: int = 40) -> str:
    """A short, safe ``repr`` of a user value for an error message."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
