"""DRF's exception handler: every exception a view raises, answered in the API's one error shape.

It sits above the apps, beside the URLs and the settings that name it, because it knows the errors
of every layer: a service's ``config.errors.ServiceError``, the rules engine's ``RuleViolation``,
DRF's and Django's own, and a server that cannot be reached."""

from __future__ import annotations

import json
import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from config.api_errors import error_body, server_failed, unavailable_part, unavailable_response
from config.errors import ServiceError, rule_words
from rules.errors import RuleViolation

logger = logging.getLogger("rummyclub.api")

_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.ParseError: "malformed_request",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid",
}


def _first_message(detail: Any) -> str:
    """A readable one-line summary of a DRF validation detail, naming the field."""
    if isinstance(detail, dict):
        for field, value in detail.items():
            inner = _first_message(value)
            return inner if field == "non_field_errors" else f"{field}: {inner}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )

    if isinstance(exc, ServiceError):
        set_rollback()
        retry_after = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry_after)} if retry_after else {}
        return Response(
            error_body(exc.code, exc.message, exc.details), status=exc.status, headers=headers
        )
    if isinstance(exc, RuleViolation):
        set_rollback()
        details = {"token": exc.token, **exc.details}
        return Response(error_body(exc.code, rule_words(exc.as_dict()), details), status=400)
    if isinstance(exc, exceptions.APIException):
        set_rollback()
        code = next((c for t, c in _CODES.items() if isinstance(exc, t)), None)
        code = code or (exc.default_code if isinstance(exc.default_code, str) else "error")
        if isinstance(exc, exceptions.ValidationError):
            details = (
                exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
            )
            message = _first_message(exc.detail)
        else:
            details = {}
            message = str(exc.detail)
        headers = {}
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
        if getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(exc.wait))  # type: ignore[attr-defined]
            details = {"retry_after_seconds": int(exc.wait)}  # type: ignore[attr-defined]
        return Response(error_body(code, message, details), status=exc.status_code, headers=headers)

    part = unavailable_part(exc)
    if part is not None:  # a server we need is down: say which, and when to try again
        logger.warning("%s unavailable: %s", part, type(exc).__name__)
        set_rollback()
        unavailable = unavailable_response(part)
        return Response(
            json.loads(unavailable.content),
            status=503,
            headers={"Retry-After": unavailable["Retry-After"]},
        )

    # Anything else is a bug: log it with the traceback, answer in the same shape.
    logger.exception("unhandled error in %s", context.get("view").__class__.__name__)
    set_rollback()
    return Response(
        error_body("server_error", server_failed()),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
