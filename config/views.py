"""Error pages: JSON in the API's one error shape under /api/, HTML elsewhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.views import defaults

from config.api_errors import json_404, json_500


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return json_404(request, exception)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return json_500(request)
    return defaults.server_error(request)


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever a page links: send them to the icon we have."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
