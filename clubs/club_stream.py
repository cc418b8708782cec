"""Push for score apps: a club's changes as a stream (Server-Sent Events), so an app hears of a
deal's result, a new night or a tournament's round without polling.

The stream is the live screens' own (``live.views``) with one topic, the club's: every change
that a live screen or a webhook hears of is announced to it. Each ``change`` event carries the
change's number as its ``id``; the app then reads what changed since its last sync
(``updated_since``, the tombstones). The caller is checked once, as every club route checks it
(a token bound to other clubs gets 404); the open stream reads no database and holds no
connection. It ends after ``LIVE_STREAM_SECONDS`` and the client reconnects with its
``Last-Event-ID``: a change it missed meanwhile comes at once, and a token revoked or expired
meanwhile is refused at that reconnection."""

from __future__ import annotations

from django.db import connections
from django.http import HttpResponse, HttpResponseBase, JsonResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from clubs.api_kit.permissions import ClubScopedAPIView
from config.api_errors import error_body
from config.openapi import api_operation
from live.capacity import RETRY_AFTER_SECONDS
from live.views import Watch, event_stream, last_event_id

EVENTS_EXAMPLE = (
    'retry: 3000\nid: 4101\n\nid: 4102\nevent: change\ndata: {"id": 4102}\n\n: keep-alive\n\n'
)


class ClubStreamApi(ClubScopedAPIView):
    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        # An SSE client asks for text/event-stream: a refusal is still the API's JSON error.
        return JSONRenderer(), JSONRenderer.media_type

    @api_operation(
        operation_id="clubs_stream",
        summary="A club's changes as they happen",
        description=(
            "Server-Sent Events: an event `change` (its `id` the change's number, its data "
            '`{"id": N}`) after each committed change in the club, a comment every 15 s of '
            "quiet. Reconnect with `Last-Event-ID` to get a change missed meanwhile at once."
        ),
        parameters=[
            OpenApiParameter(
                "since",
                int,
                description="Send a change after this number at once (as Last-Event-ID does).",
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                response=str, description=f"The events, e.g.\n\n```\n{EVENTS_EXAMPLE}```"
            )
        },
    )
    def get(self, request: Request, club_slug: str) -> HttpResponseBase:
        http = request._request
        watch = Watch(frozenset({f"club:{self.club.pk}"}), last_event_id(http), None, {})
        # The caller is checked: the open stream holds no database connection (one inside a
        # transaction is the caller's to end).
        for connection in connections.all(initialized_only=True):
            if not connection.in_atomic_block:
                connection.close()
        return event_stream(http, watch, _full)


def _full() -> HttpResponse:
    """The live server's 503 in the API's error shape, with its Retry-After."""
    response = JsonResponse(
        error_body(
            "unavailable",
            _("this server holds all the streams it can; retry in %(seconds)s seconds")
            % {"seconds": RETRY_AFTER_SECONDS},
            {"unavailable": "live streams", "retry_after_seconds": RETRY_AFTER_SECONDS},
        ),
        status=503,
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
