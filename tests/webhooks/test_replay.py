"""Replay since a time: an endpoint is sent again every event of its club since then, each once
per replay, by the real worker to a real receiver that verifies each signature; the same
Idempotency-Key queues nothing more; a `since` out of bounds or malformed is 400 naming it and
changes nothing; the settings page has the button."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import AuditEntry
from clubs.signin.services import api_token_create
from tests.api.test_schema_examples import assert_answers_as_declared
from tests.scoring.conftest import make_night
from tests.webhooks.receiver import Receiver, wait_for
from tests.webhooks.test_delivery import correct, score, subscribe
from webhooks.models import Delivery, Endpoint, Event
from webhooks.services import api_time, endpoint_create, event_emit

DEAL_EVENTS = ["deal.scored", "deal.corrected"]


def _token_client(standing: Any) -> APIClient:
    """The organiser's app, by a personal token: the identity its Idempotency-Keys belong to."""
    _, key = api_token_create(user=standing.organiser, name="replaying app")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _replay(client: APIClient, endpoint_id: int, body: Any, key: str | None = None) -> Any:
    extra = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(
        f"/api/v1/clubs/home/webhooks/{endpoint_id}/replay/", json.dumps(body),
        content_type="application/json", **extra,
    )  # fmt: skip


def _all_delivered() -> bool:
    return not Delivery.objects.filter(status=Delivery.Status.PENDING).exists()


def _ids(received: list[Any]) -> list[str]:
    return [r.json["id"] for r in received]


@pytest.mark.usefixtures("postgres_tx")
def test_replay_since_a_time_delivers_each_event_once_through_the_worker(standing, celery_worker):
    receiver = Receiver()
    try:
        hook = subscribe(standing, receiver.url, DEAL_EVENTS)
        receiver.secret = hook["secret"]  # a delivery that does not verify is answered 401
        night = make_night(standing)
        score(standing, night, Asha=5)  # before `since`: never replayed
        wait_for(lambda: len(receiver.accepted()) == 1 and _all_delivered())
        since = timezone.now()
        first = score(standing, night, Asha=10)
        score(standing, night, Bilal=20)
        correct(standing, first, night, Asha=12)
        wait_for(lambda: len(receiver.accepted()) == 4 and _all_delivered())
        live = receiver.accepted()[1:]
        replayed = sorted(Event.objects.filter(created_at__gte=since), key=lambda e: e.created_at)
        assert sorted(_ids(live)) == sorted(str(e.id) for e in replayed)

        app = _token_client(standing)
        answer = _replay(app, hook["id"], {"since": api_time(since)}, key="replay-1")
        assert answer.status_code == 202, answer.content
        body = answer.json()
        assert (body["events"], body["pending"], body["status"]) == (3, 0, "queued")
        assert body["since"] == api_time(since)
        wait_for(lambda: len(receiver.accepted()) >= 7 and _all_delivered())
        time.sleep(1.0)  # anything sent twice would arrive meanwhile
        again = receiver.received[4:]
        assert len(again) == 3 and all(r.status == 200 for r in again)
        # Each event once, the same event id and body as live, a new delivery id.
        assert sorted(_ids(again)) == sorted(str(e.id) for e in replayed)
        assert {r.body for r in again} == {r.body for r in live}
        assert not {r.headers["X-Rummyclub-Delivery"] for r in again} & {
            r.headers["X-Rummyclub-Delivery"] for r in live
        }
        assert all(r.verifies_with(hook["secret"]) for r in again)
        # A deal's events in their order: its score before its correction.
        events = [r.event for r in again if r.json["data"]["deal"] == first]
        assert events == ["deal.scored", "deal.corrected"]

        # The same key: the first answer, nothing more queued or sent.
        retried = _replay(app, hook["id"], {"since": api_time(since)}, key="replay-1")
        assert retried.status_code == 202 and retried["Idempotent-Replayed"] == "true"
        assert retried.json() == body
        assert Delivery.objects.count() == 7
        # Another key is another replay: each event once more.
        another = _replay(app, hook["id"], {"since": api_time(since)}, key="replay-2")
        assert another.status_code == 202 and another.json()["events"] == 3
        wait_for(lambda: len(receiver.accepted()) >= 10 and _all_delivered())
        time.sleep(1.0)
        assert len(receiver.received) == 10
        assert sorted(_ids(receiver.received[7:])) == sorted(str(e.id) for e in replayed)
        assert AuditEntry.objects.filter(action="webhook.replay").count() == 2
    finally:
        receiver.close()


@pytest.fixture
def endpoint(standing, receiver) -> Endpoint:
    return endpoint_create(
        club=standing.club, actor=standing.organiser, url=receiver.url, events=["deal.scored"]
    )


def _deliveries() -> int:
    return Delivery.objects.count()


@pytest.mark.parametrize(
    ("since", "says"),
    [
        ("yesterday evening", "Datetime has wrong format"),
        ("2026-13-01T20:00:00Z", "Datetime has wrong format"),
        (None, "may not be null"),
        (5, "wrong format"),
    ],
)
def test_a_malformed_since_is_400_naming_it(api, endpoint, since, says):
    before = _deliveries()
    answer = _replay(api, endpoint.pk, {"since": since})
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert list(error["details"]) == ["since"] and says in json.dumps(error)
    assert _deliveries() == before


def test_since_in_the_future_or_past_the_kept_week_is_400(api, endpoint):
    now = timezone.now()
    for moment, says in [
        (now + timedelta(minutes=5), "is in the future"),
        (now - timedelta(days=7, minutes=1), "more than 7 days ago"),
    ]:
        answer = _replay(api, endpoint.pk, {"since": api_time(moment)})
        assert answer.status_code == 400, answer.content
        error = answer.json()["error"]
        assert error["code"] == "bad_replay_since" and says in error["message"]
        assert list(error["details"]) == ["since"]
    missing = _replay(api, endpoint.pk, {})
    assert missing.status_code == 400 and list(missing.json()["error"]["details"]) == ["since"]
    unknown = _replay(api, endpoint.pk, {"since": api_time(now), "until": api_time(now)})
    assert unknown.json()["error"]["code"] == "unknown_field"
    assert _deliveries() == 0 and not AuditEntry.objects.filter(action="webhook.replay").exists()


def test_only_its_events_since_then_each_once_and_not_twice_while_pending(
    api, standing, endpoint, django_capture_on_commit_callbacks
):
    club = standing.club
    old = Event.objects.create(club=club, name="deal.scored", data={"deal": 1})
    Event.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=2))
    since = timezone.now() - timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=False):  # left pending, not yet sent
        pending = event_emit(club=club, name="deal.scored", data={"deal": 2})
    other_kind = Event.objects.create(club=club, name="session.closed", data={"session": 1})
    done = Event.objects.create(club=club, name="deal.scored", data={"deal": 3})
    assert pending is not None and other_kind and done
    answer = _replay(api, endpoint.pk, {"since": api_time(since)})
    assert answer.status_code == 202, answer.content
    assert (answer.json()["events"], answer.json()["pending"]) == (1, 1)
    assert_answers_as_declared(answer.json(), "ReplayQueuedOutput")
    queued = Delivery.objects.filter(endpoint=endpoint).exclude(event=pending)
    assert [d.event_id for d in queued] == [done.id]


def test_a_disabled_endpoint_is_409_and_the_page_replays(
    api, standing, endpoint, client, receiver, django_capture_on_commit_callbacks
):
    event = Event.objects.create(club=standing.club, name="deal.scored", data={"deal": 7})
    client.force_login(standing.organiser)
    page = client.get("/clubs/home/settings/").content.decode()
    assert "Replay events since" in page
    since = timezone.localtime(
        timezone.now() - timedelta(minutes=5), ZoneInfo(standing.club.timezone)
    )
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            f"/clubs/home/settings/webhooks/{endpoint.pk}/replay/",
            {"since": since.strftime("%Y-%m-%dT%H:%M")},
            follow=True,
        )
    assert "Replaying 1 event since then" in done.content.decode()
    assert [r.json["id"] for r in receiver.received] == [str(event.id)]
    bad = client.post(f"/clubs/home/settings/webhooks/{endpoint.pk}/replay/", {"since": "soon"})
    assert bad.status_code == 400 and "give a date and time" in bad.content.decode()
    Endpoint.objects.filter(pk=endpoint.pk).update(enabled=False)
    refused = _replay(api, endpoint.pk, {"since": api_time(timezone.now())})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "endpoint_disabled"
