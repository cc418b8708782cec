"""The stream a live screen subscribes to (Server-Sent Events): one long answer per screen, an
event ``change`` (its ``id`` the change's number) each time one of the screen's topics changes,
a comment every ``LIVE_KEEPALIVE_SECONDS`` of quiet so that proxies and the browser know it is
alive. A stream ends after ``LIVE_STREAM_SECONDS``. The browser reconnects by itself and sends
the last id it saw (``Last-Event-ID``); a change it missed meanwhile is sent at once.

The topics are those the page was rendered with, signed (``stream_url``): the stream reads no
database, no session and no user, so an open screen holds no database connection, and a screen
can only hear of what the page it came from already showed."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator

from django.conf import settings
from django.core import signing
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from live import bus

SALT = "live.stream"


def stream_url(topics: list[str]) -> str:
    """The URL of the stream of ``topics``, with the newest change number so far: anything
    after it is news to the page being rendered."""
    token = signing.dumps(sorted(set(topics)), salt=SALT)
    return f"{reverse('live-stream')}?t={token}&since={bus.current()}"


def _event(seq: int) -> str:
    return f"id: {seq}\nevent: change\ndata: {json.dumps({'id': seq})}\n\n"


def _opening(since: int) -> str:
    # The retry delay the browser waits before reconnecting, and the id it reconnects with.
    return f"retry: {settings.LIVE_RETRY_MS}\nid: {since}\n\n"


def _timing() -> tuple[float, float]:
    """When the stream ends (the browser reconnects at once, with its last id: long-lived
    connections spread again over the processes after a restart or a scale-out) and how long it
    may stay quiet."""
    lifetime = float(settings.LIVE_STREAM_SECONDS)
    return time.monotonic() + lifetime, min(float(settings.LIVE_KEEPALIVE_SECONDS), lifetime)


async def _async_events(topics: frozenset[str], since: int) -> AsyncIterator[str]:
    ends, quiet = _timing()
    yield _opening(since)
    async for seq in bus.changes(topics, since, quiet):
        yield ": keep-alive\n\n" if seq is None else _event(seq)
        if time.monotonic() >= ends:
            return


def _blocking_events(topics: frozenset[str], since: int) -> Iterator[str]:
    ends, quiet = _timing()
    yield _opening(since)
    for seq in bus.changes_blocking(topics, since, quiet):
        yield ": keep-alive\n\n" if seq is None else _event(seq)
        if time.monotonic() >= ends:
            return


def _number(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() and len(value) < 19 else None


@require_GET
def stream(request: HttpRequest) -> HttpResponse:
    try:
        topics = frozenset(signing.loads(request.GET.get("t", ""), salt=SALT))
    except signing.BadSignature:
        return HttpResponse("t: not a stream this site gave out", status=400)
    since = _number(request.headers.get("Last-Event-ID"))
    if since is None:
        since = _number(request.GET.get("since")) or 0
    events = (
        _async_events(topics, since)
        if isinstance(request, ASGIRequest)
        else _blocking_events(topics, since)
    )
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response
