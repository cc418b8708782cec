"""What an endpoint's URL and events must be: a public address (``webhooks.sending.resolve``),
one endpoint a URL in a club, and event names the service sends."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from clubs.models import Club
from config.errors import InvalidInput
from webhooks.models import EVENTS, Endpoint
from webhooks.sending import Refused, resolve


def url_checked(url: str) -> str:
    url = url.strip()
    try:
        resolve(url)
    except Refused as exc:
        raise InvalidInput("url: " + _(exc.words) % exc.values, code="url_not_allowed") from None
    return url


def url_free_check(*, club: Club, url: str, endpoint: Endpoint | None = None) -> None:
    others = Endpoint.objects.filter(club=club, url=url)
    if endpoint is not None:
        others = others.exclude(pk=endpoint.pk)
    if others.exists():
        raise url_taken(url)


def url_taken(url: str) -> InvalidInput:
    words = _("this club already has a webhook for %(url)s; change that one's events instead")
    message = "url: " + words % {"url": url}
    return InvalidInput(message, code="duplicate_url", details={"url": [message]})


def events_checked(events: Any) -> list[str]:
    if not isinstance(events, list) or not events:
        raise InvalidInput("events: " + _("give at least one event name"))
    unknown = [name for name in events if name not in EVENTS]
    if unknown:
        raise InvalidInput(
            "events: "
            + _("%(event)s is not an event; one of %(events)s")
            % {"event": repr(unknown[0]), "events": ", ".join(EVENTS)},
            code="unknown_event",
        )
    return sorted(set(events), key=EVENTS.index)
