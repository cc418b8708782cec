"""Reading a JSON body through an input serializer, with JSON's own types held to: DRF's fields
turn ``0`` into ``"0"``, ``"yes"`` into ``True`` and ``"5"`` into 5, so a client's mistake was
stored as a guess. Here a text field takes only a string, a yes/no field only ``true`` or
``false`` and a whole-number field only a JSON number with no fraction (``12`` or ``12.0``), and
the error names the field.

A field the serializer does not have is refused too (``unknown_field``, naming it, nested objects
included): a misspelt or unsupported field would otherwise be dropped and the rest stored, as if
the client had not asked for it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop
from rest_framework import serializers

from config.errors import InvalidInput

UNKNOWN_FIELD = "unknown field"

_JSON_TYPE_NAMES = {
    bool: "true or false",
    int: "a number",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "an object",
}


# What a field wants and the JSON type it got, one whole sentence each (put into words where
# the refusal is made: the request's language is active there).
_MUST_BE = {
    ("true or false", "a number"): gettext_noop("must be true or false, not a number"),
    ("true or false", "a string"): gettext_noop("must be true or false, not a string"),
    ("true or false", "a list"): gettext_noop("must be true or false, not a list"),
    ("true or false", "an object"): gettext_noop("must be true or false, not an object"),
    ("a whole number", "true or false"): gettext_noop("must be a whole number, not true or false"),
    ("a whole number", "a string"): gettext_noop("must be a whole number, not a string"),
    ("a whole number", "a list"): gettext_noop("must be a whole number, not a list"),
    ("a whole number", "an object"): gettext_noop("must be a whole number, not an object"),
    ("a string", "true or false"): gettext_noop("must be a string, not true or false"),
    ("a string", "a number"): gettext_noop("must be a string, not a number"),
    ("a string", "a list"): gettext_noop("must be a string, not a list"),
    ("a string", "an object"): gettext_noop("must be a string, not an object"),
}


def _json_type(value: Any) -> str:
    return _JSON_TYPE_NAMES.get(type(value), type(value).__name__)


def _must_be(wanted: str, value: Any) -> str:
    got = _json_type(value)
    sentence = _MUST_BE.get((wanted, got))
    return gettext(sentence) if sentence else f"must be {wanted}, not {got}"


def _type_error(field: serializers.Field, value: Any) -> str | list | dict | None:  # type: ignore[type-arg]
    """What is wrong with the JSON type of ``value`` for ``field`` (nested: per key or index)."""
    if value is None:
        return None  # allow_null is the field's own check
    if isinstance(field, serializers.ListSerializer):
        if not isinstance(value, list):
            return None  # the field's own "expected a list" error
        return _items_errors(field.child, value)
    if isinstance(field, serializers.Serializer):
        return _fields_errors(field, value) if isinstance(value, dict) else None
    if isinstance(field, serializers.ListField):
        return _items_errors(field.child, value) if isinstance(value, list) else None
    if isinstance(field, serializers.BooleanField):
        wanted, ok = "true or false", isinstance(value, bool)
    elif isinstance(field, serializers.IntegerField):
        # A number with no fraction is a whole number, in JSON Schema as in arithmetic (a
        # client's 12.0 is 12); 12.5 and true are not.
        integral = isinstance(value, float) and value.is_integer()
        exact = isinstance(value, int) and not isinstance(value, bool)
        if isinstance(value, float) and not integral:
            return gettext("must be a whole number, not %(value)s") % {"value": repr(value)}
        wanted, ok = "a whole number", integral or exact
    elif isinstance(field, serializers.ChoiceField):
        if not all(isinstance(choice, str) for choice in field.choices):
            return None
        wanted, ok = "a string", isinstance(value, str)
    elif isinstance(field, serializers.CharField):
        wanted, ok = "a string", isinstance(value, str)
    else:
        return None
    return None if ok else _must_be(wanted, value)


def _items_errors(child: Any, items: list[Any]) -> dict[int, Any] | None:
    if isinstance(child, serializers.CharField):
        # The common case (a list of card or tile tokens) in one pass: what ``_type_error``
        # says of each item, without a call per item.
        wrong = {
            index: [_must_be("a string", item)]
            for index, item in enumerate(items)
            if item is not None and not isinstance(item, str)
        }
        return wrong or None
    errors = {}
    for index, item in enumerate(items):
        error = _type_error(child, item) if child is not None else None
        if error:
            errors[index] = [error] if isinstance(error, str) else error
    return errors or None


def _fields_errors(serializer: serializers.Serializer, data: dict[str, Any]) -> dict | None:  # type: ignore[type-arg]
    errors = {}
    for name, field in serializer.fields.items():
        if field.read_only or name not in data:
            continue
        error = _type_error(field, data[name])
        if error:
            errors[name] = [error] if isinstance(error, str) else error
    return errors or None


def _unknown_in(field: Any, value: Any) -> dict | None:  # type: ignore[type-arg]
    """The unknown fields of ``value`` for ``field``, per key or index; None when there are none.
    Only a serializer has a fixed set of fields: a dictionary field takes any key."""
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        if not isinstance(value, list) or field.child is None:
            return None
        found = {}
        for index, item in enumerate(value):
            inner = _unknown_in(field.child, item)
            if inner:
                found[index] = inner
        return found or None
    if not isinstance(field, serializers.Serializer) or not isinstance(value, dict):
        return None
    fields = field.fields
    errors: dict[Any, Any] = {
        name: [UNKNOWN_FIELD] for name in value if name not in fields or fields[name].read_only
    }
    for name, child in fields.items():
        if name in value and not child.read_only:
            inner = _unknown_in(child, value[name])
            if inner:
                errors[name] = inner
    return errors or None


def _paths(errors: dict[Any, Any], prefix: str = "") -> list[str]:
    """``results.0.colour`` for each unknown field in ``errors``."""
    found = []
    for key, value in errors.items():
        path = f"{prefix}{key}"
        found += _paths(value, f"{path}.") if isinstance(value, dict) else [path]
    return found


def unknown_fields_refuse(unknown: dict[Any, Any], offered: list[str]) -> None:
    """Raise the 400 ``unknown_field`` naming every field of ``unknown`` (in ``details`` as a
    field error, like any other)."""
    names = ", ".join(repr(path) for path in _paths(unknown))
    message = (
        gettext("unknown field %(names)s; this takes: %(takes)s")
        % {"names": names, "takes": ", ".join(offered)}
        if offered
        else gettext("unknown field %(names)s; this takes: no fields") % {"names": names}
    )
    raise InvalidInput(message, code="unknown_field", details=unknown)


def _nul_place(value: Any, path: str) -> str | None:
    """Where a NUL character sits in ``value`` (a key or a text), or None."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            place = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and "\x00" in key:
                return place
            found = _nul_place(item, place)
            if found:
                return found
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = _nul_place(item, f"{path}.{index}")
            if found:
                return found
    return None


def input_valid(serializer_class: Any, data: Any, **kwargs: Any) -> dict[str, Any]:
    """The validated data of ``serializer_class`` for ``data``; a 400 naming the field otherwise."""
    serializer = serializer_class(data=data, **kwargs)
    unknown = _unknown_in(serializer, data)
    if unknown:
        offered = [name for name, field in serializer.fields.items() if not field.read_only]
        unknown_fields_refuse(unknown, offered)
    if isinstance(data, dict):
        errors = _fields_errors(serializer, data)
        if errors:
            raise serializers.ValidationError(errors)
    serializer.is_valid(raise_exception=True)
    # PostgreSQL keeps no NUL in text or jsonb: one in a key of a deal's racks reached it as a 500.
    place = _nul_place(dict(serializer.validated_data), "")
    if place is not None:
        shown = place.replace("\x00", "\\u0000")
        raise serializers.ValidationError(
            {place.split(".")[0]: [shown + ": " + gettext("a NUL character cannot be stored")]}
        )
    return dict(serializer.validated_data)
