"""The webhook events as the API schema describes them (OpenAPI 3.1 ``webhooks``): every event's
body is one envelope (``id``, ``event``, ``created_at``, ``club``, ``data``) and each event its
own component, ``<Name>Event``, with its ``data`` typed. Each app declares the events it sends
with ``event_webhook``; the settings list them (``SPECTACULAR_SETTINGS["WEBHOOKS"]``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiResponse,
    OpenApiWebhook,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers

from webhooks.models import EVENTS, PING

SIGNED = (
    "Signed to the Standard Webhooks specification: `webhook-id` (the delivery), "
    "`webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "
    "<id>.<timestamp>.<body>>` with the endpoint's secret); `X-Rummyclub-Event` names the "
    "event. Answer any 2xx within the timeout; anything else is retried with backoff."
)


class EventEnvelope(serializers.Serializer[dict]):
    """What every delivery's body holds; ``data`` is the event's own."""

    id = serializers.UUIDField(help_text="The event's id: the same in every delivery of it.")
    created_at = serializers.DateTimeField(help_text="When the change happened (UTC).")
    club = serializers.SlugField(help_text="The club's slug.")


def _event_name_field(name: str) -> serializers.Field[Any, Any, Any, Any]:
    """The ``event`` of one event's body: the name alone (a constant, so the body's type can be
    told from it)."""

    @extend_schema_field({"type": "string", "const": name})
    class EventName(serializers.CharField):
        pass

    return EventName(help_text="The event's name.")


def component_name(name: str) -> str:
    """``deal.scored`` -> ``DealScoredEvent``."""
    parts = name.replace(".", "_").split("_")
    return "".join(part.capitalize() for part in parts) + "Event"


def event_webhook(
    name: str, data: serializers.Serializer[dict], description: str
) -> OpenApiWebhook:
    """The schema's description of the event ``name`` with its ``data``."""
    if name not in (*EVENTS, PING):
        raise ValueError(f"{name!r} is not a webhook event")
    envelope = type(
        component_name(name),
        (EventEnvelope,),
        {
            "__doc__": description,
            "event": _event_name_field(name),
            "data": data,
            "__module__": __name__,
        },
    )
    return OpenApiWebhook(
        name=name,
        decorator=extend_schema(
            summary=name,
            description=f"{description}\n\n{SIGNED}",
            request=envelope,
            responses={200: OpenApiResponse(description="Received (any 2xx answer will do).")},
        ),
    )


class PingData(serializers.Serializer[dict]):
    endpoint = serializers.IntegerField(help_text="The endpoint pinged.")
    by = serializers.CharField(help_text="Who asked for the ping (a username).")


class StandingsChangedData(serializers.Serializer[dict]):
    club = serializers.SlugField()
    url = serializers.URLField(help_text="The club's standings in the API.")
    since = serializers.DateTimeField(
        help_text="The first change this event reports (events are at most one per club per "
        "debounce window)."
    )


ping = event_webhook(
    PING, PingData(), "A test delivery an organiser asked for; it goes to one endpoint."
)
standings_changed = event_webhook(
    "standings.changed",
    StandingsChangedData(),
    "The club's standings changed (one event for every change within the debounce window).",
)
