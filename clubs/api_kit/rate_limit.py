"""The API's published rate limit: each caller may make ``API_RATE_LIMIT`` requests a minute.

A caller is who the idempotency keys belong to (a personal token, an OAuth2 app acting for its
person, a browser session, a table link) or, signed in as nobody, the client's address. Requests
are counted in windows aligned to the clock's minutes (one ``incr`` a request in the cache:
shared by every process through Redis), which is what lets every answer say exactly when its
window ends. Every answer of a counted request carries the IETF draft's headers:
``RateLimit-Limit``, ``RateLimit-Remaining``, ``RateLimit-Reset`` (seconds to the next window)
and ``RateLimit-Policy``; a refused one answers 429 ``throttled`` with ``Retry-After``.

A cache that cannot be reached counts nothing and refuses nothing: a Redis outage must not stop
phones entering results (docs/reliability.md); those answers carry no rate-limit headers."""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from oauth2_provider.models import AccessToken
from redis.exceptions import RedisError
from rest_framework.throttling import BaseThrottle

from clubs.models import ApiToken
from config.counters import window_count

WINDOW_SECONDS = 60
_TABLE_PREFIX = "/api/v1/table/"


@dataclass(frozen=True)
class RateLimitState:
    limit: int
    remaining: int
    reset_seconds: int


def _caller(request: Any) -> str:
    """The counted caller of an authenticated DRF request (its ``auth`` already read)."""
    path = request.path
    if path.startswith(_TABLE_PREFIX):
        link = path[len(_TABLE_PREFIX) :].split("/", 1)[0]
        return f"table:{hashlib.sha256(link.encode()).hexdigest()[:32]}"
    auth = request.auth
    if isinstance(auth, ApiToken):
        return f"token:{auth.pk}"
    if isinstance(auth, AccessToken):
        return f"app:{auth.application_id}:{auth.user_id}"
    if request.user is not None and request.user.is_authenticated:
        return f"user:{request.user.pk}"
    return f"address:{request.META.get('REMOTE_ADDR', '')}"


class CallerRateThrottle(BaseThrottle):
    """Every API view's throttle (``DEFAULT_THROTTLE_CLASSES``)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        limit: int = settings.API_RATE_LIMIT
        now = time.time()
        window = int(now // WINDOW_SECONDS)
        try:
            count = window_count(f"rate:{_caller(request)}:{window}", WINDOW_SECONDS + 5)
        except (RedisError, OSError):
            return True
        self.reset_seconds = max(1, math.ceil((window + 1) * WINDOW_SECONDS - now))
        # The Django request outlives the DRF one: the middleware below writes the headers.
        request._request.rate_limit = RateLimitState(
            limit=limit, remaining=max(0, limit - count), reset_seconds=self.reset_seconds
        )
        return count <= limit

    def wait(self) -> float | None:
        return float(self.reset_seconds)


class RateLimitHeadersMiddleware:
    """Writes the counted request's rate-limit headers on its answer, whatever answered it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        state: RateLimitState | None = getattr(request, "rate_limit", None)
        if state is not None:
            response["RateLimit-Limit"] = str(state.limit)
            response["RateLimit-Remaining"] = str(state.remaining)
            response["RateLimit-Reset"] = str(state.reset_seconds)
            response["RateLimit-Policy"] = f"{state.limit};w={WINDOW_SECONDS}"
        return response
