"""Webhooks delivered by a real Celery worker on Redis, from PostgreSQL, to a real HTTP receiver
in a thread: signed, retried with back-off, given up on after the window (the endpoint marked
failing, then disabled), in order per deal, refused for private addresses, and delivered after
the worker that was sending it is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from outbox.models import OutboxMessage
from tests.scoring.conftest import Night, make_night
from tests.webhooks.receiver import Receiver, wait_for
from webhooks.models import Attempt, Delivery, Endpoint, Event
from webhooks.services import deliveries_sweep

REPO = Path(__file__).resolve().parents[2]
ALL_DEAL_EVENTS = ["deal.scored", "deal.corrected", "deal.rejected"]


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()


def organiser(standing: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(standing.organiser)
    return client


def subscribe(standing: Any, url: str, events: list[str]) -> dict[str, Any]:
    answer = organiser(standing).post(
        "/api/v1/clubs/home/webhooks/", {"url": url, "events": events}, format="json"
    )
    assert answer.status_code == 201, answer.content
    return answer.json()


def deal_payload(night: Night, **points: int) -> dict[str, Any]:
    lines = {"Farid": {"outcome": "winner"}}
    for name in ["Asha", "Bilal", "Chitra", "Dev", "Esther"]:
        lines[name] = {"outcome": "loser", "points": points.get(name, 10)}
    return {"results": night.results(**lines)}


def score(standing: Any, night: Night, **points: int) -> int:
    client = APIClient()
    client.force_authenticate(standing.scorer)
    answer = client.post(
        f"/api/v1/clubs/home/games/{night.game.pk}/deals/", deal_payload(night, **points),
        format="json",
    )  # fmt: skip
    assert answer.status_code == 202, answer.content
    return answer.json()["deal"]


def correct(standing: Any, deal_id: int, night: Night, **points: int) -> None:
    client = APIClient()
    client.force_authenticate(standing.scorer)
    answer = client.post(
        f"/api/v1/clubs/home/deals/{deal_id}/submissions/", deal_payload(night, **points),
        format="json",
    )  # fmt: skip
    assert answer.status_code == 202, answer.content


@pytest.fixture
def fast_retries(settings):
    settings.WEBHOOK_BACKOFF_BASE_SECONDS = 0.4
    settings.WEBHOOK_CLAIM_SECONDS = 10
    return settings


@pytest.mark.usefixtures("postgres_tx")
def test_a_scored_deal_reaches_the_receiver_signed(standing, celery_worker, receiver):
    hook = subscribe(standing, receiver.url, ["deal.scored"])
    assert len(hook["secret"]) >= 32  # generated, shown once
    night = make_night(standing)
    deal_id = score(standing, night, Asha=23)
    wait_for(lambda: receiver.accepted(), message="nothing delivered")
    got = receiver.accepted()[0]
    assert got.verifies_with(hook["secret"])  # Standard Webhooks
    assert got.signed_by(hook["secret"]) and not got.signed_by("another secret")  # deprecated
    assert got.headers["Content-Type"] == "application/json"
    assert got.event == "deal.scored"
    uuid.UUID(got.headers["X-Rummyclub-Delivery"])
    body = got.json
    assert set(body) == {"id", "event", "created_at", "club", "data"}
    assert (body["event"], body["club"]) == ("deal.scored", "home")
    assert body["data"]["deal"] == deal_id
    assert body["data"]["url"] == f"http://127.0.0.1:8000/api/v1/clubs/home/deals/{deal_id}/"
    asha = next(p for p in body["data"]["players"] if p["name"] == "Asha")
    assert (asha["points"], asha["against"]) == (-23, 23)  # given up, and counted against
    # The API's own reading of the deal names the same deal.
    deal = organiser(standing).get(body["data"]["url"]).json()
    assert deal["id"] == deal_id
    delivery = Delivery.objects.get()
    wait_for(lambda: Delivery.objects.get().status == "delivered")
    assert str(delivery.event_id) == body["id"]
    log = (
        organiser(standing)
        .get(f"/api/v1/clubs/home/webhooks/{hook['id']}/deliveries/")
        .json()["results"]
    )
    assert [(a["event_name"], a["status_code"], a["delivery_status"]) for a in log] == [
        ("deal.scored", 200, "delivered")
    ]
    # Only deal.scored was asked for: the game's other events are not sent.
    assert {r.event for r in receiver.received} == {"deal.scored"}


@pytest.mark.usefixtures("postgres_tx")
def test_three_500s_then_a_200_deliver_the_event_once_with_growing_gaps(
    standing, celery_worker, receiver, fast_retries
):
    receiver.answers = [500, 500, 500]
    hook = subscribe(standing, receiver.url, ["deal.scored"])
    ping = organiser(standing).post(f"/api/v1/clubs/home/webhooks/{hook['id']}/test/")
    assert ping.status_code == 202
    wait_for(lambda: receiver.accepted(), timeout=30, message="never accepted")
    requests = receiver.received
    assert [r.status for r in requests] == [500, 500, 500, 200]
    assert len({r.json["id"] for r in requests}) == 1  # one event
    assert len({r.headers["X-Rummyclub-Delivery"] for r in requests}) == 1  # one series
    # Each attempt signed anew, at its own time, under the event's id.
    assert all(r.verifies_with(hook["secret"]) for r in requests)
    assert {r.headers["webhook-id"] for r in requests} == {requests[0].json["id"]}
    stamps = [int(r.headers["webhook-timestamp"]) for r in requests]
    assert stamps == sorted(stamps) and stamps[-1] > stamps[0], stamps
    assert requests[-1].headers["webhook-signature"] != requests[0].headers["webhook-signature"]
    gaps = [later.at - earlier.at for earlier, later in pairwise(requests)]
    # Back-off 0.4 s doubling, with a fifth of jitter either way.
    assert 0.3 < gaps[0] < gaps[1] < gaps[2], gaps
    assert gaps[2] > 1.2, gaps
    wait_for(lambda: Delivery.objects.get().status == "delivered")
    delivery = Delivery.objects.get()
    assert delivery.attempts == 4
    # The log tells each attempt's own result; the delivery's is the same on every line.
    log = (
        organiser(standing)
        .get(f"/api/v1/clubs/home/webhooks/{hook['id']}/deliveries/")
        .json()["results"]
    )
    assert [(a["status_code"], a["outcome"], a["delivery_status"]) for a in log] == [
        (200, "delivered", "delivered"),
        *[(500, "failed", "delivered")] * 3,
    ]
    kept = Attempt.objects.filter(status_code=500).values_list("response_body", flat=True)
    assert all(len(body) == 1024 for body in kept)  # 5,000 bytes answered, 1 KB kept
    assert Endpoint.objects.get().health == "ok"


@pytest.mark.usefixtures("postgres_tx")
@pytest.mark.slow
def test_a_receiver_down_for_the_window_marks_the_endpoint_failing_then_disabled(
    standing, celery_worker, receiver, fast_retries
):
    fast_retries.WEBHOOK_RETRY_WINDOW_SECONDS = 2
    fast_retries.WEBHOOK_DISABLE_AFTER = 2
    url = receiver.url
    receiver.close()  # nothing listens there any more
    hook = subscribe(standing, url, ["deal.scored"])
    client = organiser(standing)
    client.post(f"/api/v1/clubs/home/webhooks/{hook['id']}/test/")
    wait_for(lambda: Delivery.objects.filter(status="abandoned").count() == 1, timeout=30)
    endpoint = Endpoint.objects.get()
    first = Delivery.objects.get()
    # Every failed attempt counted; one event given up on.
    assert (endpoint.health, endpoint.enabled, endpoint.given_up) == ("failing", True, 1)
    assert endpoint.failures == first.attempts and "ConnectionRefused" in endpoint.last_error
    assert first.attempts >= 2 and Attempt.objects.filter(delivery=first).count() == first.attempts
    assert all("ConnectionRefused" in a.error for a in Attempt.objects.all())
    # Nothing was lost on the way: every outbox message went out, the event is kept.
    assert not OutboxMessage.objects.filter(sent_at__isnull=True).exists()
    assert Event.objects.filter(pk=first.event_id).exists()
    shown = client.get(f"/api/v1/clubs/home/webhooks/{hook['id']}/").json()
    assert shown["health"] == "failing" and shown["failing_since"] is not None
    # A second event given up on: the endpoint is disabled, and says so.
    client.post(f"/api/v1/clubs/home/webhooks/{hook['id']}/test/")
    wait_for(lambda: Delivery.objects.filter(status="abandoned").count() == 2, timeout=30)
    endpoint.refresh_from_db()
    assert (endpoint.health, endpoint.enabled) == ("disabled", False)
    # Enabling it again clears the state.
    again = client.patch(
        f"/api/v1/clubs/home/webhooks/{hook['id']}/", {"enabled": True}, format="json"
    ).json()
    assert (again["health"], again["enabled"], again["failures"], again["given_up"]) == (
        "ok",
        True,
        0,
        0,
    )


@pytest.mark.usefixtures("postgres_tx")
def test_a_correction_never_arrives_before_the_score_it_corrects(
    standing, celery_worker, receiver, fast_retries
):
    receiver.answers = [503, 503]  # the score's first two attempts fail
    subscribe(standing, receiver.url, ALL_DEAL_EVENTS)
    night = make_night(standing)
    deal_id = score(standing, night, Asha=10)
    wait_for(lambda: receiver.received, message="the score never came")
    correct(standing, deal_id, night, Asha=40)
    wait_for(lambda: len(receiver.accepted()) == 2, timeout=30, message="not both delivered")
    order = [(r.event, r.status) for r in receiver.received]
    assert order == [
        ("deal.scored", 503),
        ("deal.scored", 503),
        ("deal.scored", 200),
        ("deal.corrected", 200),
    ], order
    corrected = receiver.accepted()[1].json["data"]
    assert corrected["version"] == 2
    asha = next(p for p in corrected["players"] if p["name"] == "Asha")
    assert (asha["points"], asha["against"]) == (-40, 40)


def _worker_env(tmp: Path) -> dict[str, str]:
    db = connection.settings_dict
    from django.conf import settings

    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DATABASE_URL": (
            f"postgresql://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
        ),
        "REDIS_URL": settings.REDIS_URL,
        "WEBHOOK_CLAIM_SECONDS": "3",
    }


def _worker(tmp: Path, name: str, queues: str = "webhooks") -> subprocess.Popen[bytes]:
    log = (tmp / f"{name}.log").open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo", "-l", "INFO",
         "--without-gossip", "--without-mingle", "-n", f"{name}@%h", "--queues", queues],
        cwd=REPO, env=_worker_env(tmp), start_new_session=True, stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip


@pytest.mark.usefixtures("postgres_tx")
@pytest.mark.slow
def test_a_worker_killed_mid_delivery_is_replaced_and_the_event_delivered(
    standing, redis_url, receiver, settings, tmp_path
):
    from config.celery import app

    settings.WEBHOOK_CLAIM_SECONDS = 3
    receiver.hold = 6.0  # the first POST hangs: the worker is killed while it waits
    hook = subscribe(standing, receiver.url, ["deal.scored"])
    app.conf.task_always_eager = False
    first = _worker(tmp_path, "first")
    second = None
    try:
        organiser(standing).post(f"/api/v1/clubs/home/webhooks/{hook['id']}/test/")
        wait_for(lambda: Delivery.objects.filter(claimed_until__isnull=False).exists(),
                 timeout=60, message="the first worker never claimed it")  # fmt: skip
        time.sleep(0.5)  # the POST is on its way
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        assert Delivery.objects.get().status == "pending"
        second = _worker(tmp_path, "second")
        # The dead worker's claim runs out; the sweep (beat) sends the delivery again.
        deadline = time.monotonic() + 60
        while Delivery.objects.get().status != "delivered" and time.monotonic() < deadline:
            deliveries_sweep()
            time.sleep(0.5)
        delivery = Delivery.objects.get()
        assert delivery.status == "delivered", (tmp_path / "second.log").read_text()[-3000:]
        # The receiver may have seen it twice (the first POST did arrive): same event id.
        wait_for(lambda: len(receiver.received) >= 1)
        assert {r.json["id"] for r in receiver.received} == {str(delivery.event_id)}
        assert receiver.accepted()
    finally:
        app.conf.task_always_eager = True
        for worker in (first, second):
            if worker is not None and worker.poll() is None:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait(timeout=10)
        with connection.cursor() as cursor:  # the workers' connections, so the DB can go
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
