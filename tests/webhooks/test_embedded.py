"""Webhooks under the embedded default as ``make run`` serves it: ``manage.py runserver`` on the
local settings (tasks in-process, no Redis, no worker, no beat) over a copy of this test's
database (SQLite in a file; the test database itself on PostgreSQL), talked to over HTTP.
Nothing is sent inside a request (a receiver taking 4 s does not hold up a deal's answer),
``standings.changed`` is debounced as with a worker, and a receiver answering 401 is retried
with back-off, counted at every attempt, shown failing and given up on."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from clubs.signin.services import api_token_create
from tests.live import REPO, answers_200, database_url, free_port, stop, wait_until
from tests.scoring.conftest import make_night
from tests.webhooks.receiver import Receiver, wait_for
from tests.webhooks.test_delivery import deal_payload
from webhooks.services import endpoint_create

pytestmark = pytest.mark.usefixtures("committing_db")


@dataclass
class Server:
    port: int
    keys: dict[str, str]  # who -> API token key

    def call(self, who: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Token {self.keys[who]}", "Content-Type": "application/json"}
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers=headers)  # fmt: skip
        answer = conn.getresponse()
        status, data = answer.status, answer.read()
        conn.close()
        return status, json.loads(data) if data else None


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()


@pytest.fixture
def embedded(standing, tmp_path: Path) -> Iterator[Any]:
    """Starts the embedded server (settings from the keyword arguments) over what the test
    wrote so far."""
    started: list[subprocess.Popen[bytes]] = []

    def start(**settings: str) -> Server:
        keys = {who: api_token_create(user=getattr(standing, who), name="test")[1]
                for who in ("organiser", "scorer")}  # fmt: skip
        if connection.vendor == "sqlite":
            copy = tmp_path / "db.sqlite3"
            with connection.cursor() as cursor:
                cursor.execute("VACUUM INTO %s", [str(copy)])
            url = f"sqlite:///{copy}"
        else:
            url = database_url()
        port = free_port()
        environment = {
            name: value
            for name, value in os.environ.items()
            if name not in {"REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "DJANGO_SETTINGS_MODULE"}
        }
        log = (tmp_path / "server.log").open("ab")
        process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=REPO, start_new_session=True, stdout=log, stderr=subprocess.STDOUT,
            env={**environment, "DJANGO_SETTINGS_MODULE": "config.settings.local",
                 "DATABASE_URL": url, **settings},
        )  # fmt: skip
        started.append(process)
        wait_until(lambda: answers_200(port, "/health/"), 60, "the embedded server never answered")
        return Server(port, keys)

    yield start
    for process in started:
        stop(process)


@pytest.mark.slow
def test_a_slow_receiver_does_not_hold_up_the_request(standing, receiver, embedded):
    receiver.slow = 4.0
    hook = endpoint_create(
        club=standing.club, actor=standing.organiser, url=receiver.url, events=["deal.scored"]
    )
    receiver.secret = hook.secret
    night = make_night(standing)
    server = embedded()
    started = time.monotonic()
    status, deal = server.call(
        "scorer", "POST", f"/api/v1/clubs/home/games/{night.game.pk}/deals/", deal_payload(night)
    )
    took = time.monotonic() - started
    assert status == 202, deal
    assert took < 3.0, f"the deal took {took:.2f} s to answer"
    assert not receiver.received  # the receiver is still taking its time
    wait_for(lambda: receiver.accepted(), timeout=30, message="never delivered")
    assert receiver.accepted()[0].json["data"]["deal"] == deal["deal"]
    log = server.call("organiser", "GET", f"/api/v1/clubs/home/webhooks/{hook.pk}/deliveries/")[1][
        "results"
    ]
    assert [(a["delivery_status"], a["status_code"]) for a in log] == [("delivered", 200)]


@pytest.mark.slow
def test_standings_changed_is_debounced_in_process(standing, receiver, embedded):
    hook = endpoint_create(
        club=standing.club, actor=standing.organiser, url=receiver.url,
        events=["deal.scored", "standings.changed"],
    )  # fmt: skip
    receiver.secret = hook.secret
    night = make_night(standing)
    server = embedded(WEBHOOK_STANDINGS_DEBOUNCE_SECONDS="2")
    started = time.monotonic()
    for _ in range(15):
        status, answer = server.call(
            "scorer", "POST", f"/api/v1/clubs/home/games/{night.game.pk}/deals/",
            deal_payload(night),
        )  # fmt: skip
        assert status == 202, answer
    scoring = time.monotonic() - started

    def names() -> list[str]:
        return [r.event for r in receiver.received]

    wait_for(lambda: names().count("deal.scored") == 15, timeout=60, message="deals missing")
    time.sleep(2 + 2)  # the last window ends up to 2 s after the last deal
    standings = [r.json for r in receiver.received if r.event == "standings.changed"]
    assert 1 <= len(standings) <= scoring / 2 + 1, (len(standings), scoring)
    times = [datetime.fromisoformat(s["created_at"]) for s in standings]
    gaps = [(later - earlier).total_seconds() for earlier, later in pairwise(times)]
    assert all(gap >= 2 for gap in gaps), gaps
    # The last one came after the last deal counted: no change is left unreported.
    last_deal = max(datetime.fromisoformat(r.json["created_at"]) for r in receiver.received)
    assert times[-1] == last_deal
    assert all(r.status == 200 for r in receiver.received)  # every one verified


@pytest.mark.slow
def test_a_receiver_answering_401_is_retried_counted_and_given_up(standing, receiver, embedded):
    receiver.answers = [401] * 100
    hook = endpoint_create(
        club=standing.club, actor=standing.organiser, url=receiver.url, events=["deal.scored"]
    )
    server = embedded(WEBHOOK_BACKOFF_BASE_SECONDS="0.3", WEBHOOK_RETRY_WINDOW_SECONDS="3")
    path = f"/api/v1/clubs/home/webhooks/{hook.pk}/"
    assert server.call("organiser", "POST", f"{path}test/")[0] == 202

    def log() -> list[dict[str, Any]]:
        return server.call("organiser", "GET", f"{path}deliveries/")[1]["results"]

    wait_for(lambda: log() and log()[0]["delivery_status"] == "abandoned", timeout=60,
             message="never given up")  # fmt: skip
    attempts = log()
    assert len(attempts) >= 3 and {a["status_code"] for a in attempts} == {401}
    at = [datetime.fromisoformat(a["at"]) for a in reversed(attempts)]
    gaps = [(later - earlier).total_seconds() for earlier, later in pairwise(at)]
    assert gaps[-1] > gaps[0] >= 0.2, gaps  # backing off
    shown = server.call("organiser", "GET", path)[1]
    assert (shown["health"], shown["failures"], shown["given_up"], shown["last_error"]) == (
        "failing",
        len(attempts),
        1,
        "answered 401",
    )
    assert shown["failing_since"] is not None
