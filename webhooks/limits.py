"""Each club's share of the webhook worker: any account can create a club and endpoints that
answer a byte at a time, and each attempt may hold a webhook process for its whole deadline.

- A club sends at most ``WEBHOOK_SENDS_PER_CLUB`` attempts at once, whichever of its endpoints
  they go to (and one at a time per endpoint): a delivery that finds its club's share taken
  waits, without counting as a failure and without a message of its own, until the attempt that
  frees the slot hands it on, so the club's queued work costs the other clubs a look at a row
  each, not a process held for seconds.
- An endpoint whose attempts keep running out of time is slowed (one attempt a
  ``WEBHOOK_SLOWED_SECONDS``) after ``WEBHOOK_SLOW_AFTER_TIMEOUTS`` in a row, then paused
  (``WEBHOOK_PAUSED_SECONDS``) after ``WEBHOOK_PAUSE_AFTER_TIMEOUTS``; its health says so on the
  settings page and in the API, and any answer in time brings it back.
- Pings, redeliveries and replays, the sends an organiser asks for by hand, are limited per
  club."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import ngettext

from clubs.models import AuditEntry, Club
from config.errors import TooManyRequests
from webhooks.models import PING, Endpoint, Event

WINDOW = timedelta(minutes=1)


def manual_send_check(*, club: Club) -> None:
    """Refuse (429) a ping, redelivery or replay once the club has sent
    ``WEBHOOK_MANUAL_SENDS_PER_MINUTE`` in the last minute. Counted from the rows those sends
    write (ping events, redelivery and replay audit entries), with the club's row locked in the
    caller's transaction, so two at once cannot both take the last one."""
    limit = settings.WEBHOOK_MANUAL_SENDS_PER_MINUTE
    Club.objects.select_for_update(no_key=True).filter(pk=club.pk).exists()
    since = timezone.now() - WINDOW
    pings = Event.objects.filter(club=club, name=PING, created_at__gte=since).count()
    redeliveries = AuditEntry.objects.filter(
        club=club,
        action__in=("webhook.redeliver", "webhook.replay"),
        created_at__gte=since,
    ).count()
    if pings + redeliveries >= limit:
        raise TooManyRequests(
            ngettext(
                "at most %(limit)d ping, redelivery or replay a minute per club; try again in a "
                "minute",
                "at most %(limit)d pings, redeliveries and replays a minute per club; try again "
                "in a minute",
                limit,
            )
            % {"limit": limit},
            retry_after=int(WINDOW.total_seconds()),
        )


def look_again() -> timedelta:
    """How long a delivery that finds its endpoint or club busy waits at most: the attempt that
    frees the slot sends the next one at once; this is for a worker that died holding it."""
    return timedelta(seconds=settings.WEBHOOK_CLAIM_SECONDS)


def _club_lock(club_id: int) -> None:
    """Serialise the share checks of one club (an advisory lock, not the club's row, which a
    rating replay may hold for seconds). SQLite has one writer at a time anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(4747, %s)", [club_id])


def send_slot_claim(*, endpoint: Endpoint) -> datetime | None:
    """Take a sending slot for ``endpoint``: ``None`` when taken (the endpoint's lease held
    until ``WEBHOOK_CLAIM_SECONDS`` from now, released by ``send_slot_release``), otherwise when
    to look again: the end of a slowdown or pause, or a second from now when the endpoint or
    its club's share is busy. The lease outlasts the task's time limit; a worker that dies
    holding it lets it lapse."""
    now = timezone.now()
    with transaction.atomic():
        _club_lock(endpoint.club_id)
        row = Endpoint.objects.filter(pk=endpoint.pk).values("sending_until", "resume_at").first()
        if row is None:
            return None  # deleted meanwhile: the attempt finds it disabled
        if row["resume_at"] is not None and row["resume_at"] > now:
            return row["resume_at"]
        if row["sending_until"] is not None and row["sending_until"] >= now:
            return now + look_again()
        sending = Endpoint.objects.filter(club_id=endpoint.club_id, sending_until__gte=now)
        if sending.count() >= settings.WEBHOOK_SENDS_PER_CLUB:
            return now + look_again()
        lease = now + timedelta(seconds=settings.WEBHOOK_CLAIM_SECONDS)
        Endpoint.objects.filter(pk=endpoint.pk).update(sending_until=lease)
    return None


def club_sending(*, club_id: int) -> bool:
    """Whether an attempt of the club is in flight (a slot leased and not yet released)."""
    return Endpoint.objects.filter(club_id=club_id, sending_until__gte=timezone.now()).exists()


def send_slot_release(*, endpoint_id: int) -> None:
    Endpoint.objects.filter(pk=endpoint_id).update(sending_until=None)


def ran_out_of_time(error: str) -> bool:
    """The attempt held its process for the whole deadline (or more)."""
    return error.startswith(("timeout", "answered after the"))


def pace_after_attempt(*, endpoint_id: int, error: str, now: datetime) -> None:
    """After an attempt is recorded (in its transaction): count a timeout, slowing then pausing
    the endpoint; an answer in time, of any kind, ends the count and the slowdown."""
    if not ran_out_of_time(error):
        Endpoint.objects.filter(pk=endpoint_id).exclude(timeouts=0, resume_at=None).update(
            timeouts=0, resume_at=None
        )
        return
    endpoint = Endpoint.objects.select_for_update().filter(pk=endpoint_id).first()
    if endpoint is None:
        return
    timeouts = endpoint.timeouts + 1
    if timeouts >= settings.WEBHOOK_PAUSE_AFTER_TIMEOUTS:
        health, wait = Endpoint.Health.PAUSED, settings.WEBHOOK_PAUSED_SECONDS
    elif timeouts >= settings.WEBHOOK_SLOW_AFTER_TIMEOUTS:
        health, wait = Endpoint.Health.SLOWED, settings.WEBHOOK_SLOWED_SECONDS
    else:
        Endpoint.objects.filter(pk=endpoint_id).update(timeouts=timeouts)
        return
    Endpoint.objects.filter(pk=endpoint_id).update(
        timeouts=timeouts,
        resume_at=now + timedelta(seconds=wait),
        # A disabled endpoint stays disabled.
        health=Case(
            When(health=Endpoint.Health.DISABLED, then=Value(Endpoint.Health.DISABLED)),
            default=Value(health),
        ),
    )
