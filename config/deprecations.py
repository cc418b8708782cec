"""What of the API is deprecated, and the headers that say so to a caller using it: RFC 9745's
``Deprecation`` (since when, ``@<unix time>``) and RFC 8594's ``Sunset`` (when it goes, an
HTTP date), with a ``Link`` to the API's docs (the schema marks each deprecated field; docs/api.md,
"Deprecations", says what to use instead).

A deprecated answer field or route is named by its path (every answer of it carries the
headers); a deprecated request field is flagged by the code that reads it
(``deprecated_use``), and only a request that used it is told."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import format_datetime

from django.http import HttpRequest, HttpResponse

DOCS = "/api/docs/"  # relative to the request, as RFC 8288 allows


@dataclass(frozen=True)
class Deprecation:
    what: str  # the field or route, as the docs name it
    instead: str
    since: datetime
    sunset: datetime
    path: re.Pattern[str] | None = None  # a route whose every answer carries the headers


REGISTRY: dict[str, Deprecation] = {
    "results.points": Deprecation(
        what="a result line's `points` (request)",
        instead="`against`",
        since=datetime(2026, 11, 26, tzinfo=UTC),
        sunset=datetime(2027, 5, 31, tzinfo=UTC),
    ),
    "evaluate.points": Deprecation(
        what="`points` in the answers of POST /api/v1/rules/evaluate/",
        instead="`against`",
        since=datetime(2026, 11, 26, tzinfo=UTC),
        sunset=datetime(2027, 5, 31, tzinfo=UTC),
        path=re.compile(r"^/api/v1/rules/evaluate/$"),
    ),
    "players.ratings": Deprecation(
        what="GET .../players/<id>/ratings/ (a player's rating changes in one list)",
        instead="GET .../players/<id>/ratings/changes/ (the same changes, paged)",
        since=datetime(2026, 12, 7, tzinfo=UTC),
        sunset=datetime(2027, 6, 30, tzinfo=UTC),
        path=re.compile(r"^/api/v1/clubs/[^/]+/players/[0-9]+/ratings/$"),
    ),
}

_used: ContextVar[frozenset[str]] = ContextVar("deprecations_used", default=frozenset())


def deprecated_use(key: str) -> None:
    """The request being answered used the deprecated ``key`` (of ``REGISTRY``)."""
    if key not in REGISTRY:
        raise KeyError(f"no deprecation {key!r} in the registry")
    _used.set(_used.get() | {key})


def headers_for(keys: frozenset[str]) -> dict[str, str]:
    """The headers for the deprecations used: the earliest of each date when several are."""
    if not keys:
        return {}
    used = [REGISTRY[key] for key in sorted(keys)]
    since = min(d.since for d in used)
    sunset = min(d.sunset for d in used)
    return {
        "Deprecation": f"@{int(since.timestamp())}",
        "Sunset": format_datetime(sunset, usegmt=True),
        "Link": f'<{DOCS}>; rel="deprecation"',
    }


class DeprecationHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        token = _used.set(frozenset())
        try:
            response = self.get_response(request)
            keys = _used.get() | {
                key for key, d in REGISTRY.items() if d.path and d.path.match(request.path)
            }
        finally:
            _used.reset(token)
        for name, value in headers_for(keys).items():
            response[name] = value
        return response
