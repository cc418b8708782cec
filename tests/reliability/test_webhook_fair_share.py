"""The attack of issue 47: one club's ten endpoints answer a byte a second (each attempt holds a
webhook process for its whole 5 s deadline) while another club's deliveries and a password
reset's mail go out. The webhooks worker is the Procfile's (prefork, 2 processes, queue
``webhooks``), the mail goes through the background queue (its own worker); each club has at most
``WEBHOOK_SENDS_PER_CLUB`` (1) attempts in flight."""

from __future__ import annotations

import itertools
import os
import signal
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test import Client

from tests.conftest import worker_running
from tests.factories import ClubFactory
from tests.live import database_url, production_environment
from tests.webhooks.receiver import Receiver, wait_for
from webhooks.models import Attempt, Delivery, Endpoint
from webhooks.services import endpoint_create, event_emit

REPO = Path(__file__).resolve().parents[2]
SLOW_ENDPOINTS, SLOW_EVENTS, FAIR_EVENTS = 10, 3, 5
SLACK = timedelta(milliseconds=100)  # the time between the answer and its row


def _p(latencies: list[float], percent: int) -> float:
    return statistics.quantiles(latencies, n=100, method="inclusive")[percent - 1]


def _webhooks_worker(log: Path, sends_per_club: int) -> subprocess.Popen[bytes]:
    """The Procfile's ``webhooks`` line: a prefork worker (2 processes) on the webhooks queue."""
    env = {
        # Production settings (tasks sent to the broker, as the Procfile runs them), the tests'
        # receivers on this machine allowed.
        **production_environment(database_url(), settings.REDIS_URL),
        "WEBHOOK_ALLOW_PRIVATE": "true",
        "WEBHOOK_SENDS_PER_CLUB": str(sends_per_club),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "prefork",
         "--concurrency", "2", "-l", "INFO", "--without-gossip", "--without-mingle",
         "-n", "webhooks@%h", "--queues", "webhooks"],
        cwd=REPO, env=env, start_new_session=True, stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.usefixtures("postgres_tx", "redis_url")
def test_trickling_endpoints_of_one_club_leave_another_clubs_deliveries_and_mail_on_time(
    standing, django_user_model, tmp_path
):
    cache.clear()  # the password reset's counters
    attacker, fair = ClubFactory(name="Trickle", slug="trickle"), standing.club
    trickling, fast = Receiver(trickle=1.0), Receiver()
    for number in range(SLOW_ENDPOINTS):
        endpoint_create(
            club=attacker, actor=standing.owner, url=f"{trickling.url}?n={number}",
            events=["deal.scored"],
        )  # fmt: skip
    fair_endpoint = endpoint_create(
        club=fair, actor=standing.owner, url=fast.url, events=["deal.scored"]
    )
    django_user_model.objects.create_user("mailed", email="mailed@example.com", password="x")
    worker = _webhooks_worker(tmp_path / "webhooks.log", settings.WEBHOOK_SENDS_PER_CLUB)
    try:
        with worker_running(["background"]):  # the mail's queue, in this process (its outbox)
            for number in range(SLOW_EVENTS):
                event_emit(club=attacker, name="deal.scored", data={"deal": 1000 + number})
            wait_for(lambda: trickling.received, timeout=60, message="the attack never started")
            time.sleep(1)  # the attack under way: a process held by a trickling answer
            for number in range(FAIR_EVENTS):
                event_emit(club=fair, name="deal.scored", data={"deal": number})
                time.sleep(0.5)
            asked = time.monotonic()
            assert (
                Client()
                .post("/account/password/reset/", {"email": "mailed@example.com"})
                .status_code
                == 302
            )
            wait_for(lambda: mail.outbox, timeout=30, message="no mail within 30 s")
            mail_seconds = time.monotonic() - asked
            delivered = Delivery.objects.filter(endpoint=fair_endpoint, status="delivered")
            wait_for(lambda: delivered.count() == FAIR_EVENTS, timeout=120,
                     message="the other club's deliveries did not all go")  # fmt: skip
            slow_attempts = Attempt.objects.filter(endpoint__club=attacker)
            wait_for(lambda: slow_attempts.count() >= 2, timeout=30, message="no attempts")
        latencies = [
            (d.delivered_at - d.created_at).total_seconds()
            for d in delivered  # type: ignore[operator]
        ]
        timeouts = slow_attempts.filter(error__startswith="timeout").count()
        print(  # the figures for docs/reliability.md
            f"FIGURES other club p50 {_p(latencies, 50):.3f} s p95 {_p(latencies, 95):.3f} s"
            f" max {max(latencies):.3f} s; mail {mail_seconds:.2f} s; attacker attempts"
            f" {slow_attempts.count()} ({timeouts} timed out), health"
            f" {sorted(set(Endpoint.objects.filter(club=attacker).values_list('health', flat=1)))}"
        )
        assert _p(latencies, 95) < 5.0
        assert mail_seconds < 10.0
        # The attacker's share: one attempt at a time, whichever of its endpoints (from the
        # attempts' own times: the receiver goes on trickling a moment after the client left).
        spans = sorted((a.at - timedelta(milliseconds=a.duration_ms), a.at) for a in slow_attempts)
        overlaps = [b for a, b in itertools.pairwise(spans) if b[0] < a[1] - SLACK]
        assert not overlaps, spans
        assert timeouts == slow_attempts.count()
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
        trickling.close()
        fast.close()
        with connection.cursor() as cursor:  # the worker's connections, so the DB can go
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
