"""A public page's live part sent in its stream, rendered once per change per process.

A screen of a public page (standings, projectors, a tournament's public page) names the part it
shows (its ``data-live-url``); where that URL's view is marked ``public_fragment`` (it shows the
same to anyone, signed in or not), the stream process renders it once when a change is
announced and sends the HTML to every screen showing it, instead of every screen asking for it
again at the same moment. The renders of a process run one at a time on one thread of their
own, so a stream process holds at most one database connection, whatever its screens."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import close_old_connections
from django.http import Http404, HttpRequest, QueryDict
from django.urls import Resolver404, resolve

logger = logging.getLogger("rummyclub.live")

View = TypeVar("View", bound=Callable[..., Any])

#: What a render may copy of the stream's request: the host and scheme the page was asked with.
META_KEPT = ("HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "HTTP_X_FORWARDED_PROTO", "REMOTE_ADDR")
KEPT_RENDERS = 1000

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


def is_public(path: str) -> bool:
    parts = urlsplit(path)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return False
    try:
        return bool(getattr(resolve(parts.path).func, "live_public", False))
    except Resolver404:
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
        return await asyncio.shield(task)

    async def _render(self, path: str, seq: int, meta: dict[str, Any]) -> Fragment | None:
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
