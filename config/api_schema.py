"""The schema generator of the API (DRF's ``DEFAULT_SCHEMA_CLASS``): drf-spectacular's, with
what every operation gets without saying it itself.

- Tags by subject (clubs, members, players, nights, games, deals, ...), from the path, so a
  reader of the schema (or a generated client's modules) finds an operation by what it is about.
- A summary on every operation: its own, else the first sentence of its description when that is
  short, else made from its operation id (``tournaments_entries_check_in``: "Tournaments entries:
  check in").
- An answer's fields that are always there are required: a field with a default (DRF answers
  it when the object has none) and every field of a model's serializer (a model has each). Only
  a field that may be left out of the answer is optional.
- One schema whatever the database: a model's integer field has the range of its column as
  PostgreSQL (and Django's default) keeps it, not SQLite's 64 bits for every integer."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db.backends.base.operations import BaseDatabaseOperations
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers
from rest_framework.fields import empty

# The subject of a path under a club, by its first part after the club ...
_CLUB_SUBJECTS = {
    "members": "members", "players": "players", "presets": "presets", "sessions": "nights",
    "tables": "nights", "games": "games", "deals": "deals", "submissions": "deals",
    "table-links": "table links", "standings": "standings", "seasons": "standings",
    "ratings": "ratings", "tournaments": "tournaments", "series": "series", "webhooks": "webhooks",
    "stream": "sync", "tombstones": "sync", "results": "results",
    "federations": "federation", "federation-export": "federation",
}  # fmt: skip
# ... unless a later part names a subject of its own (a table's games, a game's deals).
_NESTED_SUBJECTS = {
    "games": "games", "deals": "deals", "submissions": "deals", "links": "table links",
    "history": "standings", "ratings": "ratings",
}  # fmt: skip
# Paths outside a club: by their first part.
_SUBJECTS = {"clubs": "clubs", "table": "table entry", "tokens": "tokens",
             "invitations": "invitations", "rules": "rules",
             "federations": "federation"}  # fmt: skip
#: What an operation id's last word says it does.
_ACTIONS = {"list": "list", "create": "create", "retrieve": "read", "update": "change",
            "destroy": "delete", "set": "set"}  # fmt: skip
_SHORT_SUMMARY = 72


def path_subject(path: str) -> str:
    """The tag of an operation on ``path`` (``/api/v1/clubs/{club_slug}/games/{game_id}/``)."""
    parts = [p for p in path.removeprefix("/api/v1/").strip("/").split("/") if p]
    fixed = [p for p in parts if not p.startswith("{")]
    if parts[:2] != ["clubs", "{club_slug}"] or len(fixed) < 2:
        return _SUBJECTS.get(fixed[0] if fixed else "", "clubs")
    subject = _CLUB_SUBJECTS.get(fixed[1], "clubs")
    for part in fixed[2:]:
        subject = _NESTED_SUBJECTS.get(part, subject)
    return subject


def summary_from(operation_id: str, description: str) -> str:
    """A summary for an operation that gives none."""
    first = re.split(r"(?<=\.)\s|\n\n", description.strip(), maxsplit=1)[0].rstrip(".")
    if first and len(first) <= _SHORT_SUMMARY and not set("`:;(") & set(first):
        return first
    words = operation_id.split("_")
    action = _ACTIONS.get(words[-1])
    if action is None or len(words) == 1:
        return operation_id.replace("_", " ").capitalize()
    return f"{' '.join(words[:-1]).capitalize()}: {action}"


def _always_answered(serializer: Any, field: serializers.Field) -> bool:  # type: ignore[type-arg]
    if field.write_only:
        return False
    return (
        field.required
        or field.default is not empty
        or isinstance(serializer, serializers.ModelSerializer)
    )


_INT32_MAX = 2**31 - 1


def _column_range(field: Any) -> tuple[int, int] | None:
    """The range of the model column an integer field of a model's serializer reads, if any."""
    model = getattr(getattr(field.parent, "Meta", None), "model", None)
    if model is None or not isinstance(field, serializers.IntegerField):
        return None
    try:
        column = model._meta.get_field(field.source)
    except FieldDoesNotExist:
        return None
    found = BaseDatabaseOperations.integer_field_ranges.get(column.get_internal_type())
    return None if found is None else (int(found[0]), int(found[1]))


class SubjectAutoSchema(AutoSchema):
    def _map_serializer_field(self, field: Any, direction: str, bypass_extensions: bool = False
                              ) -> dict[str, Any]:  # fmt: skip
        schema: dict[str, Any] = super()._map_serializer_field(field, direction, bypass_extensions)
        bounds = _column_range(field)
        if bounds is not None and {"minimum", "maximum"} & schema.keys():
            schema["minimum"] = max(schema.get("minimum", bounds[0]), bounds[0])
            schema["maximum"] = min(schema.get("maximum", bounds[1]), bounds[1])
            if schema["maximum"] <= _INT32_MAX and schema.get("format") == "int64":
                del schema["format"]
        if isinstance(field, serializers.ListSerializer) and schema.get("type") == "array":
            # A list of objects with its bounds (``many=True, min_length=1``): the schema says
            # them as a list field's are said.
            if field.min_length is not None:
                schema["minItems"] = field.min_length
            if field.max_length is not None:
                schema["maxItems"] = field.max_length
        return schema

    def get_tags(self) -> list[str]:
        return [path_subject(self.path)]

    def get_summary(self) -> str | None:
        own = super().get_summary()
        if own:
            return own
        return summary_from(self.get_operation_id(), self.get_description() or "")

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)
        if direction != "response":
            return schema
        required = set(schema.get("required", []))
        for field in serializer.fields.values():
            if field.field_name in schema.get("properties", {}) and _always_answered(
                serializer, field
            ):
                required.add(field.field_name)
        if required:
            schema["required"] = sorted(required)
        return schema
