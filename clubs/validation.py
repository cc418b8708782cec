"""Model validation as the services report it: ``InvalidInput`` naming the first failing field."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from config.errors import InvalidInput


def require_no_money(*, club: Any, field: str, amount: int | None) -> None:
    """A club that plays for points only takes no money in: a point value, fee, prize or price
    of more than nothing is refused, naming the field."""
    if club.points_only and amount:
        raise InvalidInput(
            f"{field}: "
            + _(
                "%(club)s plays for points only: no money (a stake, fee or prize) is taken "
                "in; leave it at 0, or let the club play for money in its settings"
            )
            % {"club": club.name},
            code="points_only",
            details={field: amount},
        )


def model_valid(obj: Any, exclude: list[str] | None = None) -> None:
    """Model validation, reported as ``InvalidInput`` with the failing fields as details."""
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        details = exc.message_dict
        field, messages = next(iter(details.items()))
        raise InvalidInput(f"{field}: {messages[0]}", details=details) from None
