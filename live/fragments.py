"""A public page's live part sent in its stream, rendered once per change per process.

A screen of a public page (standings, projectors, a tournament's public page) names the part it
shows (its ``data-live-url``); where that URL's view is marked ``public_fragment`` (it shows the
same to anyone, signed in or not), the stream process renders it once when a change is
announced and sends the HTML to every screen showing it, instead of every screen asking for it
again at the same moment. The renders of a process run one at a time on one thread of their
own, so a stream process holds at most one database connection, whatever its screens."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlencode, urlsplit

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import close_old_connections
from django.http import Http404, HttpRequest, QueryDict
from django.urls import Resolver404, resolve

from live.capacity import streams

logger = logging.getLogger("rummyclub.live")

View = TypeVar("View", bound=Callable[..., Any])

#: What a render may copy of the stream's request: the host and scheme the page was asked with.
META_KEPT = ("HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "HTTP_X_FORWARDED_PROTO", "REMOTE_ADDR")
KEPT_RENDERS = 1000
#: The longest a screen told to refetch waits for the renders of its change.
SETTLE_SECONDS = 2.0

_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-render")


def public_fragment(view: View) -> View:
    """Marks a view whose answer is the same for anyone (no user, no session, no form): its
    live screens get it in their stream."""
    view.live_public = True  # type: ignore[attr-defined]
    return view


@dataclass(frozen=True)
class Fragment:
    status: int
    html: str
    stop: bool  # nothing more will change (the view said X-Live-Stop)


#: The query a public part's stream may carry: its projector view. Any other query (a player's
#: own view, a season picked, or anything at all) is refetched by the screen itself, so a
#: process renders at most two parts per page and change, whatever the query strings asked.
STREAM_QUERIES = {"view": {"projector"}}


class UnknownFragment(ValueError):
    """A part that is no page of this site: its stream is refused."""


def stream_fragment(path: str) -> str | None:
    """The public part whose HTML a stream of ``path`` carries (its path with the one query
    it may have), or None when the screen refetches the part itself (a members' part, another
    query); raises UnknownFragment for a URL that is no page here."""
    parts = urlsplit(path)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.fragment:
        raise UnknownFragment(path)
    try:
        match = resolve(parts.path)
    except Resolver404:
        raise UnknownFragment(path) from None
    if not getattr(match.func, "live_public", False):
        return None
    asked = {name: set(values) for name, values in parse_qs(parts.query, True).items()}
    if any(values != STREAM_QUERIES.get(name) for name, values in asked.items()):
        return None
    query = urlencode(sorted((name, min(values)) for name, values in asked.items()))
    return f"{parts.path}?{query}" if query else parts.path


def is_public(path: str) -> bool:
    try:
        return stream_fragment(path) is not None
    except UnknownFragment:
        return False


def render(path: str, meta: dict[str, Any]) -> Fragment | None:
    """The view's answer for an anonymous GET of ``path``; None when it is not a public
    fragment or failed (the screens then refetch it themselves)."""
    if not is_public(path):
        return None
    close_old_connections()  # this thread's connection, found dead or too old, is replaced
    parts = urlsplit(path)
    match = resolve(parts.path)
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = parts.path
    request.GET = QueryDict(parts.query)
    request.META = {key: meta[key] for key in META_KEPT if key in meta}
    request.META.update(REQUEST_METHOD="GET", PATH_INFO=parts.path, QUERY_STRING=parts.query)
    request.user = AnonymousUser()
    try:
        response = match.func(request, *match.args, **match.kwargs)
    except (Http404, PermissionDenied):
        return Fragment(404, "", stop=True)
    except Exception:
        logger.exception("live: %s not rendered; its screens refetch it", path)
        return None
    stop = bool(response.get("X-Live-Stop"))
    return Fragment(response.status_code, response.content.decode(), stop)


class Renders:
    """One process's renders: the newest per fragment, and those under way, so that the
    screens woken by one change share one render."""

    def __init__(self) -> None:
        self.done: dict[str, tuple[int, Fragment | None]] = {}
        self.pending: dict[tuple[str, int], asyncio.Task[Fragment | None]] = {}
        self.idle = asyncio.Event()
        self.idle.set()

    async def settled(self) -> None:
        """Wait until the renders of the changes announced so far are out (at most
        SETTLE_SECONDS): a screen told to refetch is told after the screens that get the HTML,
        so that however many such screens there are, they add nothing to the others' wait."""
        await asyncio.sleep(0)  # the screens woken by the same change start their renders first
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle.wait(), SETTLE_SECONDS)

    def _finished(self, task: asyncio.Task[Fragment | None]) -> None:
        # One turn of the loop later: the screens waiting on the render are woken first.
        task.get_loop().call_soon(self._check_idle)

    def _check_idle(self) -> None:
        if not self.pending:
            self.idle.set()

    async def get(self, path: str, seq: int, meta: dict[str, Any]) -> Fragment | None:
        done = self.done.get(path)
        if done is not None and done[0] >= seq:
            return done[1]  # rendered after this change was announced: it holds it
        key = (path, seq)
        task = self.pending.get(key)
        if task is None:
            # A task of its own: a screen that goes away does not cancel the others' render.
            task = asyncio.get_running_loop().create_task(self._render(path, seq, meta))
            self.pending[key] = task
            self.idle.clear()
            task.add_done_callback(self._finished)
        return await asyncio.shield(task)

    async def _render(self, path: str, seq: int, meta: dict[str, Any]) -> Fragment | None:
        streams.renders += 1
        try:
            result = await asyncio.get_running_loop().run_in_executor(_executor, render, path, meta)
        except Exception:
            logger.exception("live: %s not rendered", path)
            result = None
        finally:
            self.pending.pop((path, seq), None)
        if len(self.done) >= KEPT_RENDERS:
            self.done.clear()
        self.done[path] = (seq, result)
        return result


_renders: dict[asyncio.AbstractEventLoop, Renders] = {}


def renders() -> Renders:
    loop = asyncio.get_running_loop()
    found = _renders.get(loop)
    if found is None:
        for old in [other for other in _renders if other.is_closed()]:
            del _renders[old]
        found = _renders[loop] = Renders()
    return found
