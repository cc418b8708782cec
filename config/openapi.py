"""What the API schema declares beyond what each view says: the error answers every operation can
give, and the ranges of the query parameters the views check. The schema is tested against the
running service (schemathesis, every check), so what is declared here must be what is answered."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers

from config.api_input import UNKNOWN_FIELD, unknown_fields_refuse
from config.error_codes import ERROR_CODES
from config.errors import rule_words
from config.fields import ID_MAX, INT32_MAX
from config.filters import ApiFilter, ListFilterSet

PAGE_LIMIT_MAX = 500
PAGE_LIMIT_DEFAULT = 50

WRITE_METHODS = {"post", "put", "patch", "delete"}

# Operations whose body is a raw schema (drf-spectacular cannot tell that it is required).
BODY_REQUIRED = {"rules_evaluate"}

IDEMPOTENCY_KEY_PARAMETER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "A repeat with the same key and body gets the first answer again (a 2xx is "
    "kept for 24 hours); the same key with a different body answers 422; while the first is "
    "still running, 409 with Retry-After. A key is the caller's own, for this endpoint only.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": r"\S"},
}

# Why each error status can be answered, and so which operations declare it.
_ERROR_DESCRIPTIONS = {
    "400": "The request is not valid: the body, a field or a query parameter is named.",
    "401": "No credentials, or a token or session that is not valid.",
    "403": "Your role in the club does not allow this, or a token asked for what only a login "
    "may do.",
    "404": "The club, or something the path or the body names, is not there (or not yours).",
    "410": "The table link's table has no game in play any more, or its night is closed.",
    "409": "The request conflicts with the current state (named in the code), or a request "
    "with the same Idempotency-Key is still running (see Retry-After).",
    "413": "The body is larger than 1 MiB.",
    "414": "The URL is longer than the web server takes (answered by it, not in JSON).",
    "415": "The body is not JSON.",
    "422": "The Idempotency-Key was used before for a different request.",
    "429": "Too many requests: the caller's rate limit (RateLimit-* headers) or the operation's "
    "own; wait for Retry-After seconds.",
    "503": "The database or Redis cannot be reached (named in details); retry after "
    "Retry-After seconds.",
}

# Answered by the web server in front of the service, before the request reaches it.
_WEB_SERVER_ANSWERS = {"414"}

_RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 0},
        "description": "Seconds to wait before retrying.",
    }
}

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "details"],
            "properties": {
                "code": {
                    "type": "string",
                    "enum": sorted(ERROR_CODES),
                    "description": "Stable, machine-readable; each code's meaning is in the API "
                    "guide's table of codes.",
                },
                "message": {"type": "string", "description": "Names what is wrong."},
                "details": {
                    "description": "The fields or items at fault, or more about the error.",
                },
            },
        }
    },
}


def filter_parameters(filterset: type[ListFilterSet]) -> list[OpenApiParameter]:
    """The query parameters of a list's FilterSet, as the schema declares them."""
    parameters = []
    for name, found in filterset.base_filters.items():
        assert isinstance(found, ApiFilter), f"{filterset.__name__}.{name}: not an ApiFilter"
        parameters.append(
            OpenApiParameter(name, dict(found.value_schema), description=found.description)
        )
    return parameters


def _bodiless(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A write that takes no body refuses one that names fields (``unknown_field``, each named),
    as an operation with a body refuses a field it does not have (``config.api_input``)."""

    @functools.wraps(handler)
    def refusing_fields(view: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        data = request.data
        if isinstance(data, dict) and data:
            unknown_fields_refuse({name: [UNKNOWN_FIELD] for name in data}, [])
        return handler(view, request, *args, **kwargs)

    return refusing_fields


def api_operation(
    *, filterset: type[ListFilterSet] | None = None, **schema: Any
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``extend_schema`` that also keeps the operation's query parameters on the handler: the
    schema's list is the one the service accepts (``config.middleware.QueryParametersMiddleware``
    answers 400 naming any other), so the two cannot differ. A list's ``filterset`` (the one its
    view filters with, ``config.filters.filtered``) gives its filter parameters, before the
    ``parameters`` given (paging)."""
    if filterset is not None:
        schema["parameters"] = [*filter_parameters(filterset), *schema.get("parameters", [])]

    def decorate(handler: Callable[..., Any]) -> Callable[..., Any]:
        if handler.__name__ in WRITE_METHODS and schema.get("request") is None:
            handler = _bodiless(handler)
        handler.filterset = filterset  # type: ignore[attr-defined]
        handler.query_parameters = frozenset(  # type: ignore[attr-defined]
            parameter.name
            for parameter in schema.get("parameters", [])
            if isinstance(parameter, OpenApiParameter) and parameter.location == "query"
        )
        return extend_schema(**schema)(handler)

    return decorate


class PageOutput(serializers.Serializer[dict]):
    """The one shape of every list: a page of ``results`` and the links to the pages beside it."""

    count = serializers.IntegerField(help_text="How many there are in all.")
    # Links are the view's to give (``config.pagination.page_links``): null until it does.
    next = serializers.URLField(
        allow_null=True, default=None, help_text="The next page, or null at the end."
    )
    previous = serializers.URLField(
        allow_null=True, default=None, help_text="The previous page, or null on the first."
    )


# Why something was not accepted: one shape for the rules' evaluate endpoint and for every
# submitted result, whatever its format.


class ReasonDetailsOutput(serializers.Serializer[dict]):
    """More about a reason; which keys it has depends on the ``code`` (others may come)."""

    group = serializers.IntegerField(
        required=False, help_text="The group of the hand at fault (from 0)."
    )
    position = serializers.IntegerField(
        required=False,
        help_text="The place of the card at fault in its group or list, or of the tile on "
        "the rack (from 0).",
    )
    groups = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Every invalid group."
    )
    cards = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="The invalid group's cards."
    )
    card = serializers.CharField(required=False, help_text="The card over the decks' copies.")
    count = serializers.IntegerField(required=False, help_text="How many were given.")


@extend_schema_field(ReasonDetailsOutput)
class ReasonDetailsField(serializers.DictField):
    """A reason's ``details`` as they are (every key kept), typed as ``ReasonDetailsOutput``."""


class ReasonOutput(serializers.Serializer[dict]):
    """Why something was not accepted. ``player`` is null only when the reason blames the whole
    (no winner, a missing wild joker, a newer version, a director's rejection, a hand evaluated
    on its own)."""

    player = serializers.IntegerField(
        allow_null=True, default=None,
        help_text="The player the reason blames (the id as entered, for one with no seat).",
    )  # fmt: skip
    player_name = serializers.CharField(
        allow_null=True, default=None, help_text="Their name, when they are in the game."
    )
    seat = serializers.IntegerField(
        allow_null=True, default=None, help_text="Their seat at the table (1 first)."
    )
    code = serializers.CharField(help_text="Stable, machine-readable (`bad_card`, ...).")
    message = serializers.CharField(help_text="Says what is wrong, naming the player.")
    token = serializers.CharField(
        allow_null=True, default=None,
        help_text="The card, tile or field at fault as it was entered, or null.",
    )  # fmt: skip
    details = ReasonDetailsField(default=dict)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        """The sentence in the request's language, by the reason's code and values (stored as
        the rules engine's English); the code, token and details as they are."""
        data = super().to_representation(instance)
        return {**data, "message": rule_words(data)}


_PAGES: dict[type[serializers.BaseSerializer[Any]], type[serializers.Serializer[dict]]] = {}


def page_of(
    item: type[serializers.BaseSerializer[Any]],
    base: type[serializers.Serializer[dict]] = PageOutput,
) -> type[serializers.Serializer[dict]]:
    """The page serializer of a list of ``item`` (``<Item>Page`` in the schema), made once."""
    if item not in _PAGES:
        name = item.__name__.removesuffix("Output") + "Page"
        _PAGES[item] = type(name, (base,), {"results": item(many=True)})
    return _PAGES[item]


def int_query_parameter(
    name: str, *, low: int = 1, high: int = ID_MAX, **kwargs: Any
) -> OpenApiParameter:
    """A whole-number query parameter with the range the view checks (400 outside it)."""
    return OpenApiParameter(name, {"type": "integer", "minimum": low, "maximum": high}, **kwargs)


# The bounds of a paged read, checked by config.pagination.page_value.
PAGE_RANGES = {"limit": (1, PAGE_LIMIT_MAX), "offset": (0, INT32_MAX)}

PAGE_PARAMETERS = [
    int_query_parameter(
        "limit", low=1, high=PAGE_LIMIT_MAX, default=PAGE_LIMIT_DEFAULT,
        description=f"How many lines (at most {PAGE_LIMIT_MAX}).",
    ),
    int_query_parameter("offset", low=0, high=INT32_MAX, default=0, description="Lines skipped."),
]  # fmt: skip

CURSOR_PARAMETERS = [
    OpenApiParameter(
        "cursor", str, description="Where a page starts: take it from `next` or `previous`."
    ),
    PAGE_PARAMETERS[0],
]

# No NUL in what a body stores (config.api_input refuses it), and DRF's text fields trim the
# text (Python's whitespace) before refusing a blank one: said as patterns without look-ahead.
# (They also refuse lone surrogates, which no regex engine of the schema's readers can name.)
_CHAR = "[^\\u0000]"
_NOT_SPACE = "[^\\s\\u0000\\u001c-\\u001f\\u0085]"
_TEXT = f"^{_CHAR}*$"
_NON_BLANK_TEXT = f"^{_CHAR}*{_NOT_SPACE}{_CHAR}*$"


# What a time of a request body must begin with (a date and a time; DRF reads the rest): the
# format alone is only an annotation to a schema's readers, so an empty string would pass it.
_DATE_TIME = "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}"


def _text_patterns_declare(schema: dict[str, Any]) -> None:
    """Give every free-text string of a request body the pattern DRF holds it to."""
    if schema.get("type") == "string" and not {"enum", "format", "pattern"} & schema.keys():
        schema["pattern"] = _NON_BLANK_TEXT if schema.get("minLength", 0) >= 1 else _TEXT
    if schema.get("format") == "date-time" and "pattern" not in schema:
        schema["pattern"] = _DATE_TIME
    for key in ("properties", "patternProperties"):
        for child in schema.get(key, {}).values():
            _text_patterns_declare(child)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            _text_patterns_declare(schema[key])
    for key in ("oneOf", "anyOf", "allOf"):
        for child in schema.get(key, []):
            _text_patterns_declare(child)


def _objects_close(schema: dict[str, Any]) -> None:
    """A request body's objects take only the fields they declare (``config.api_input`` answers
    400 ``unknown_field`` to any other); a dictionary field keeps its open keys."""
    if "properties" in schema and "additionalProperties" not in schema:
        schema["additionalProperties"] = False
    for child in schema.get("properties", {}).values():
        _objects_close(child)
    if isinstance(schema.get("items"), dict):
        _objects_close(schema["items"])
    for key in ("oneOf", "anyOf", "allOf"):
        for child in schema.get(key, []):
            _objects_close(child)


# Open to anyone holding a table link, and refused to the seat that entered the entry.
SEAT_CHECKED = {"table_entries_confirm", "table_entries_dispute"}


def _error_statuses(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    """The error statuses ``operation`` can answer, from what it takes and who may call it."""
    writes = method in WRITE_METHODS
    has_body = "requestBody" in operation
    queried = any(p.get("in") == "query" for p in operation.get("parameters", []))
    anonymous = {} in operation.get("security", [])
    # A bad token is refused everywhere; every caller has its rate limit; the database can be down.
    statuses = ["401", "429", "503"]
    if "{" in path or queried:
        statuses.append("414")  # the web server's limit on the request line
    if writes or queried:
        statuses.append("400")  # a body that is not JSON reaches every write
    if not anonymous:
        statuses.append("403")
    if "{" in path or has_body:
        statuses.append("404")
    if writes:
        statuses += ["409", "413", "422"]  # the Idempotency-Key claim and reuse; the body limit
    if has_body:
        statuses.append("415")
    if path.startswith("/api/v1/table/"):  # reached with a table link (scoring.table_links)
        statuses.append("410")  # the table's game is over, or its night closed
    if operation.get("operationId") in SEAT_CHECKED:
        statuses.append("403")  # the seat that entered an entry neither confirms nor disputes it
    return statuses


def error_responses_declare(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every operation declares the errors it can answer,
    all in the one error shape."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in schemas.items():
        if name.endswith("Request"):
            _text_patterns_declare(schema)
            _objects_close(schema)
    schemas["Error"] = ERROR_SCHEMA
    # A reason's code is one of the same codes (a rejected deal's, a hand evaluated on its own).
    for name in ("ReasonOutput", "EvaluateErrorBodyOutput"):
        if name in schemas:
            schemas[name]["properties"]["code"]["enum"] = sorted(ERROR_CODES)
    error_ref = {"$ref": "#/components/schemas/Error"}
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            if method in WRITE_METHODS:
                parameters = operation.setdefault("parameters", [])
                parameters[:] = [p for p in parameters if p.get("name") != "Idempotency-Key"]
                parameters.append(IDEMPOTENCY_KEY_PARAMETER)
            if operation.get("operationId") in BODY_REQUIRED:
                operation["requestBody"]["required"] = True
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "query":
                    # Every query parameter given empty is as if left out (a form's blank field).
                    parameter["allowEmptyValue"] = True
            responses = operation.setdefault("responses", {})
            for status in _error_statuses(path, method, operation):
                if status in responses:
                    continue
                response: dict[str, Any] = {"description": _ERROR_DESCRIPTIONS[status]}
                if status not in _WEB_SERVER_ANSWERS:
                    response["content"] = {"application/json": {"schema": error_ref}}
                if status in {"409", "429", "503"}:
                    response["headers"] = _RETRY_AFTER
                responses[status] = response
    return result


def _union_tags(node: Any) -> None:
    if isinstance(node, dict):
        values = node.pop("x-discriminator-values", None)
        if values is not None:
            node["enum"] = values
        for child in node.values():
            _union_tags(child)
    elif isinstance(node, list):
        for child in node:
            _union_tags(child)


def union_tags_declare(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook, after the enums are named: each member of a union
    declares the value (or values) of its discriminator as an enum of its own, inline. Named
    enums would merge the members' one-value sets under one name, or clash."""
    _union_tags(result.get("components", {}).get("schemas", {}))
    return result
