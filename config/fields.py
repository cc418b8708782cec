"""Integer inputs bounded to the columns they end up in. PostgreSQL with server-side binding
sends a Python int as the smallest type that holds it and lets the server coerce it, so a value
past a column's range is refused (or, for some statements, wrapped) by the database instead of
being answered 400 here: every integer the API or a form reads goes through one of these."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from rest_framework import serializers

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MAX = 2**63 - 1
# A row id (bigint identity): positive and 64-bit.
ID_MAX = INT64_MAX


def id_field(**kwargs: Any) -> serializers.IntegerField:
    """A row id: 1 to 2^63-1."""
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, **kwargs)


def int32_field(*, min_value: int = INT32_MIN, **kwargs: Any) -> serializers.IntegerField:
    """A value kept in an ``integer`` column (or PositiveIntegerField: ``min_value=0``)."""
    return serializers.IntegerField(min_value=min_value, max_value=INT32_MAX, **kwargs)


def id_form_field(**kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(min_value=1, max_value=ID_MAX, **kwargs)


def query_bool(raw: str | None, *, name: str, default: bool) -> bool:
    """A yes/no query parameter, ``true`` or ``false`` as the schema says (``default`` when
    absent); ``ValueError`` naming the parameter otherwise."""
    if raw is None or raw == "":
        return default
    text = raw.strip().lower()
    if text not in ("true", "false"):
        raise ValueError(f"{name}: " + _("use true or false, not %(value)s") % {"value": repr(raw)})
    return text == "true"


def query_int(raw: str | None, *, name: str, low: int, high: int, default: int) -> int:
    """A whole-number query parameter within ``low``..``high`` (``default`` when absent);
    ``ValueError`` naming the parameter otherwise."""
    if raw is None or raw == "":
        return default
    text = raw.strip()
    if not text.lstrip("-").isdigit() or len(text) > 20:
        raise ValueError(f"{name}: " + _("%(value)s is not a whole number") % {"value": repr(raw)})
    value = int(text)
    if not low <= value <= high:
        raise ValueError(
            f"{name}: "
            + _("must be from %(low)s to %(high)s, not %(value)s")
            % {"low": low, "high": high, "value": value}
        )
    return value
