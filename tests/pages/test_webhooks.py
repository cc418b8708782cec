"""A club's webhooks from its settings page: added with the secret shown once, pinged, the log
read, disabled and enabled, redelivered, deleted; a refused URL says why."""

from __future__ import annotations

import pytest

from tests.webhooks.receiver import Receiver
from webhooks.models import Delivery, Endpoint


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()


def test_an_organiser_runs_a_webhook_from_the_settings_page(
    standing, client, receiver, django_capture_on_commit_callbacks
):
    client.force_login(standing.organiser)
    added = client.post(
        "/clubs/home/settings/webhooks/",
        {"url": receiver.url, "events": ["deal.scored", "session.closed"]},
        follow=True,
    )
    page = added.content.decode()
    endpoint = Endpoint.objects.get()
    assert endpoint.events == ["deal.scored", "session.closed"]
    assert "Copy its secret below now" in page and endpoint.secret in page
    again = client.get("/clubs/home/settings/").content.decode()
    assert endpoint.secret not in again and "Delivering" in again  # shown once
    with django_capture_on_commit_callbacks(execute=True):
        pinged = client.post(f"/clubs/home/settings/webhooks/{endpoint.pk}/ping/", follow=True)
    assert "A ping is on its way" in pinged.content.decode()
    assert [r.event for r in receiver.received] == ["ping"]
    log = client.get("/clubs/home/settings/").content.decode()
    assert "Delivery log (1)" in log and "<td>200" in log
    delivery = Delivery.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/clubs/home/settings/webhooks/{endpoint.pk}/deliveries/{delivery.delivery_id}/"
            "redeliver/"
        )
    assert len(receiver.received) == 2
    client.post(f"/clubs/home/settings/webhooks/{endpoint.pk}/enable/", {})
    endpoint.refresh_from_db()
    assert not endpoint.enabled
    assert "Disabled" in client.get("/clubs/home/settings/").content.decode()
    client.post(f"/clubs/home/settings/webhooks/{endpoint.pk}/enable/", {"enabled": "1"})
    endpoint.refresh_from_db()
    assert endpoint.enabled
    client.post(f"/clubs/home/settings/webhooks/{endpoint.pk}/delete/")
    assert not Endpoint.objects.exists()


def test_a_refused_url_says_why_and_a_failing_webhook_is_flagged(standing, client, settings):
    client.force_login(standing.organiser)
    settings.WEBHOOK_ALLOW_PRIVATE = False
    refused = client.post(
        "/clubs/home/settings/webhooks/",
        {"url": "https://10.0.0.1/hook", "events": ["deal.scored"]},
    )
    assert refused.status_code == 400
    assert "10.0.0.1 is a private address" in refused.content.decode()
    assert not Endpoint.objects.exists()
    Endpoint.objects.create(
        club=standing.club, url="https://example.com/hook", events=["deal.scored"], secret="s",
        enabled=False, health="disabled", given_up=3,
    )  # fmt: skip
    page = client.get("/clubs/home/settings/").content.decode()
    assert "Disabled after repeated failures" in page and "3 times in a row" in page
