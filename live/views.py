"""The stream a live screen subscribes to (Server-Sent Events): one long answer per screen, an
event ``change`` (its ``id`` the change's number) each time one of the screen's topics changes,
a comment every ``LIVE_KEEPALIVE_SECONDS`` of quiet so that proxies and the browser know it is
alive. A stream ends after ``LIVE_STREAM_SECONDS``. The browser reconnects by itself and sends
the last id it saw (``Last-Event-ID``); a change it missed meanwhile is sent at once.

The topics are those the page was rendered with, signed (``stream_url``): the stream reads no
database, no session and no user, so an open screen holds no database connection, and a screen
can only hear of what the page it came from already showed. A public page's part (``fragment``,
its URL) comes in the stream itself (``live.fragments``): ``event: fragment``, its HTML in the
data lines."""

from __future__ import annotations

import json
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from live import bus
from live.capacity import RETRY_AFTER_SECONDS, Place, streams
from live.fragments import Fragment, UnknownFragment, render, renders, stream_fragment

SALT = "live.stream"


def stream_url(topics: list[str]) -> str:
    """The URL of the stream of ``topics``, with the newest change number so far: anything
    after it is news to the page being rendered."""
    token = signing.dumps(sorted(set(topics)), salt=SALT)
    return f"{reverse('live-stream')}?t={token}&since={bus.current()}"


def _event(seq: int) -> str:
    return f"id: {seq}\nevent: change\ndata: {json.dumps({'id': seq})}\n\n"


def _fragment_event(seq: int, fragment: Fragment | None) -> str:
    """The part's new HTML (each of its lines a ``data:`` line), or the plain announcement
    when it could not be rendered here (the screen refetches it)."""
    if fragment is None or fragment.status != 200:
        if fragment is not None and fragment.stop:
            return f"id: {seq}\nevent: stop\ndata: {fragment.status}\n\n"
        return _event(seq)
    lines = "".join(f"data: {line}\n" for line in fragment.html.splitlines() or [""])
    stop = "event: stop\ndata: 200\n\n" if fragment.stop else ""
    return f"id: {seq}\nevent: fragment\n{lines}\n{stop}"


def _opening(since: int) -> str:
    # The retry delay the browser waits before reconnecting, and the id it reconnects with.
    return f"retry: {settings.LIVE_RETRY_MS}\nid: {since}\n\n"


def _timing() -> tuple[float, float]:
    """When the stream ends (the browser reconnects at once, with its last id: long-lived
    connections spread again over the processes after a restart or a scale-out) and how long it
    may stay quiet."""
    lifetime = float(settings.LIVE_STREAM_SECONDS)
    return time.monotonic() + lifetime, min(float(settings.LIVE_KEEPALIVE_SECONDS), lifetime)


@dataclass(frozen=True)
class Watch:
    topics: frozenset[str]
    since: int
    fragment: str | None  # a public part's URL: its HTML goes in the stream
    meta: dict[str, Any]


async def _async_events(watch: Watch) -> AsyncIterator[str]:
    ends, quiet = _timing()
    yield _opening(watch.since)
    # A screen told to refetch is told once the screens that get the HTML have it: however
    # many there are, they add nothing to the others' wait.
    after = renders().settled if watch.fragment is None else None
    async for seq in bus.changes(watch.topics, watch.since, quiet, after):
        if seq is None:
            yield ": keep-alive\n\n"
        elif watch.fragment is None:
            yield _event(seq)
        else:
            yield _fragment_event(seq, await renders().get(watch.fragment, seq, watch.meta))
        if time.monotonic() >= ends:
            return


def _render_alone(path: str, meta: dict[str, Any]) -> Fragment | None:
    """A render on the stream's own thread (a threaded server), whose database connection is
    closed after it: a thread held by a screen does not hold a connection too."""
    try:
        return render(path, meta)
    finally:
        connections.close_all()


def _blocking_events(watch: Watch) -> Iterator[str]:
    ends, quiet = _timing()
    yield _opening(watch.since)
    for seq in bus.changes_blocking(watch.topics, watch.since, quiet):
        if seq is None:
            yield ": keep-alive\n\n"
        elif watch.fragment is None:
            yield _event(seq)
        else:
            yield _fragment_event(seq, _render_alone(watch.fragment, watch.meta))
        if time.monotonic() >= ends:
            return


async def _async_held(events: AsyncIterator[str], place: Place) -> AsyncIterator[str]:
    try:
        async for event in events:
            yield event
    finally:
        place.release()


def _blocking_held(events: Iterator[str], place: Place) -> Iterator[str]:
    try:
        yield from events
    finally:
        place.release()


def _number(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() and len(value) < 19 else None


def last_event_id(request: HttpRequest) -> int:
    """The last change a reconnecting client saw (``Last-Event-ID``), else the ``since`` the
    page was rendered with, else 0."""
    since = _number(request.headers.get("Last-Event-ID"))
    return since if since is not None else _number(request.GET.get("since")) or 0


def _full() -> HttpResponse:
    """A process holding all the streams it can: the screen is told to come back later (it
    polls meanwhile), rather than its connection being reset."""
    response = HttpResponse(
        "This server holds all the live screens it can: try again later.",
        status=503,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def event_stream(
    request: HttpRequest, watch: Watch, full: Callable[[], HttpResponse] = _full
) -> HttpResponse | StreamingHttpResponse:
    """The answer that streams ``watch``'s changes (asynchronous under an ASGI server, a thread
    of its own under a threaded one); ``full()`` (a 503) when this process holds all the streams
    it can."""
    place = streams.admit()
    if place is None:
        return full()
    if isinstance(request, ASGIRequest):
        events: AsyncIterator[str] | Iterator[str] = _async_held(_async_events(watch), place)
    else:
        events = _blocking_held(_blocking_events(watch), place)
    # A stream cut off before it started runs no finally: its place is given back when the
    # generator is collected.
    weakref.finalize(events, place.release)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


@require_GET
def stream(request: HttpRequest) -> HttpResponse:
    try:
        topics = frozenset(
            signing.loads(
                request.GET.get("t", ""), salt=SALT, max_age=settings.LIVE_TOKEN_MAX_AGE_SECONDS
            )
        )
    except signing.SignatureExpired:
        return HttpResponse("t: this stream's token has expired; reload the page", status=400)
    except signing.BadSignature:
        return HttpResponse("t: not a stream this site gave out", status=400)
    try:
        fragment = stream_fragment(request.GET["fragment"]) if request.GET.get("fragment") else None
    except UnknownFragment:
        return HttpResponse("fragment: not a page of this site", status=400)
    watch = Watch(topics, last_event_id(request), fragment, dict(request.META))
    return event_stream(request, watch)


@require_GET
def capacity(request: HttpRequest) -> JsonResponse:
    """This live process's streams: how many are open, the most it holds, how many it refused
    since it started, and its open file limit (served by the live process: nginx sends /live/
    to it)."""
    response = JsonResponse(streams.figures())
    response["Cache-Control"] = "no-store"
    return response
