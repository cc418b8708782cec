"""Webhooks end to end: ``python -m bench webhooks`` (``--quick`` for a smaller run).

Production settings against real servers: PostgreSQL (a fresh database
``rummyclub_bench_webhooks``), Redis (database 3), a Celery worker (two processes) validating
submissions and delivering webhooks, and a receiver (a threaded HTTP server in this process)
subscribed to ``deal.scored``.

Figures:

1. deals submitted through the services at 15 a second (below the worker's capacity): each is
   validated by the worker, its ``deal.scored`` event written in that transaction and delivered;
   the latency from the event's commit (its ``created_at``, written in the committing
   transaction) to its arrival at the receiver;
2. a burst of events committed in one transaction: deliveries per second, delivery alone."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bench.scoring import REPO, _environment, _fresh_database, _percentile, _start, _stop
from config.celery import all_queues

PACE = 15  # deals a second


def _receiver(arrivals: dict[str, float]) -> ThreadingHTTPServer:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            at = time.time()
            event = json.loads(body)["id"]
            with lock:
                arrivals.setdefault(event, at)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run(quick: bool = False) -> None:
    deals = 60 if quick else 400
    db_url = os.environ.get(
        "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_webhooks"
    )
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
    _fresh_database(db_url)
    env = {**_environment(db_url, redis_url), "WEBHOOK_ALLOW_PRIVATE": "true"}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO, env=env, check=True,
    )  # fmt: skip
    subprocess.run(["redis-cli", "-u", redis_url, "flushdb"], check=True, capture_output=True)
    arrivals: dict[str, float] = {}
    server = _receiver(arrivals)
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from clubs import services as club_services
    from scoring.deals import deal_create_with_result
    from scoring.demo import _deal_payload
    from scoring.games import game_create, table_create
    from scoring.models import RulePreset
    from scoring.nights import session_create
    from webhooks.models import Event
    from webhooks.services import endpoint_create, event_emit

    user = get_user_model().objects.create(username="bench")
    club = club_services.club_create(owner=user, name="Bench Club", slug="bench")
    endpoint_create(
        club=club, actor=user, url=f"http://127.0.0.1:{server.server_address[1]}/hook",
        events=["deal.scored"],
    )  # fmt: skip
    players = [club_services.player_create(club=club, actor=user, name=f"P{i}") for i in range(6)]
    session = session_create(club=club, actor=user, name="Night")
    preset = RulePreset.objects.get(club=None, key="points")
    games = []
    for _ in range(deals // 40 + 1):
        table = table_create(session=session, actor=user)
        games.append(game_create(table=table, actor=user, preset=preset, players=players))
    connection.close()
    worker = _start(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency", "2",
         "--queues", ",".join(all_queues()),
         "-l", "WARNING", "--without-gossip", "--without-mingle"],
        env,
    )  # fmt: skip
    try:
        time.sleep(5)  # the worker's start-up
        rng = random.Random(7)
        started = time.time()
        # Paced below the worker's capacity, so the latency is a deal's own, not a queue's.
        for n in range(deals):
            time.sleep(max(0.0, started + n / PACE - time.time()))
            wild, payload = _deal_payload(rng, [p.pk for p in players])
            deal_create_with_result(
                game=games[n // 40], actor=user, wild=wild, dealer=None, number=None,
                is_tiebreaker=False, source="api", payload=payload,
            )  # fmt: skip
        submitted = time.time() - started
        deadline = time.monotonic() + 600
        while len(arrivals) < deals and time.monotonic() < deadline:
            time.sleep(0.2)
        made = {
            str(event_id): created.timestamp()
            for event_id, created in Event.objects.values_list("id", "created_at")
        }
        # Delivery alone: a burst of events committed at once, nothing else to do.
        with transaction.atomic():
            burst = [
                str(event_emit(club=club, name="deal.scored", data={"n": n}).pk)  # type: ignore[union-attr]
                for n in range(deals)
            ]
        committed = time.time()
        deadline = time.monotonic() + 600
        while sum(e in arrivals for e in burst) < deals and time.monotonic() < deadline:
            time.sleep(0.2)
        burst_done = [arrivals[e] for e in burst if e in arrivals]
    finally:
        _stop(worker)
        server.shutdown()
    delivered = [arrivals[e] for e in made if e in arrivals]
    latencies = [(arrivals[e] - made[e]) * 1000 for e in made if e in arrivals]
    span = max(delivered) - min(delivered) if len(delivered) > 1 else 0.0
    print(f"   deals submitted: {deals} in {submitted:.1f} s; events: {len(made)}; "
          f"delivered: {len(delivered)}")  # fmt: skip
    if span:
        print(f"   deliveries per second (first to last arrival): {len(delivered) / span:.1f}")
    if latencies:
        print(
            f"   commit -> delivery: p50 {_percentile(latencies, 0.5):.0f} ms, "
            f"p95 {_percentile(latencies, 0.95):.0f} ms, max {max(latencies):.0f} ms"
        )
    if burst_done:
        took = max(burst_done) - committed
        print(f"   a burst of {deals} events committed at once: {len(burst_done)} delivered in "
              f"{took:.1f} s, {len(burst_done) / took:.1f} per second")  # fmt: skip
    print(f"   (run at {datetime.now():%Y-%m-%d %H:%M})")
