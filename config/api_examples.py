"""An example for every request and response body of the schema (operations and webhooks) that
has none of its own: built from the body's own schema (its enums, formats, bounds, patterns and
required fields), with the values a club would use for the fields whose names say what they hold,
so that each example is valid against its schema by construction (a test checks it with a JSON
Schema validator). An example written by hand on an operation is kept as it is."""

from __future__ import annotations

import re
from typing import Any

_TIME = "2026-11-25T20:14:03Z"
# Values by field name, used where they fit the field's schema.
_NAMED: dict[str, Any] = {
    "name": "Friday night", "slug": "demo", "club": "demo", "club_slug": "demo",
    "username": "asha", "currency": "INR", "timezone": "Asia/Kolkata", "wild": "QH",
    "message": "name: This field may not be blank.", "code": "invalid", "url": "https://scores.example/api/v1/clubs/demo/",
    "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "since": _TIME, "email": "asha@example.com",
}  # fmt: skip
_FORMATS = {
    "date-time": _TIME, "date": "2026-11-25", "uri": "https://scores.example/api/v1/clubs/demo/",
    "uuid": "0b7c6f9e-3d2a-4c1b-9e8f-5a6d7c8b9a01", "email": "asha@example.com",
    "binary": "players.csv",
}  # fmt: skip
_PATTERNS = {"^[-a-zA-Z0-9_]+$": "demo", "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}": _TIME}
_DEPTH = 12
# What a pattern the table above does not know is tried with: an amount, a count, a name, a time.
_CANDIDATES = ("12.50", "12", "demo", "Friday night", _TIME)

# Requests whose fields are alternatives (a deal's results or its racks, a line's groups or its
# points): what one client sends, written out.
_DEAL = {"wild": "QH", "results": [
    {"player": 4, "outcome": "winner"},
    {"player": 7, "outcome": "loser", "points": 23},
    {"player": 9, "outcome": "first_drop"},
]}  # fmt: skip
_WRITTEN_REQUESTS: dict[str, Any] = {
    "deals_create": _DEAL,
    "submissions_create": _DEAL,
    "deals_create_batch": {"deals": [_DEAL, {**_DEAL, "wild": "7S"}]},
    "webhooks_create": {"url": "https://app.example/hooks/rummy",
                        "events": ["deal.scored", "standings.changed"]},
}  # fmt: skip


class _Builder:
    def __init__(self, components: dict[str, Any], *, request: bool) -> None:
        self.components, self.request = components, request

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self.components[schema["$ref"].rsplit("/", 1)[-1]]
        return schema

    def value(self, schema: dict[str, Any], name: str = "", depth: int = 0) -> Any:
        schema = self.resolve(schema)
        if "example" in schema:
            return schema["example"]
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            options = [option for option in schema["enum"] if option is not None]
            return _NAMED.get(name) if _NAMED.get(name) in options else options[0]
        for union in ("oneOf", "anyOf"):
            if union in schema:
                options = [self.resolve(o) for o in schema[union]]
                chosen = [o for o in options if o.get("type") != "null" and o.get("enum") != [""]]
                return self.value((chosen or options)[0], name, depth + 1)
        if "allOf" in schema:
            parts = [self.value(part, name, depth + 1) for part in schema["allOf"]]
            if not all(isinstance(part, dict) for part in parts):
                return parts[0]  # a reference wrapped with a description of its own
            return {key: item for part in parts for key, item in part.items()}
        kind = schema.get("type", "object" if "properties" in schema else None)
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        return self._typed(kind, schema, name, depth)

    def _typed(self, kind: str | None, schema: dict[str, Any], name: str, depth: int) -> Any:
        if kind == "object":
            return self._object(schema, depth)
        if kind == "array":
            item = self.value(schema.get("items", {}), name, depth + 1) if depth < _DEPTH else None
            return [item] * max(1, schema.get("minItems", 1)) if item is not None else []
        if kind == "string":
            return self._string(schema, name)
        if kind in ("integer", "number"):
            low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1)
            high = schema.get("maximum", schema.get("exclusiveMaximum", 10**9) - 1)
            return max(low, min(high, 12))
        if kind == "boolean":
            return True
        return None if kind == "null" else {}

    def _object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        properties = schema.get("properties", {})
        if depth >= _DEPTH:
            return {}
        required = schema.get("required", [])
        # A request shows what it needs (all it takes when nothing is required); an answer all.
        shown = required if self.request and required else list(properties)
        built = {key: self.value(properties[key], key, depth + 1) for key in shown}
        extra = schema.get("additionalProperties")
        if not properties and isinstance(extra, dict):
            built["12"] = self.value(extra, "", depth + 1)  # a map keyed by ids
        return built

    def _string(self, schema: dict[str, Any], name: str) -> str:
        pattern = schema.get("pattern", "")
        text = _PATTERNS.get(pattern) or (_fitting(pattern) if pattern else None)
        if text is None and schema.get("format") in _FORMATS:
            text = _FORMATS[schema["format"]]
        if text is None:
            named = _NAMED.get(name)
            text = named if isinstance(named, str) else name.replace("_", " ") or "text"
        low, high = schema.get("minLength", 0), schema.get("maxLength", 10**6)
        return (text * (low // max(1, len(text)) + 1))[: max(low, min(high, len(text)))]


def _fitting(pattern: str) -> str | None:
    """A usual value that ``pattern`` takes (an amount, a count, a name, a time), if any."""
    try:
        compiled = re.compile(pattern)
    except re.error:
        return None
    return next((text for text in _CANDIDATES if compiled.search(text)), None)


def _bodies(document: dict[str, Any]) -> list[tuple[dict[str, Any], bool, str]]:
    """Every body's media object of the schema, whether it is a request's, and its operation."""
    found = []
    sections = [*document.get("paths", {}).values(), *document.get("webhooks", {}).values()]
    for item in sections:
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            name = operation.get("operationId", "")
            body = operation.get("requestBody", {}).get("content", {})
            found += [(media, True, name) for media in body.values()]
            for response in operation.get("responses", {}).values():
                found += [(media, False, name) for media in response.get("content", {}).values()]
    return found


def examples_declare(result: dict[str, Any], generator: Any, request: Any, public: bool
                     ) -> dict[str, Any]:  # fmt: skip
    """drf-spectacular's postprocessing hook: an example on every body that has none."""
    components = result.get("components", {}).get("schemas", {})
    for media, is_request, operation in _bodies(result):
        if "schema" not in media or "example" in media or "examples" in media:
            continue
        if is_request and operation in _WRITTEN_REQUESTS:
            value = _WRITTEN_REQUESTS[operation]
        else:
            value = _Builder(components, request=is_request).value(media["schema"])
        media["examples"] = {"example": {"value": value}}
    return result
