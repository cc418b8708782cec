"""``GET /health/``: is the database reachable, is the broker reachable. 200 or 503."""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

BROKER_TIMEOUT_SECONDS = 2.0
logger = logging.getLogger("rummyclub.health")


def _check_database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True, "vendor": connection.vendor}


def _check_broker() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER and not settings.REDIS_URL:
        return {"ok": True, "kind": "in-process (tasks run eagerly)"}
    client = redis.Redis.from_url(
        settings.CELERY_BROKER_URL,
        socket_connect_timeout=BROKER_TIMEOUT_SECONDS,
        socket_timeout=BROKER_TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    finally:
        client.close()
    return {"ok": True, "kind": "redis"}


CHECKS = {"database": _check_database, "broker": _check_broker}


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    results: dict[str, Any] = {}
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            result = check()
        except Exception:  # any failure of a dependency is reported, not raised
            # Which part failed is public; why (host names, versions) goes to the log only.
            logger.warning("health: %s check failed", name, exc_info=True)
            result = {"ok": False}
        result["ms"] = round((time.perf_counter() - started) * 1000, 1)
        results[name] = result
    healthy = all(r["ok"] for r in results.values())
    failed = [name for name, r in results.items() if not r["ok"]]
    body = {"status": "ok" if healthy else "unavailable", "failed": failed, "checks": results}
    response = JsonResponse(body, status=200 if healthy else 503)
    if not healthy:
        response["Retry-After"] = "5"
    return response
