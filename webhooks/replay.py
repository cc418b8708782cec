"""Replay: an endpoint sent again every event of its club since a time, as a receiver that lost
its store (or was added later) asks for. Each event it receives now that happened since then
(still kept: a week) gets one new delivery, created in the order the events happened and handed
to the normal sending path (signed, retried, one attempt at a time per endpoint, a deal's events
in their order). An event already on its way to the endpoint (a pending delivery) is not queued
twice."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.audit import audit_record
from config.errors import Conflict, InvalidInput
from webhooks.limits import manual_send_check
from webhooks.models import PING, Delivery, Endpoint, Event
from webhooks.services import _send, api_time

#: Events are kept a week (``attempts_prune``): a replay reaches no further back.
REPLAY_WINDOW = timedelta(days=7)
#: The most events one replay queues: a larger one is asked for in parts (a later ``since``).
REPLAY_MOST = 5000
REPLAY_ACTION = "webhook.replay"


@dataclass(frozen=True)
class Replay:
    since: datetime
    until: datetime
    events: int  # deliveries queued, one per event
    pending: int  # events left alone: a delivery of theirs to the endpoint is still pending


def _since_refused(message: str) -> InvalidInput:
    return InvalidInput(f"since: {message}", code="bad_replay_since", details={"since": [message]})


def _check_since(since: datetime, now: datetime) -> None:
    # Said as given: a time at the edge of the calendar (year 1 or 9999) has no UTC form.
    given = since.isoformat()
    try:
        future, too_old = since > now, since < now - REPLAY_WINDOW
    except OverflowError:  # its offset takes it past the calendar's edge
        future, too_old = since.year > now.year, since.year < now.year
    if future:
        raise _since_refused(_("%(time)s is in the future") % {"time": given})
    if too_old:
        days = REPLAY_WINDOW.days
        words = ngettext(
            "%(time)s is more than %(days)d day ago (events are kept %(days)d day); give "
            "%(earliest)s or later",
            "%(time)s is more than %(days)d days ago (events are kept %(days)d days); give "
            "%(earliest)s or later",
            days,
        )
        raise _since_refused(
            words % {"time": given, "days": days, "earliest": api_time(now - REPLAY_WINDOW)}
        )


def replay_since(*, endpoint: Endpoint, since: datetime, actor: AbstractBaseUser) -> Replay:
    """Queue, to ``endpoint``, one delivery of each event of its club it receives that happened
    at or after ``since`` (up to now), oldest first. Counted as one of the club's manual sends
    (pings, redeliveries: limited per minute)."""
    now = timezone.now()
    _check_since(since, now)
    if not endpoint.enabled:
        raise Conflict(
            _("this webhook is disabled: enable it before replaying its events"),
            code="endpoint_disabled",
        )
    with transaction.atomic():
        manual_send_check(club=endpoint.club)
        events = Event.objects.filter(
            club=endpoint.club, created_at__gte=since, created_at__lte=now,
            name__in=[name for name in endpoint.events if name != PING],
        )  # fmt: skip
        on_their_way = set(
            Delivery.objects.filter(
                endpoint=endpoint, status=Delivery.Status.PENDING, event__in=events
            ).values_list("event_id", flat=True)
        )
        chosen = [
            event_id
            for event_id in events.order_by("created_at", "id").values_list("id", flat=True)
            if event_id not in on_their_way
        ]
        if len(chosen) > REPLAY_MOST:
            words = ngettext(
                "%(count)d event since %(time)s, more than %(most)d at once: replay from a "
                "later time first",
                "%(count)d events since %(time)s, more than %(most)d at once: replay from a "
                "later time first",
                len(chosen),
            )
            raise _since_refused(
                words % {"count": len(chosen), "time": api_time(since), "most": REPLAY_MOST}
            )
        deliveries = Delivery.objects.bulk_create(
            Delivery(endpoint=endpoint, event_id=event_id, created_at=now, next_attempt_at=now)
            for event_id in chosen
        )
        audit_record(
            actor=actor, club=endpoint.club, action=REPLAY_ACTION, obj=endpoint,
            after={"since": api_time(since), "until": api_time(now), "events": len(chosen)},
        )  # fmt: skip
        # The deliveries' ids follow the events' order; each goes the way of a live one.
        for delivery in deliveries:
            _send(delivery.pk)
    return Replay(since=since, until=now, events=len(chosen), pending=len(on_their_way))
