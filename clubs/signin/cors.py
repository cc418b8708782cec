"""Which origins may call the API and the token and revocation endpoints from a browser: the
web origins of the registered apps (``selectors.registered_app_origins``). django-cors-headers
asks ``origin_allowed`` through its ``check_request_enabled`` signal and adds the headers
(settings: ``CORS_*``).

The origins are kept in the cache, since they change only when an app does: saving or deleting
one forgets them (once its transaction commits, so no reader caches the set from before it)."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest

from clubs.signin import selectors

log = logging.getLogger(__name__)

CACHE_KEY = "oauth:app-origins"
# Saving or deleting an app forgets the origins at once; this only bounds how long a change
# made around the models (SQL by hand) goes unseen.
CACHE_SECONDS = 15 * 60


def allowed_origins() -> frozenset[str]:
    try:
        origins = cache.get(CACHE_KEY)
    except Exception:
        # The cache being down costs a query, not the API.
        log.warning("cache unavailable; reading the apps' origins from the database")
        return selectors.registered_app_origins()
    if origins is None:
        origins = selectors.registered_app_origins()
        try:
            cache.set(CACHE_KEY, origins, CACHE_SECONDS)
        except Exception:
            log.warning("cache unavailable; the apps' origins are not kept")
    return frozenset(origins)


def origin_allowed(sender: Any, request: HttpRequest, **kwargs: Any) -> bool:
    """django-cors-headers' ``check_request_enabled``: asked for every request that is not on
    its paths too, so the cheap tests come first."""
    origin = request.headers.get("origin")
    if not origin or not re.match(settings.CORS_URLS_REGEX, request.path_info):
        return False
    return origin in allowed_origins()


def forget_origins(**kwargs: Any) -> None:
    """An app was saved or deleted: its origins are read again on the next request."""

    def forget() -> None:
        try:
            cache.delete(CACHE_KEY)
        except Exception:
            log.warning("cache unavailable; the apps' origins are forgotten when they expire")

    forget()
    transaction.on_commit(forget)
