"""The broker dies under load: a real stack (gunicorn, a Celery worker and beat, production
settings) on PostgreSQL and a Redis of the test's own (port 6390), which is killed for 15 s while
four clients enter 40 deals, retrying with the same Idempotency-Key as a client does after a lost
answer. Every deal is counted exactly once, and the same worker goes on consuming once Redis is
back."""

from __future__ import annotations

import http.client
import json
import os
import signal
import threading
import time
from collections import Counter

import pytest
from django.db.models import Sum

from clubs.signin.services import api_token_create
from config.celery import all_queues
from ledger.models import LedgerEntry, Posting
from scoring.models import Deal, Submission
from tests.live import (
    beat_command,
    database_url,
    end_other_connections,
    free_port,
    gunicorn_command,
    hold_inserts,
    inserts_waiting,
    own_redis_port,
    production_environment,
    redis_server,
    start,
    stop,
    wait_until,
    worker_command,
)
from tests.scoring.conftest import make_night

REDIS_PORT = own_redis_port(6390)  # 6390 for the first test worker
CLIENTS = 4
DEALS_PER_CLIENT = 10
OUTAGE_SECONDS = 15
PACE_SECONDS = 1.2  # between one client's deals: the 40 deals span the outage

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]


def _environment() -> dict[str, str]:
    return {
        **production_environment(database_url(), f"redis://127.0.0.1:{REDIS_PORT}/0"),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "INFO",
    }


@pytest.mark.parametrize("in_flight", [False, True], ids=["idle-worker", "tasks-in-flight"])
@pytest.mark.usefixtures("postgres_tx")
def test_broker_killed_for_15_s_under_40_submits_counts_each_deal_once(
    standing, tmp_path, in_flight
):
    night = make_night(standing)
    apps = (standing.scorer, standing.organiser)
    keys = [api_token_create(user=user, name="app")[1] for user in apps]
    names = ["Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid"]

    def body(n: int) -> bytes:
        winner = names[n % 6]
        lines = {
            name: {"outcome": "winner"}
            if name == winner
            else {"outcome": "loser", "points": (n * 7 + len(name)) % 70 + 2}
            for name in names
        }
        return json.dumps({"wild": "QH", "results": night.results(**lines)}).encode()

    env = _environment()
    port = free_port()
    redis = redis_server(REDIS_PORT, tmp_path / "redis.log")
    web = start(gunicorn_command(port), env, tmp_path / "web.log")
    worker = start(worker_command(all_queues()), env, tmp_path / "worker.log")
    beat = start(beat_command(tmp_path / "beat-schedule"), env, tmp_path / "beat.log")
    answers: Counter[int] = Counter()
    replays: list[tuple[int, int]] = []  # (first id, replayed id)
    attempts = Counter[str]()
    outage_latencies: list[float] = []
    outage = threading.Event()
    failures: list[str] = []
    try:
        wait_until(lambda: b"ready." in (tmp_path / "worker.log").read_bytes(), 60, "no worker")

        def _health() -> bool:
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                probe.request("GET", "/health/")
                return probe.getresponse().status == 200
            except OSError:
                return False

        wait_until(_health, 60, "gunicorn did not start")

        def post(path: str, data: bytes, token: str, key: str) -> tuple[int, dict]:
            """One request, retried with the same key until it has an answer that is not a
            failure of ours (a lost connection, a 5xx, or a 409 while the first is running)."""
            while True:
                attempts[key] += 1
                started = time.monotonic()
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    conn.request("POST", path, body=data, headers={
                        "Authorization": f"Token {token}", "Content-Type": "application/json",
                        "Idempotency-Key": key,
                    })  # fmt: skip
                    response = conn.getresponse()
                    status, payload = response.status, json.loads(response.read() or b"{}")
                except OSError:
                    time.sleep(0.5)
                    continue
                if outage.is_set():
                    outage_latencies.append(time.monotonic() - started)
                answers[status] += 1
                if status >= 500 or status == 409:
                    time.sleep(0.5)
                    continue
                return status, payload

        def client(c: int) -> None:
            try:
                token = keys[c % len(keys)]
                for i in range(DEALS_PER_CLIENT):
                    n = c * DEALS_PER_CLIENT + i
                    path = f"/api/v1/clubs/home/games/{night.game.pk}/deals/"
                    status, first = post(path, body(n), token, f"deal-{n}")
                    if status != 202:
                        failures.append(f"deal {n}: {status} {first}")
                        continue
                    if i % 3 == 0:  # the answer "was lost": the client sends it again
                        status, again = post(path, body(n), token, f"deal-{n}")
                        replays.append((first["id"], again.get("id")))
                    time.sleep(PACE_SECONDS)
            except BaseException as exc:  # reported below
                failures.append(repr(exc))

        threads = [threading.Thread(target=client, args=(c,)) for c in range(CLIENTS)]
        for thread in threads:
            thread.start()
        blocker = hold_inserts("scoring_playerresult") if in_flight else None
        time.sleep(2.0)
        held = inserts_waiting("scoring_playerresult")
        os.killpg(redis.pid, signal.SIGKILL)
        redis.wait(timeout=10)
        outage.set()
        killed_at = time.monotonic()
        if blocker is not None:
            assert held >= 1  # the worker had tasks in flight when the broker died
            time.sleep(1.0)
            blocker.execute("ROLLBACK")  # they finish, and cannot acknowledge
            blocker.close()
        time.sleep(OUTAGE_SECONDS - (time.monotonic() - killed_at))
        redis = redis_server(REDIS_PORT, tmp_path / "redis-again.log")
        outage.clear()
        back_at = time.monotonic()
        for thread in threads:
            thread.join(timeout=120)
        assert not failures, failures

        total = CLIENTS * DEALS_PER_CLIENT
        # Scored: every submission decided (the worker, the relay and the sweep at work).
        wait_until(
            lambda: (
                Submission.objects.count() >= total
                and not Submission.objects.filter(status="pending").exists()
            ),
            120,
            "some submissions are still pending",
        )
        scored_after_return = time.monotonic() - back_at
        assert worker.poll() is None, "the worker exited during the outage"
        assert web.poll() is None and beat.poll() is None
    finally:
        for process in (web, worker, beat):
            stop(process)
        stop(redis)
        end_other_connections()

    deals = Deal.objects.filter(game=night.game)
    assert deals.count() == total  # 0 lost, 0 duplicates
    submitted = Submission.objects.filter(deal__game=night.game)
    per_deal = Counter(submitted.values_list("deal_id", flat=True))
    assert set(per_deal.values()) == {1}
    assert set(Submission.objects.values_list("status", flat=True)) == {"accepted"}
    entries = LedgerEntry.objects.filter(deal__game=night.game)
    counted = Counter(entries.values_list("deal_id", flat=True))
    assert len(counted) == total and set(counted.values()) == {1}  # each deal counted once
    assert Posting.objects.aggregate(s=Sum("amount"))["s"] == 0
    assert all(first == again for first, again in replays)
    assert answers[202] >= total and not any(s >= 500 for s in answers)
    figures = {
        "in_flight_at_kill": held,
        "deals": deals.count(),
        "answers": dict(answers),
        "requests": sum(attempts.values()),
        "replays": len(replays),
        "outage_s": round(back_at - killed_at, 1),
        "submits_during_outage": len(outage_latencies),
        "slowest_answer_during_outage_s": round(max(outage_latencies, default=0), 3),
        "all_scored_s_after_redis_returned": round(scored_after_return, 1),
    }
    print("FIGURES", json.dumps(figures))
