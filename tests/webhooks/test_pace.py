"""Endpoints that keep timing out are slowed, then paused, and the club is told (the API's health
and the settings page); a club's share of attempts in flight is handed on when it frees."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from webhooks.models import Attempt, Delivery, Endpoint, Event
from webhooks.services import delivery_attempt, endpoint_create

HOOKS = "/api/v1/clubs/home/webhooks/"


def _delivery(endpoint: Endpoint) -> Delivery:
    event = Event.objects.create(club=endpoint.club, name="deal.scored", data={"deal": 1})
    return Delivery.objects.create(endpoint=endpoint, event=event)


def _resume_now(endpoint: Endpoint) -> None:
    """The slowdown or pause has run its course."""
    Endpoint.objects.filter(pk=endpoint.pk).update(resume_at=timezone.now() - timedelta(seconds=1))


@pytest.mark.slow
def test_timeouts_slow_then_pause_an_endpoint_and_an_answer_in_time_ends_it(
    api, standing, settings
):
    from tests.webhooks.receiver import Receiver

    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    settings.WEBHOOK_SLOW_AFTER_TIMEOUTS, settings.WEBHOOK_PAUSE_AFTER_TIMEOUTS = 2, 3
    trickling = Receiver(trickle=0.4)
    try:
        endpoint = endpoint_create(
            club=standing.club, actor=standing.owner, url=trickling.url, events=["deal.scored"]
        )
        assert delivery_attempt(delivery_id=_delivery(endpoint).pk) == "retry"
        endpoint.refresh_from_db()
        assert (endpoint.health, endpoint.timeouts, endpoint.resume_at) == ("failing", 1, None)

        assert delivery_attempt(delivery_id=_delivery(endpoint).pk) == "retry"
        endpoint.refresh_from_db()
        assert (endpoint.health, endpoint.timeouts) == ("slowed", 2)
        slowed_for = (endpoint.resume_at - timezone.now()).total_seconds()  # type: ignore[operator]
        assert settings.WEBHOOK_SLOWED_SECONDS - 5 < slowed_for <= settings.WEBHOOK_SLOWED_SECONDS

        # Slowed: a delivery due now waits for the end of the slowdown; no attempt, no failure.
        waiting = _delivery(endpoint)
        attempts = Attempt.objects.count()
        assert delivery_attempt(delivery_id=waiting.pk) == "busy"
        waiting.refresh_from_db()
        assert waiting.next_attempt_at == endpoint.resume_at
        assert (Attempt.objects.count(), waiting.attempts) == (attempts, 0)

        _resume_now(endpoint)
        Delivery.objects.filter(pk=waiting.pk).update(next_attempt_at=timezone.now())
        assert delivery_attempt(delivery_id=waiting.pk) == "retry"
        endpoint.refresh_from_db()
        assert (endpoint.health, endpoint.timeouts) == ("paused", 3)
        paused_for = (endpoint.resume_at - timezone.now()).total_seconds()  # type: ignore[operator]
        assert settings.WEBHOOK_PAUSED_SECONDS - 5 < paused_for <= settings.WEBHOOK_PAUSED_SECONDS

        # The club is told: the API and the settings page.
        shown = api.get(f"{HOOKS}{endpoint.pk}/").json()
        assert (shown["health"], shown["timeouts"]) == ("paused", 3)
        assert shown["resume_at"] is not None
        page = Client()
        page.force_login(standing.organiser)
        text = page.get("/clubs/home/settings/").content.decode()
        assert "Paused until" in text
        assert "did not answer within the time limit 3 times in a row" in text

        # The pause over, an answer in time ends it all.
        trickling.trickle = 0.0
        _resume_now(endpoint)
        Delivery.objects.filter(endpoint=endpoint).update(next_attempt_at=timezone.now())
        again = Delivery.objects.filter(endpoint=endpoint, status="pending").first()
        assert again is not None
        assert delivery_attempt(delivery_id=again.pk) == "delivered"
        endpoint.refresh_from_db()
        assert (endpoint.health, endpoint.timeouts, endpoint.resume_at) == ("ok", 0, None)
    finally:
        trickling.close()


def test_a_club_with_its_share_in_flight_waits_and_the_freed_slot_is_handed_on(
    standing, receiver, settings
):
    settings.WEBHOOK_SENDS_PER_CLUB = 1
    first, second = (
        endpoint_create(
            club=standing.club,
            actor=standing.owner,
            url=f"{receiver.url}?n={n}",
            events=["deal.scored"],
        )
        for n in (1, 2)
    )
    # An attempt to the first endpoint is in flight (its lease held).
    Endpoint.objects.filter(pk=first.pk).update(
        sending_until=timezone.now() + timedelta(seconds=30)
    )
    queued = _delivery(second)
    assert delivery_attempt(delivery_id=queued.pk) == "busy"
    queued.refresh_from_db()
    assert queued.next_attempt_at > timezone.now() + timedelta(seconds=20)
    assert not receiver.received
    # Another club is not held by it.
    other_club = standing.outsider.memberships.get().club
    other = endpoint_create(
        club=other_club, actor=standing.outsider, url=receiver.url, events=["deal.scored"]
    )
    assert delivery_attempt(delivery_id=_delivery(other).pk) == "delivered"
    # The first attempt ends: it hands the club's slot to the delivery that waited.
    Endpoint.objects.filter(pk=first.pk).update(sending_until=None)
    assert delivery_attempt(delivery_id=_delivery(first).pk) == "delivered"
    queued.refresh_from_db()
    assert queued.next_attempt_at <= timezone.now()
    assert delivery_attempt(delivery_id=queued.pk) == "delivered"
