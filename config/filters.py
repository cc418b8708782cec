"""Filters of the API's lists (django-filter), each list's FilterSet declared once: the view
filters with it (``filtered``) and its operation's schema declares its query parameters from it
(``config.openapi.api_operation(filterset=...)``), so what is declared is what is taken.

Every filter here is strict: a value it cannot read is a 400 naming the parameter (django-filter's
own boolean reads ``yes`` as "no filter", its number filter takes decimals), and an empty value
is as if left out, as for every query parameter. ``updated_since`` is on each of them: the rows
changed at or after a time, oldest change first (``updated_at``, then id), so an app can sync
(docs/api.md)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.errors import InvalidInput
from config.fields import ID_MAX, query_bool

# RFC 3339 (what the schema's ``date-time`` format is): a date, "T", a time, and its offset.
_RFC3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([Zz]|[+-]\d{2}:\d{2})", re.ASCII
)


class _TimeField(forms.Field):
    default_error_messages = {
        "invalid": gettext_lazy(
            "give a time with its offset, e.g. 2026-11-26T19:30:00Z (a '+' in a URL is written %2B)"
        ),
    }

    def to_python(self, value: Any) -> datetime | None:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not _RFC3339.fullmatch(text):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        try:
            moment = datetime.fromisoformat(text.upper().replace("Z", "+00:00"))
            return moment.astimezone(UTC)
        except ValueError:  # a day or an hour that is not one (2026-02-30, 25:00)
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        except OverflowError:  # year 1 or 9999 moved past the calendar's edge by its offset:
            # before every row (or after every one) all the same
            edge = datetime.min if moment.year == 1 else datetime.max
            return edge.replace(tzinfo=UTC)


class _BoolField(forms.Field):
    def to_python(self, value: Any) -> bool | None:
        if value in self.empty_values:
            return None
        try:
            return query_bool(str(value), name="", default=False)
        except ValueError:
            raise forms.ValidationError(
                _("use true or false, not %(value)s") % {"value": repr(value)}
            ) from None


class _IdField(forms.Field):
    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 19 and 1 <= int(text) <= ID_MAX):
            raise forms.ValidationError(
                _("must be a whole number from 1 to %(most)s, not %(value)s")
                % {"most": ID_MAX, "value": repr(value)}
            )
        return int(text)


class _ChoiceField(forms.Field):
    def __init__(self, *, choices: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.choices = choices

    def to_python(self, value: Any) -> str | None:
        if value in self.empty_values:
            return None
        if value not in self.choices:
            raise forms.ValidationError(
                _("use %(choices)s, not %(value)s")
                % {"choices": ", ".join(self.choices), "value": repr(value)}
            )
        return str(value)


class ApiFilter(django_filters.Filter):
    """A filter with the JSON schema of the value it takes (what the API schema declares)."""

    value_schema: dict[str, Any] = {"type": "string"}

    def __init__(self, field_name: str | None = None, *, description: str, **kwargs: Any):
        super().__init__(field_name=field_name, **kwargs)
        self.description = description


class IdFilter(ApiFilter):
    """A row id (1 to 2^63-1): the rows that name it."""

    field_class = _IdField
    value_schema = {"type": "integer", "minimum": 1, "maximum": ID_MAX}


class BoolFilter(ApiFilter):
    field_class = _BoolField
    value_schema = {"type": "boolean"}


class ChoiceFilter(ApiFilter):
    field_class = _ChoiceField

    def __init__(self, field_name: str | None = None, *, choices: list[str], **kwargs: Any):
        super().__init__(field_name, **kwargs)
        self.extra["choices"] = list(choices)
        self.value_schema = {"type": "string", "enum": list(choices)}


class _TextField(forms.Field):
    # Any text, as given: what it may hold (a NUL, which no name holds) is the filter's to say.
    def to_python(self, value: Any) -> str | None:
        return None if value in self.empty_values else str(value)


class TextFilter(ApiFilter):
    field_class = _TextField


class UpdatedSinceFilter(ApiFilter):
    """The rows changed at or after the time given (at: a row changed at that very time, a
    page's last, is answered again rather than missed)."""

    field_class = _TimeField
    value_schema = {"type": "string", "format": "date-time"}

    def __init__(self, field_name: str = "updated_at", **kwargs: Any):
        kwargs.setdefault(
            "description",
            "Only what changed at or after this time (RFC 3339, e.g. 2026-11-26T19:30:00Z), "
            "oldest change first: see docs/api.md for syncing.",
        )
        super().__init__(field_name, lookup_expr="gte", **kwargs)


class ListFilterSet(django_filters.FilterSet):
    """A list's filters: ``updated_since`` and the list's own. Given ``updated_since``, the list
    is in the order of change (``updated_at``, then id) instead of its own."""

    updated_since = UpdatedSinceFilter()
    change_order = True

    def filter_queryset(self, queryset: QuerySet[Any]) -> QuerySet[Any]:
        queryset = super().filter_queryset(queryset)
        if self.change_order and self.form.cleaned_data.get("updated_since") is not None:
            queryset = queryset.order_by(self.filters["updated_since"].field_name, "pk")
        return queryset


def filtered(
    filterset: type[ListFilterSet], query: Any, queryset: QuerySet[Any], **context: Any
) -> QuerySet[Any]:
    """``queryset`` narrowed by the query parameters of ``filterset``; a value it cannot read is
    a 400 naming the parameter (in the one error shape). ``context`` is set on the filterset
    (e.g. the club, for filters that look something up in it)."""
    found = filterset(data=query, queryset=queryset)
    for name, value in context.items():
        setattr(found, name, value)
    if not found.is_valid():
        errors = {name: [str(m) for m in messages] for name, messages in found.errors.items()}
        message = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in errors.items())
        raise InvalidInput(message, details=errors)
    return found.qs
