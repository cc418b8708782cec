"""The entry pages as an installable web app: the service worker (at the root, so its scope
covers every entry page, the table links' included) and the web app manifest. The worker's
code is static/js/offline-queue.js followed by static/js/sw.js, read from the static files so
the page and the worker send deals with the same code."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

WORKER_PARTS = ("js/offline-queue.js", "js/sw.js")


def _static_text(name: str) -> str:
    found = finders.find(name)
    if not found:  # a deployment without the source folders: the collected copy
        with staticfiles_storage.open(name) as collected:
            return collected.read().decode()
    with open(found if isinstance(found, str) else found[0], encoding="utf-8") as source:
        return source.read()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(
        "\n".join(_static_text(part) for part in WORKER_PARTS),
        content_type="text/javascript; charset=utf-8",
    )
    # The worker controls the whole site (it touches only entry pages and their static files);
    # browsers compare it with this copy at least daily, so a new version arrives on the next
    # visit without a stale one lingering in the HTTP cache.
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    response = JsonResponse(
        {
            "name": "rummyclub",
            "short_name": "rummyclub",
            "description": "Enter each deal's result at the table, with or without a connection.",
            "id": "/",
            "start_url": reverse("home"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#f6f4ee",
            "theme_color": "#0b5d43",
            "icons": [
                {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        },
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "public, max-age=3600"
    return response
