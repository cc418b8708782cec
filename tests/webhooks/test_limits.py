"""Pings and redeliveries, sent by hand, are limited per club (``WEBHOOK_MANUAL_SENDS_PER_MINUTE``
in any minute): over it the API answers 429 with Retry-After and the settings page says why;
nothing is written or sent."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.webhooks.receiver import Receiver
from webhooks.models import PING, Delivery, Event
from webhooks.services import endpoint_create

HOOKS = "/api/v1/clubs/home/webhooks/"


@pytest.fixture
def endpoint(standing, settings):
    settings.WEBHOOK_MANUAL_SENDS_PER_MINUTE = 3
    receiver = Receiver()
    yield endpoint_create(
        club=standing.club, actor=standing.organiser, url=receiver.url, events=["deal.scored"]
    )
    receiver.close()


@pytest.fixture
def api(standing) -> APIClient:
    client = APIClient()
    client.force_authenticate(standing.organiser)
    return client


def test_pings_and_redeliveries_over_the_limit_answer_429(api, endpoint):
    ping = f"{HOOKS}{endpoint.pk}/test/"
    assert api.post(ping).status_code == 202
    first = Delivery.objects.get()
    first.status = Delivery.Status.DELIVERED  # (sent after the commit, which tests do not reach)
    first.save(update_fields=["status"])
    assert api.post(ping).status_code == 202
    redeliver = f"{HOOKS}{endpoint.pk}/deliveries/{first.delivery_id}/redeliver/"
    assert api.post(redeliver).status_code == 202  # the third send of the minute

    for refused in (api.post(ping), api.post(redeliver)):
        assert refused.status_code == 429, refused.content
        assert refused["Retry-After"] == "60"
        error = refused.json()["error"]
        assert error["code"] == "throttled"
        assert error["message"].startswith(
            "at most 3 pings, redeliveries and replays a minute per club"
        )
    assert Delivery.objects.count() == 3
    assert Event.objects.filter(name=PING).count() == 2


def test_the_limit_is_a_sliding_minute(api, endpoint):
    ping = f"{HOOKS}{endpoint.pk}/test/"
    for _ in range(3):
        assert api.post(ping).status_code == 202
    assert api.post(ping).status_code == 429
    Event.objects.update(created_at=timezone.now() - timedelta(seconds=61))
    assert api.post(ping).status_code == 202


def test_the_settings_page_says_why_a_ping_is_refused(standing, endpoint):
    client = Client()
    client.force_login(standing.organiser)
    url = f"/clubs/home/settings/webhooks/{endpoint.pk}/ping/"
    for _ in range(3):
        assert client.post(url).status_code == 302
    refused = client.post(url)
    assert refused.status_code == 429
    assert "at most 3 pings, redeliveries and replays a minute per club" in refused.content.decode()
    assert Event.objects.filter(name=PING).count() == 3
