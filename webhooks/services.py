"""Webhooks: endpoints kept by organisers, events written in the transaction of the change that
causes them, and their delivery.

Delivery, at least once: ``event_emit`` writes the event and a delivery per subscribed endpoint,
and sends each through the outbox (so a broker outage loses nothing). ``delivery_attempt`` claims
a due delivery by compare-and-set (two workers never send the same attempt), waits while an
earlier event of the same order key (a deal) is still undelivered to that endpoint, POSTs it
signed (Standard Webhooks), and on failure (any answer but a 2xx, 4xx included) marks the
endpoint failing with the error and schedules the next attempt with exponential back-off and
jitter until the retry window (24 h) ends; then the event is given up on, and the endpoint is
disabled after repeated events given up on. ``deliveries_sweep`` (beat) sends whatever is due,
which covers a lost message and a worker that died holding a claim. A receiver may see an event
twice (a worker killed after the POST, before recording it): the event id tells duplicates
apart."""

from __future__ import annotations

import json
import logging
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from clubs.models import Club
from config.celery import app
from config.errors import Conflict
from live.bus import publish as live_publish
from outbox.services import outbox_enqueue
from webhooks import embedded
from webhooks.endpoint_checks import events_checked, url_checked, url_free_check, url_taken
from webhooks.limits import (
    club_sending,
    look_again,
    manual_send_check,
    pace_after_attempt,
    send_slot_claim,
    send_slot_release,
)
from webhooks.models import PING, Attempt, Delivery, Endpoint, Event, StandingsChange
from webhooks.sending import (
    post,
    secret_checked,
    secret_new,
    signature,
    standard_signature,
)

logger = logging.getLogger("rummyclub.webhooks")

DELIVER_TASK = "webhooks.deliver"
KEEP_ATTEMPTS = 100  # per endpoint, for its delivery log
ENDPOINT_FIELDS = ["url", "events", "enabled"]


# --- endpoints -------------------------------------------------------------------------------


@transaction.atomic
def endpoint_create(
    *, club: Club, actor: AbstractBaseUser, url: str, events: list[str], secret: str = ""
) -> Endpoint:
    """A new endpoint, the club's only one for its URL; its secret is generated when none is
    given (and shown once)."""
    url = url_checked(url)
    url_free_check(club=club, url=url)
    try:
        with transaction.atomic():
            endpoint = Endpoint.objects.create(
                club=club,
                url=url,
                events=events_checked(events),
                secret=secret_checked(secret) if secret else secret_new(),
                created_by=actor,
            )
    except IntegrityError:  # the same URL added at the same moment
        raise url_taken(url) from None
    audit_record(
        actor=actor, club=club, action="webhook.create", obj=endpoint,
        after={"url": endpoint.url, "events": endpoint.events},
    )  # fmt: skip
    return endpoint


@transaction.atomic
def endpoint_update(*, endpoint: Endpoint, actor: AbstractBaseUser, **changes: Any) -> Endpoint:
    """Change the URL, the events or whether it is enabled; enabling it again clears its
    failing state (the organiser fixed the receiver)."""
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
    before = {name: getattr(endpoint, name) for name in ENDPOINT_FIELDS}
    if "url" in changes:
        endpoint.url = url_checked(changes["url"])
        url_free_check(club=endpoint.club, url=endpoint.url, endpoint=endpoint)
    if "events" in changes:
        endpoint.events = events_checked(changes["events"])
    if "enabled" in changes:
        endpoint.enabled = bool(changes["enabled"])
        if endpoint.enabled:
            endpoint.health, endpoint.failing_since = Endpoint.Health.OK, None
            endpoint.failures, endpoint.given_up, endpoint.last_error = 0, 0, ""
            endpoint.timeouts, endpoint.resume_at = 0, None
    try:
        with transaction.atomic():
            endpoint.save()
    except IntegrityError:  # another endpoint took the URL at the same moment
        raise url_taken(endpoint.url) from None
    audit_record(
        actor=actor, club=endpoint.club, action="webhook.update", obj=endpoint, before=before,
        after={name: getattr(endpoint, name) for name in ENDPOINT_FIELDS},
    )  # fmt: skip
    return endpoint


@transaction.atomic
def endpoint_secret_set(
    *, endpoint: Endpoint, actor: AbstractBaseUser, secret: str = "", enable: bool = True
) -> Endpoint:
    """Give the endpoint a new secret, the one given (the one its receiver checks) or a new one
    (shown once), and enable it unless told not to: how an endpoint restored from an archive
    (which holds no secret, so it comes in disabled) sends again, its history kept."""
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
    endpoint.secret = secret_checked(secret) if secret else secret_new()
    endpoint.save(update_fields=["secret"])
    audit_record(
        actor=actor, club=endpoint.club, action="webhook.secret", obj=endpoint,
        after={"secret": "given" if secret else "new"},
    )  # fmt: skip
    if enable and not endpoint.enabled:
        endpoint = endpoint_update(endpoint=endpoint, actor=actor, enabled=True)
    return endpoint


@transaction.atomic
def endpoint_delete(*, endpoint: Endpoint, actor: AbstractBaseUser) -> None:
    audit_record(
        actor=actor, club=endpoint.club, action="webhook.delete", obj=endpoint,
        before={"url": endpoint.url, "events": endpoint.events},
    )  # fmt: skip
    endpoint.delete()


# --- events ----------------------------------------------------------------------------------


def _send(delivery_id: int) -> None:
    """The delivery's first attempt, once the transaction commits: through the outbox to a
    worker, or in-process after the request's answer (``webhooks.embedded``)."""
    if app.conf.task_always_eager:
        transaction.on_commit(
            lambda: embedded.hand_off(lambda: delivery_attempt(delivery_id=delivery_id))
        )
        return
    outbox_enqueue(task=DELIVER_TASK, args=[delivery_id], key=f"webhook:{delivery_id}")


def api_url(path: str) -> str:
    """The absolute URL of an API path (``/api/v1/...``), as events carry them."""
    return settings.PUBLIC_URL.rstrip("/") + path


def api_time(moment: datetime) -> str:
    """A time as the API writes it: ISO 8601 in UTC, ending ``Z``."""
    return moment.astimezone(UTC).isoformat().removesuffix("+00:00") + "Z"


def endpoints_listening(*, club: Club) -> list[Endpoint]:
    """The club's enabled endpoints (one read, for all the events of one change)."""
    return list(Endpoint.objects.filter(club=club, enabled=True).only("pk", "events"))


#: What an event's data may name, each a topic of the live screens (``session:12``).
LIVE_KINDS = ("session", "game", "deal", "tournament")


def live_topics(*, club: Club, data: dict[str, Any]) -> list[str]:
    """The live topics an event concerns: its club's (the standings) and each thing it names."""
    named = [f"{kind}:{data[kind]}" for kind in LIVE_KINDS if data.get(kind) is not None]
    return [f"club:{club.pk}", *named]


def event_emit(
    *,
    club: Club,
    name: str,
    data: dict[str, Any],
    order_key: str = "",
    endpoints: list[Endpoint] | None = None,
) -> Event | None:
    """Record that ``name`` happened, in the caller's transaction, with a delivery to every
    enabled endpoint of the club that receives it (of ``endpoints`` when the caller read them).
    Nothing is written when none does. The live screens showing what it names hear of it after
    the commit, whatever the endpoints."""
    live_publish(live_topics(club=club, data=data))
    if endpoints is None:
        endpoints = endpoints_listening(club=club)
    endpoints = [e for e in endpoints if name in e.events]
    if not endpoints:
        return None
    event = Event.objects.create(club=club, name=name, data=data, order_key=order_key)
    for endpoint in endpoints:
        _send(Delivery.objects.create(endpoint=endpoint, event=event).pk)
    return event


def ping_send(*, endpoint: Endpoint, actor: AbstractBaseUser) -> Delivery:
    """A ``ping`` to this endpoint alone, whatever it subscribes to (limited per club)."""
    with transaction.atomic():
        manual_send_check(club=endpoint.club)
        event = Event.objects.create(
            club=endpoint.club,
            name=PING,
            data={"endpoint": endpoint.pk, "by": actor.get_username()},
        )
        delivery = Delivery.objects.create(endpoint=endpoint, event=event)
        _send(delivery.pk)
    return delivery


def redeliver(*, delivery: Delivery, actor: AbstractBaseUser) -> Delivery:
    """The same event (same id, same body) again, as a new delivery series (limited per
    club)."""
    if delivery.status == Delivery.Status.PENDING:
        raise Conflict(_("this delivery is still being attempted"), code="delivery_pending")
    with transaction.atomic():
        manual_send_check(club=delivery.endpoint.club)
        again = Delivery.objects.create(endpoint=delivery.endpoint, event=delivery.event)
        audit_record(
            actor=actor, club=delivery.endpoint.club, action="webhook.redeliver", obj=again,
            after={"event": str(delivery.event_id), "of": str(delivery.delivery_id)},
        )  # fmt: skip
        _send(again.pk)
    return again


def standings_changed(*, club: Club, endpoints: list[Endpoint] | None = None) -> None:
    """The club's standings changed: one ``standings.changed`` goes out when the debounce window
    (opened by the first change after the last one sent) ends, however many changes come
    meanwhile, whether tasks run on a worker (beat's sweep flushes it) or in-process (the
    embedded thread does)."""
    if endpoints is None:
        endpoints = endpoints_listening(club=club)
    if not any("standings.changed" in e.events for e in endpoints):
        return
    due = timezone.now() + timedelta(seconds=settings.WEBHOOK_STANDINGS_DEBOUNCE_SECONDS)
    # Locked: a flush sending the club's window now either finishes first (the row is gone and
    # this change opens the next window) or waits for this change to commit, so no change is
    # left out of every event.
    StandingsChange.objects.select_for_update().get_or_create(club=club, defaults={"due_at": due})
    if app.conf.task_always_eager:
        transaction.on_commit(lambda: embedded.hand_off(None))


def _standings_data(club: Club) -> dict[str, Any]:
    return {"club": club.slug, "url": api_url(f"/api/v1/clubs/{club.slug}/standings/")}


def standings_flush() -> int:
    """Send the ``standings.changed`` events whose debounce window has ended."""
    sent = 0
    with transaction.atomic():
        due = list(
            StandingsChange.objects.select_for_update(skip_locked=True)
            .select_related("club")
            .filter(due_at__lte=timezone.now())
        )
        for change in due:
            data = {**_standings_data(change.club), "since": api_time(change.first_at)}
            event_emit(club=change.club, name="standings.changed", data=data)
            change.delete()
            sent += 1
    return sent


def due_work_send() -> float | None:
    """The in-process stand-in for beat's sweep (``webhooks.embedded``): the standings events
    due, then the deliveries due; the seconds until more falls due, ``None`` when nothing is
    pending."""
    standings_flush()
    deliveries_sweep()
    pending = Delivery.objects.filter(status=Delivery.Status.PENDING).order_by("next_attempt_at")
    soonest = [
        moment
        for moment in (
            pending.values_list("next_attempt_at", flat=True).first(),
            StandingsChange.objects.order_by("due_at").values_list("due_at", flat=True).first(),
        )
        if moment is not None
    ]
    if not soonest:
        return None
    return max(0.05, (min(soonest) - timezone.now()).total_seconds())


# --- delivery --------------------------------------------------------------------------------


def body_of(event: Event) -> bytes:
    """The body of every delivery of ``event``: the same bytes each time."""
    document = {
        "id": str(event.id),
        "event": event.name,
        "created_at": api_time(event.created_at),
        "club": event.club.slug,
        "data": event.data,
    }
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode()


def backoff(attempts: int) -> float:
    """Seconds before the next attempt after ``attempts`` failures: doubling from the base, at
    most an hour, with up to a fifth of jitter either way."""
    base = float(settings.WEBHOOK_BACKOFF_BASE_SECONDS)
    delay = min(base * 2 ** (attempts - 1), 3600.0)
    return delay * random.uniform(0.8, 1.2)


def _claim(delivery_id: int) -> bool:
    """Compare-and-set: the delivery is this worker's until the lease ends, if it is due."""
    now = timezone.now()
    lease = now + timedelta(seconds=settings.WEBHOOK_CLAIM_SECONDS)
    return bool(
        Delivery.objects.filter(
            Q(claimed_until__isnull=True) | Q(claimed_until__lt=now),
            pk=delivery_id,
            status=Delivery.Status.PENDING,
            next_attempt_at__lte=now,
        ).update(claimed_until=lease)
    )


def _waiting_on(delivery: Delivery) -> Delivery | None:
    """An earlier delivery to the same endpoint of an event of the same order key not yet
    delivered (or given up on): this one waits for it."""
    if not delivery.event.order_key:
        return None
    return (
        Delivery.objects.filter(
            endpoint_id=delivery.endpoint_id,
            event__order_key=delivery.event.order_key,
            status=Delivery.Status.PENDING,
            pk__lt=delivery.pk,
        )
        .order_by("pk")
        .first()
    )


def delivery_attempt(*, delivery_id: int) -> str:
    """One attempt of a delivery, if it is due and unclaimed: ``delivered``, ``retry``,
    ``abandoned``, ``waiting`` (an earlier event of its deal goes first), ``busy`` (another
    attempt to the endpoint is under way) or ``skipped``."""
    if not _claim(delivery_id):
        return "skipped"
    delivery = Delivery.objects.select_related("endpoint__club", "event__club").get(pk=delivery_id)
    endpoint = delivery.endpoint
    earlier = _waiting_on(delivery)
    if earlier is not None:
        # Look again shortly; the earlier one's success sends this at once.
        Delivery.objects.filter(pk=delivery.pk).update(
            claimed_until=None, next_attempt_at=timezone.now() + timedelta(seconds=1)
        )
        return "waiting"
    if not endpoint.enabled:
        Delivery.objects.filter(pk=delivery.pk).update(
            status=Delivery.Status.ABANDONED, claimed_until=None
        )
        return "abandoned"
    look_again = send_slot_claim(endpoint=endpoint)
    if look_again is not None:
        # The endpoint is busy, slowed or paused, or its club has its share of attempts in
        # flight: not a failure. It waits, without a message of its own (a club's queued
        # deliveries would otherwise be looked at again and again by the processes the other
        # clubs need): the attempt that frees the slot hands it on (``_hand_on``), the sweep
        # sends it when ``look_again`` comes.
        Delivery.objects.filter(pk=delivery.pk).update(
            claimed_until=None, next_attempt_at=look_again
        )
        # The attempt that held the slot may have freed it, and found nothing to hand on,
        # while this delivery was still claimed: looked at again now that it waits, the slot
        # is either still taken (its attempt will see this one) or free (hand it on here).
        if not club_sending(club_id=endpoint.club_id):
            _hand_on(club_id=endpoint.club_id, after=0)
        return "busy"
    try:
        outcome, delay = _attempt(delivery)
    finally:
        send_slot_release(endpoint_id=endpoint.pk)
        _hand_on(club_id=endpoint.club_id, after=delivery.pk)
    # Sent after the endpoint is free again, or the next one would find it busy.
    if outcome == "retry":
        # The sweep would find it too; this sends it on time when the worker stays up.
        _publish_later(delivery.pk, delay)
    else:
        _release_followers(delivery)
    return outcome


def _hand_on(*, club_id: int, after: int) -> None:
    """The club's sending slot is free: its oldest waiting delivery (to an endpoint neither
    slowed nor paused) goes now. Deliveries that found the slot taken wait ``look_again()``;
    a retry due within that long may go a little early."""
    now = timezone.now()
    waiting = (
        Delivery.objects.filter(
            Q(claimed_until__isnull=True) | Q(claimed_until__lt=now),
            Q(endpoint__resume_at__isnull=True) | Q(endpoint__resume_at__lte=now),
            endpoint__club_id=club_id,
            endpoint__enabled=True,
            status=Delivery.Status.PENDING,
            next_attempt_at__lte=now + look_again(),
        )
        .exclude(pk=after)
        # The oldest first: a delivery that waits for an earlier event of its deal (a
        # correction after its score) would only find that one still pending.
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    if waiting is not None:
        Delivery.objects.filter(pk=waiting).update(next_attempt_at=now)
        if not app.conf.task_always_eager:  # in-process, the embedded sender's next look
            _publish_later(waiting, 0)


def _attempt(delivery: Delivery) -> tuple[str, float]:
    """POST the delivery once and record the answer (the delivery and its endpoint claimed):
    the outcome and, for a retry, its delay."""
    endpoint = delivery.endpoint
    body = body_of(delivery.event)
    message_id, timestamp = str(delivery.event_id), int(timezone.now().timestamp())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "rummyclub-webhooks/1",
        # Standard Webhooks: the event id (the same on every retry and redelivery), the time of
        # this attempt, and the signature over both and the body (a retry is signed anew).
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": standard_signature(endpoint.secret, message_id, timestamp, body),
        "X-Rummyclub-Event": delivery.event.name,
        "X-Rummyclub-Delivery": str(delivery.delivery_id),
        # Deprecated, kept for a release: the body's HMAC alone (replayable for ever).
        "X-Rummyclub-Signature-256": signature(endpoint.secret, body),
    }
    answer = post(endpoint.url, body, headers)
    now, delay = timezone.now(), 0.0
    with transaction.atomic():
        Attempt.objects.create(
            endpoint=endpoint, delivery=delivery, at=now, status_code=answer.status,
            duration_ms=answer.duration_ms, error=answer.error, response_body=answer.body,
        )  # fmt: skip
        attempts = delivery.attempts + 1
        if answer.ok:
            Delivery.objects.filter(pk=delivery.pk).update(
                status=Delivery.Status.DELIVERED, attempts=attempts, delivered_at=now,
                claimed_until=None,
            )  # fmt: skip
            Endpoint.objects.filter(pk=endpoint.pk).exclude(
                failures=0, given_up=0, health=Endpoint.Health.OK
            ).update(
                failures=0, given_up=0, health=Endpoint.Health.OK, failing_since=None,
                last_error="",
            )  # fmt: skip
            outcome = "delivered"
        elif now - delivery.created_at >= timedelta(seconds=settings.WEBHOOK_RETRY_WINDOW_SECONDS):
            Delivery.objects.filter(pk=delivery.pk).update(
                status=Delivery.Status.ABANDONED, attempts=attempts, claimed_until=None
            )
            _endpoint_failed(endpoint.pk, now, answer.error, gave_up=True)
            outcome = "abandoned"
        else:
            delay = backoff(attempts)
            Delivery.objects.filter(pk=delivery.pk).update(
                attempts=attempts, next_attempt_at=now + timedelta(seconds=delay),
                claimed_until=None,
            )  # fmt: skip
            _endpoint_failed(endpoint.pk, now, answer.error, gave_up=False)
            outcome = "retry"
        pace_after_attempt(endpoint_id=endpoint.pk, error=answer.error, now=now)
    return outcome, delay


def _endpoint_failed(endpoint_id: int, now: datetime, error: str, *, gave_up: bool) -> None:
    """Every failed attempt counts: the endpoint is failing from the first one, with its
    error; it is disabled once ``WEBHOOK_DISABLE_AFTER`` events in a row were given up on."""
    Endpoint.objects.filter(pk=endpoint_id).update(
        failures=F("failures") + 1,
        given_up=F("given_up") + int(gave_up),
        last_error=error[:300],
        failing_since=Coalesce(F("failing_since"), now),
        health=Case(
            When(health=Endpoint.Health.DISABLED, then=Value(Endpoint.Health.DISABLED)),
            default=Value(Endpoint.Health.FAILING),
        ),
    )
    if gave_up:
        Endpoint.objects.filter(
            pk=endpoint_id, given_up__gte=settings.WEBHOOK_DISABLE_AFTER
        ).update(health=Endpoint.Health.DISABLED, enabled=False)


def _publish_later(delivery_id: int, delay: float) -> None:
    """Send the delivery's task (after ``delay`` seconds); the sweep is the safety net."""
    if app.conf.task_always_eager:
        if not delay:  # in-process: now; a retry waits for the embedded sender's next look
            delivery_attempt(delivery_id=delivery_id)
        return
    try:
        app.send_task(DELIVER_TASK, args=[delivery_id], countdown=delay, retry=False)
    except Exception as exc:  # the broker is down: the sweep sends it once due
        logger.warning("webhooks: delivery %s not queued (%s); the sweep will", delivery_id, exc)


def _release_followers(delivery: Delivery) -> None:
    """Deliveries that waited for this one (same endpoint, same order key) go now."""
    if not delivery.event.order_key:
        return
    waiting = Delivery.objects.filter(
        endpoint_id=delivery.endpoint_id,
        event__order_key=delivery.event.order_key,
        status=Delivery.Status.PENDING,
        pk__gt=delivery.pk,
    ).values_list("pk", flat=True)
    for follower in waiting:
        Delivery.objects.filter(pk=follower).update(next_attempt_at=timezone.now())
        _publish_later(follower, 0)


def deliveries_sweep(*, limit: int = 500) -> int:
    """Send every delivery that is due and not held by a live claim (beat, every few seconds):
    retries, messages the broker lost, claims of a worker that died."""
    now = timezone.now()
    due = list(
        Delivery.objects.filter(
            Q(claimed_until__isnull=True) | Q(claimed_until__lt=now),
            status=Delivery.Status.PENDING,
            next_attempt_at__lte=now,
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
    for delivery_id in due:
        if app.conf.task_always_eager:
            delivery_attempt(delivery_id=delivery_id)
        else:
            _publish_later(delivery_id, 0)
    return len(due)


def attempts_prune() -> int:
    """Keep each endpoint's last ``KEEP_ATTEMPTS`` attempts, and events nobody still delivers
    after a week."""
    removed = 0
    for endpoint_id in Endpoint.objects.values_list("pk", flat=True):
        keep = Attempt.objects.filter(endpoint_id=endpoint_id).values_list("pk", flat=True)[
            KEEP_ATTEMPTS - 1 : KEEP_ATTEMPTS
        ]
        cutoff = keep.first()
        if cutoff is not None:
            removed += Attempt.objects.filter(endpoint_id=endpoint_id, pk__lt=cutoff).delete()[0]
    week = timezone.now() - timedelta(days=7)
    Event.objects.filter(created_at__lt=week).exclude(deliveries__status="pending").delete()
    return removed
