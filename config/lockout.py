"""The answer to a login refused because of too many failures (django-axes calls it)."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from config.api_errors import error_body


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    cool_off = get_cool_off(request)
    seconds = max(1, int(cool_off.total_seconds())) if cool_off else 60
    message = _("too many failed logins; try again in %(minutes)s minute(s)") % {
        "minutes": max(1, seconds // 60)
    }
    response: HttpResponse
    if request.path.startswith("/api/"):
        details = {"retry_after_seconds": seconds}
        response = JsonResponse(error_body("throttled", message, details), status=429)
    else:
        # The first letter made a capital, the rest as written (German nouns keep theirs).
        sentence = message[:1].upper() + message[1:] + "."
        response = HttpResponse(sentence, status=429, content_type="text/plain")
    response["Retry-After"] = str(seconds)
    return response
