"""Limits on what a request may carry, and one error shape for everything under ``/api/``.

- A request that came through the proxy over gunicorn's Unix socket carries its client's address
  in ``REMOTE_ADDR`` (taken from the proxy's ``X-Forwarded-For``), as the login and
  password-reset throttles expect.

- A body over ``MAX_BODY_BYTES`` is refused with 413 before anything reads it.
- JSON nested deeper than ``MAX_JSON_DEPTH`` is refused with 400 before anything parses it (the
  parser's recursion would otherwise end in a 500).
- An answer under ``/api/`` that did not come from the API's exception handler (a 404 of the URL
  resolver, a CSRF 403, a 500 page) is rewritten into ``{"error": {"code", "message", "details"}}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.http.request import split_domain_port
from django.utils import translation
from django.utils.translation import gettext as _

from config.api_errors import error_body, no_such_resource, server_failed
from config.language import answer_language

MAX_BODY_BYTES = 1024 * 1024
MAX_JSON_DEPTH = 32

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")
_CODES = {
    400: "malformed_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    410: "gone",
    413: "request_too_large",
    415: "unsupported_media_type",
    429: "throttled",
    500: "server_error",
    503: "unavailable",
}


def json_depth(body: bytes) -> int:
    """How deeply ``body`` nests arrays and objects (strings skipped)."""
    if body.count(b"[") + body.count(b"{") <= MAX_JSON_DEPTH:
        return 0  # cannot be deeper than the limit: not worth the scan
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b"", body)):
        if bracket.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _api_error(
    status: int, code: str, message: str, details: dict[str, object] | None = None
) -> JsonResponse:
    # ``details`` is a dictionary, not keywords: a query parameter may be called ``status``.
    return JsonResponse(error_body(code, message, details), status=status)


class ProxiedClientAddressMiddleware:
    """``REMOTE_ADDR`` from ``X-Forwarded-For`` for requests that came over a Unix socket.

    gunicorn bound to a Unix socket gives an empty ``REMOTE_ADDR``; only a process on the machine
    (the proxy of deploy/nginx.conf) can reach that socket, and it sets ``X-Forwarded-For`` to the
    one address it saw. Over TCP the header is ignored: any client could have written it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if not request.META.get("REMOTE_ADDR") and forwarded:
            request.META["REMOTE_ADDR"] = forwarded.rsplit(",", 1)[-1].strip()
        return self.get_response(request)


class RequestLimitsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        is_api = request.path.startswith("/api/")
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > MAX_BODY_BYTES:
            # Answered before the language middleware: said in the language it would choose.
            with translation.override(answer_language(request)):
                message = _(
                    "the request body is %(length)s bytes; at most %(most)s are accepted"
                ) % {"length": length, "most": MAX_BODY_BYTES}
            if is_api:
                return _api_error(413, "request_too_large", message, {"max_bytes": MAX_BODY_BYTES})
            return HttpResponse(message, status=413, content_type="text/plain")
        if (
            is_api
            and length
            and request.content_type == "application/json"
            and json_depth(request.body) > MAX_JSON_DEPTH
        ):
            with translation.override(answer_language(request)):
                message = _("the JSON body nests deeper than %(most)s levels") % {
                    "most": MAX_JSON_DEPTH
                }
            return _api_error(400, "too_deep", message, {"max_depth": MAX_JSON_DEPTH})
        response = self.get_response(request)
        if is_api and response.status_code >= 400 and not _is_json(response):
            with translation.override(answer_language(request)):
                return _reshaped(request, response)
        return response


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


def _reshaped(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The same answer in the API's error shape (headers such as Retry-After kept)."""
    status = response.status_code
    code = _CODES.get(status, "error")
    if status == 404:
        message = no_such_resource(request.path)
    elif status == 403:
        message = _("forbidden (a browser session must send its CSRF token)")
    elif status >= 500:
        message = server_failed()
    else:
        message = response.reason_phrase or code
    reshaped = HttpResponse(
        json.dumps(error_body(code, message)), status=status, content_type="application/json"
    )
    for header in ("Retry-After", "Allow", "WWW-Authenticate"):
        if header in response:
            reshaped[header] = response[header]
    return reshaped


# Scripts only from our own static files (no inline script, no event-handler attributes: the
# templates keep to that). Inline style attributes stay allowed: a few templates size bars and
# columns with them, and a style cannot run code.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), magnetometer=(), "
    "gyroscope=(), accelerometer=()"
)


class SecurityHeadersMiddleware:
    """Content-Security-Policy and Permissions-Policy on every response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


#: What ``details`` says of each query parameter an operation does not take.
UNKNOWN_PARAMETER = "unknown query parameter"

# DRF's switch of the response format (``?format=json``), taken by every operation.
FORMAT_SWITCH = "format"


class QueryParametersMiddleware:
    """A query parameter an API operation does not take is refused with 400 naming it (a
    misspelt filter would otherwise answer everything, unfiltered). What an operation takes is
    what its schema declares (``config.openapi.api_operation``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        view_class = getattr(view, "cls", None)
        if view_class is None or not request.path.startswith("/api/v1/") or not request.GET:
            return None
        handler = getattr(view_class, (request.method or "get").lower(), None)
        if handler is None or request.method == "OPTIONS":
            return None  # answered 405 (or the options) by the view itself
        taken = getattr(handler, "query_parameters", frozenset())
        unknown = sorted(set(request.GET) - taken - {FORMAT_SWITCH})
        if not unknown:
            return _repeated(request) or _format_refused(request, view_class)
        names = ", ".join(repr(n) for n in unknown)
        message = (
            _("unknown query parameter %(names)s; this operation takes: %(offered)s")
            % {"names": names, "offered": ", ".join(sorted(taken))}
            if taken
            else _("unknown query parameter %(names)s; this operation takes: none")
            % {"names": names}
        )
        return _api_error(
            400,
            "unknown_parameter",
            message,
            # The shape of every field error (an unknown body field's too): a list of messages.
            {name: [UNKNOWN_PARAMETER] for name in unknown},
        )


def _repeated(request: HttpRequest) -> HttpResponse | None:
    """Every query parameter takes one value (a list is one value, comma-separated): a repeated
    one would answer for one of its values, silently."""
    repeated = sorted(name for name, values in request.GET.lists() if len(values) > 1)
    if not repeated:
        return None
    return _api_error(
        400,
        "repeated_parameter",
        _(
            "query parameter %(names)s given more than once; each takes one value (a list is "
            "comma-separated)"
        )
        % {"names": ", ".join(repr(n) for n in repeated)},
        {
            name: [_("given %(count)s times") % {"count": len(request.GET.getlist(name))}]
            for name in repeated
        },
    )


def _format_refused(request: HttpRequest, view_class: Any) -> HttpResponse | None:
    """``?format=`` names one of the operation's formats (DRF would answer an unknown one 404,
    as if the resource were not there)."""
    asked = request.GET.get(FORMAT_SWITCH)
    offered = [renderer.format for renderer in view_class().get_renderers()]
    if not asked or asked in offered:
        return None
    return _api_error(
        400,
        "unknown_format",
        _("unknown format %(asked)s; this operation answers in: %(offered)s")
        % {"asked": repr(asked), "offered": ", ".join(offered)},
        {
            FORMAT_SWITCH: [
                _("use %(choices)s, not %(value)s")
                % {"choices": ", ".join(offered), "value": repr(asked)}
            ]
        },
    )


#: The names a browser on the serving machine itself uses for it.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})


class RoomAddressMiddleware:
    """Where the room is served (``ROOM_URL``, set by ``make room``), a page asked for through
    the laptop's own loopback name is sent to the same page at the room's address: links and QR
    codes are built from the address a page was asked for, and a phone cannot reach loopback.
    The API and anything but GET and HEAD are left alone (a script on the laptop keeps working)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.room_url = settings.ROOM_URL.rstrip("/")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            self.room_url
            and request.method in ("GET", "HEAD")
            and not request.path.startswith("/api/")
            and split_domain_port(request.get_host())[0] in LOOPBACK_HOSTS
        ):
            return HttpResponseRedirect(self.room_url + request.get_full_path())
        return self.get_response(request)
