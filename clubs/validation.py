"""Model validation as the services report it: ``InvalidInput`` naming the first failing field."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from config.errors import InvalidInput


def model_valid(obj: Any, exclude: list[str] | None = None) -> None:
    """Model validation, reported as ``InvalidInput`` with the failing fields as details."""
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        details = exc.message_dict
        field, messages = next(iter(details.items()))
        raise InvalidInput(f"{field}: {messages[0]}", details=details) from None
