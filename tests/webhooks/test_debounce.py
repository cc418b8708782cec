"""``standings.changed`` with a real Celery worker on Redis, from PostgreSQL: many deals
validated by the worker while the sweep runs as beat runs it; at most one event per club per
debounce window, the last one after the last deal counted."""

from __future__ import annotations

import threading
import time
from itertools import pairwise

import pytest

from scoring.models import Deal
from tests.scoring.conftest import make_night
from tests.webhooks.receiver import Receiver, wait_for
from tests.webhooks.test_delivery import score, subscribe
from webhooks.models import Event, StandingsChange
from webhooks.services import standings_flush

WINDOW = 1


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()


@pytest.fixture
def beat():
    """The sweep's debounce flush, every 0.2 s (beat runs it every 5 s) in a thread."""
    stopping = threading.Event()

    def run() -> None:
        from django.db import connection

        while not stopping.wait(0.2):
            standings_flush()
        connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield
    stopping.set()
    thread.join(timeout=10)


@pytest.mark.usefixtures("postgres_tx")
def test_standings_changed_at_most_once_per_window_with_a_worker(
    standing, celery_worker, receiver, settings, beat
):
    settings.WEBHOOK_STANDINGS_DEBOUNCE_SECONDS = WINDOW
    hook = subscribe(standing, receiver.url, ["standings.changed", "deal.scored"])
    receiver.secret = hook["secret"]
    night = make_night(standing)
    started = time.monotonic()
    for _ in range(30):
        score(standing, night)
    wait_for(lambda: Deal.objects.filter(status="final").count() == 30, timeout=120,
             message="the worker did not count every deal")  # fmt: skip
    took = time.monotonic() - started
    wait_for(lambda: not StandingsChange.objects.exists(), timeout=30, message="never flushed")
    standings = list(Event.objects.filter(name="standings.changed").order_by("created_at"))
    assert 1 <= len(standings) <= took / WINDOW + 1, (len(standings), took)
    gaps = [(b.created_at - a.created_at).total_seconds() for a, b in pairwise(standings)]
    assert all(gap >= WINDOW for gap in gaps), gaps
    last_deal = Event.objects.filter(name="deal.scored").order_by("created_at").last()
    assert last_deal is not None and standings[-1].created_at > last_deal.created_at
    wait_for(lambda: len(receiver.accepted()) == 30 + len(standings), timeout=60,
             message="not all delivered")  # fmt: skip
    assert all(r.status == 200 for r in receiver.received)  # every one verified
