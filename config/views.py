"""Error pages: JSON in the API's one error shape under /api/, HTML elsewhere."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.views import defaults

from config.api_errors import (
    RETRY_AFTER_SECONDS,
    json_404,
    json_500,
    unavailable_part,
    unavailable_response,
)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return json_404(request, exception)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    # Called while the exception is being handled: a server that is down is a 503, not a bug.
    part = unavailable_part(sys.exc_info()[1])
    if part is not None:
        response = unavailable_response(part)
        if not request.path.startswith("/api/"):
            response = HttpResponse(
                f"The {part} is unavailable; please try again in a few seconds.",
                status=503,
                content_type="text/plain",
            )
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if request.path.startswith("/api/"):
        return json_500(request)
    return defaults.server_error(request)


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever a page links: send them to the icon we have."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
