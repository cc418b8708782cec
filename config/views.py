"""Error pages: JSON in the API's one error shape under /api/, HTML elsewhere."""

from __future__ import annotations

import sys

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.cache import cache_control
from django.views.i18n import JavaScriptCatalog

from config.api_errors import (
    RETRY_AFTER_SECONDS,
    json_404,
    json_500,
    unavailable_part,
    unavailable_response,
)
from config.language import LANGUAGE_CODES


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
            words = {
                "database": gettext(
                    "The database is unavailable; please try again in a few seconds."
                ),
                "redis": gettext(
                    "The Redis server is unavailable; please try again in a few seconds."
                ),
            }
            response = HttpResponse(
                words.get(part, part),
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


_CATALOG = JavaScriptCatalog.as_view()


@cache_control(max_age=3600, public=True)
def javascript_catalog(request: HttpRequest, language: str) -> HttpResponse:
    """The scripts' words in ``language`` (Django's JavaScript catalog, ``gettext`` in the
    page): named in the address, so that a club's page gets the club's language and a browser
    keeps one copy per language."""
    if language not in LANGUAGE_CODES:
        raise Http404("no such language")
    with translation.override(language):
        response: HttpResponse = _CATALOG(request)
    return response
