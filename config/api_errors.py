"""One error shape for the whole API: ``{"error": {"code", "message", "details"}}``, and the 503
answer for a server that cannot be reached. Imports no app: every layer may answer in this shape
(the exception handler, the middleware, the error pages, the login lockout)."""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError as DatabaseInterfaceError
from django.db import OperationalError as DatabaseOperationalError
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

RETRY_AFTER_SECONDS = 5


def unavailable_part(exc: BaseException | None) -> str | None:
    """ "database" or "redis" when ``exc`` says that server cannot be reached, else None."""
    if exc is None:
        return None
    if isinstance(exc, DatabaseOperationalError | DatabaseInterfaceError):
        return "database"
    if isinstance(exc, RedisConnectionError | RedisTimeoutError | BrokerError):
        return "redis"
    return None


def unavailable_response(part: str) -> JsonResponse:
    """503 naming the part that is down, with ``Retry-After``."""
    words = {
        "database": _("the database is unavailable; retry in a few seconds"),
        "redis": _("the redis is unavailable; retry in a few seconds"),
    }
    response = JsonResponse(
        error_body(
            "unavailable",
            words.get(part, f"the {part} is unavailable; retry in a few seconds"),
            {"unavailable": part, "retry_after_seconds": RETRY_AFTER_SECONDS},
        ),
        status=503,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def json_404(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(error_body("not_found", no_such_resource(request.path)), status=404)


def no_such_resource(path: str) -> str:
    return _("no such resource: %(path)s") % {"path": path}


def server_failed() -> str:
    return _("the server failed to handle this request; it has been logged")


def json_500(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        error_body("server_error", server_failed()),
        status=500,
    )
