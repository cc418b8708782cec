"""Scoring end to end: ``python -m bench scoring`` (``--quick`` for a smaller run).

Runs the production settings against real servers: PostgreSQL (a fresh database
``rummyclub_bench``), Redis (database 2), gunicorn serving the API and a Celery worker validating
submissions, each in its own processes, all on this machine. Set ``BENCH_DATABASE_URL`` /
``BENCH_REDIS_URL`` to use other servers.

Figures:

1. submit: ``POST .../games/<id>/deals/`` with a six-player result with cards (the winner's 13
   grouped, the others' 13 ungrouped, some drops) from client threads: latency of the call (202)
   and throughput until the worker has validated and posted every deal;
2. session scoreboard and settle-up for sessions of 500 deals: latency over HTTP and the number of
   database queries per request;
3. the stack's floor: the CPU a deal would cost if our work were free (an authenticated read,
   publishing a task, a task that returns at once).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from config.celery import all_queues

REPO = Path(__file__).resolve().parent.parent
SESSIONS = 4
GAMES_PER_SESSION = 3


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _fresh_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = psycopg.connect(
        host=parts.hostname, port=parts.port or 5432, user=parts.username or "postgres",
        password=parts.password, dbname="postgres", autocommit=True,
    )  # fmt: skip
    with admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')


def _environment(db_url: str, redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DATABASE_URL=db_url,
        REDIS_URL=redis_url,
        SECRET_KEY="bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        LOG_LEVEL="WARNING",
    )
    return env


def _setup(env: dict[str, str], players_per_game: int) -> dict[str, Any]:
    """Club, scorer token, sessions and games, made in-process through the services."""
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from clubs import services as club_services
    from clubs.signin.services import api_token_create
    from scoring.games import game_create, table_create
    from scoring.models import RulePreset
    from scoring.nights import session_create

    user = get_user_model().objects.create(username="bench")
    club = club_services.club_create(owner=user, name="Bench Club", slug="bench")
    _, key = api_token_create(user=user, name="bench")
    preset = RulePreset.objects.get(club=None, key="points")
    games: list[dict[str, Any]] = []
    sessions = []
    number = 0
    for s in range(SESSIONS):
        session = session_create(club=club, actor=user, name=f"Night {s + 1}")
        sessions.append(session.pk)
        for _ in range(GAMES_PER_SESSION):
            players = [
                club_services.player_create(club=club, actor=user, name=f"P{number + i}")
                for i in range(players_per_game)
            ]
            number += players_per_game
            table = table_create(session=session, actor=user)
            game = game_create(
                table=table, actor=user, preset=preset, players=players, point_value_minor=100
            )
            games.append({"id": game.pk, "players": [p.pk for p in players]})
    return {"key": key, "games": games, "sessions": sessions}


def _payloads(players: list[int], count: int, rng: random.Random) -> list[bytes]:
    from scoring.demo import _deal_payload

    bodies = []
    for _ in range(count):
        wild, payload = _deal_payload(rng, players)
        bodies.append(json.dumps({"wild": wild, **payload}).encode())
    return bodies


def _start(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command, cwd=REPO, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _stop(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)


def _wait_http(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/health/")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not start")


def _cpu_seconds(root: int) -> float:
    """User + system CPU seconds of a process and all its descendants (from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in [root, *_descendants(root)]:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _descendants(root: int) -> list[int]:
    """The process ids under ``root`` (from /proc), not ``root`` itself."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _peak_rss_mb(pids: list[int]) -> list[float]:
    """Each process's peak resident set size (``VmHWM``) in MB, largest first."""
    peaks = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as handle:
                status = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        peaks.append(int(status["VmHWM"].split()[0]) / 1024)
    return sorted(peaks, reverse=True)


def _postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL process on this machine (best effort, via /proc), with
    those of backends that have exited (their parent's "children" times): a connection closed
    during the run must not take its CPU with it."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as handle:
                if not handle.read().startswith("postgres"):
                    continue
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(fields[index]) for index in (11, 12, 13, 14)) / tick
    return total


def _pending() -> int:
    from scoring.models import Submission

    return Submission.objects.filter(status="pending").count()


def run(quick: bool) -> None:
    db_url = os.environ.get(
        "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_bench"
    )
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    deals_per_game = 40 if quick else 500 // GAMES_PER_SESSION + 1
    paced_rate = float(os.environ.get("BENCH_PACED_RATE", "40"))
    paced_seconds = 5 if quick else 20
    _fresh_database(db_url)
    env = _environment(db_url, redis_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    world = _setup(env, players_per_game=6)
    rng = random.Random(7)
    bodies = {
        game["id"]: _payloads(game["players"], deals_per_game, rng) for game in world["games"]
    }
    per_game = int(paced_rate * paced_seconds / len(world["games"])) + 1
    paced_bodies = {
        game["id"]: _payloads(game["players"], per_game, rng) for game in world["games"]
    }
    total = sum(len(b) for b in bodies.values())

    port = _free_port()
    web = _start(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}",
         "-w", "2", "-k", "gthread", "--threads", "4", "--log-level", "warning"],
        env,
    )  # fmt: skip
    worker = _start(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "WARNING",
         "--queues", ",".join(all_queues()),
         "--concurrency", "2", "--prefetch-multiplier", "4", "--without-gossip",
         "--without-mingle", "--without-heartbeat"],
        env,
    )  # fmt: skip
    try:
        _wait_http(port)
        headers = {"Authorization": f"Token {world['key']}", "Content-Type": "application/json"}
        latencies: list[float] = []
        failures: list[str] = []
        lock = threading.Lock()

        def client(game_id: int) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            path = f"/api/v1/clubs/bench/games/{game_id}/deals/"
            mine = []
            for body in bodies[game_id]:
                started = time.perf_counter()
                connection.request("POST", path, body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                mine.append(time.perf_counter() - started)
                if response.status != 202:
                    failures.append(f"{response.status}")
            with lock:
                latencies.extend(mine)

        # Warm up: a few deals through every process before the clock starts.
        warm = world["games"][0]["id"]
        warm_connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for body in bodies[warm][:5]:
            warm_connection.request("POST", f"/api/v1/clubs/bench/games/{warm}/deals/",
                                    body=body, headers=headers)  # fmt: skip
            warm_connection.getresponse().read()
        bodies[warm] = bodies[warm][5:]
        total -= 5
        while _pending():
            time.sleep(0.05)

        cpu_before = {
            "web": _cpu_seconds(web.pid),
            "worker": _cpu_seconds(worker.pid),
            "postgres": _postgres_cpu(),
            "client": time.process_time(),
        }
        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(g["id"],)) for g in world["games"]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        submitted = time.perf_counter()
        while _pending():
            time.sleep(0.02)
        finished = time.perf_counter()
        cpu = {
            "web": _cpu_seconds(web.pid) - cpu_before["web"],
            "worker": _cpu_seconds(worker.pid) - cpu_before["worker"],
            "postgres": _postgres_cpu() - cpu_before["postgres"],
            "client": time.process_time() - cpu_before["client"],
        }
        from scoring.models import Submission

        statuses = dict(
            Submission.objects.values_list("status").annotate(
                n=__import__("django.db.models", fromlist=["Count"]).Count("id")
            )
        )
        ms = [v * 1000 for v in latencies]
        print(f"   submit {total} six-player deals with cards from {len(threads)} clients:")
        print(
            f"     call latency p50 {_percentile(ms, 0.5):.1f} ms, p95 {_percentile(ms, 0.95):.1f}"
            f" ms, p99 {_percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
        )
        print(
            f"     submitted in {submitted - started:.2f} s; all validated and posted after "
            f"{finished - started:.2f} s: {total / (finished - started):.0f} deals/s end to end"
        )
        print(f"     statuses: {statuses}; failed calls: {len(failures)}")
        print(
            "     CPU per deal: "
            + ", ".join(f"{name} {seconds / total * 1000:.1f} ms" for name, seconds in cpu.items())
        )

        # Open loop: deals sent at a steady rate, latency counted from when each was due.
        from django.db.models import F

        paced_latencies: list[float] = []
        games = [g["id"] for g in world["games"]]
        interval = len(games) / paced_rate
        first_paced = Submission.objects.order_by("-pk").values_list("pk", flat=True).first() or 0

        def paced_client(index: int, game_id: int, start: float) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            path = f"/api/v1/clubs/bench/games/{game_id}/deals/"
            mine = []
            for k, body in enumerate(paced_bodies[game_id]):
                due = start + (k + index / len(games)) * interval
                if due - start > paced_seconds:
                    break
                delay = due - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                connection.request("POST", path, body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                mine.append((time.perf_counter() - due) * 1000)
            with lock:
                paced_latencies.extend(mine)

        start = time.perf_counter() + 0.2
        threads = [
            threading.Thread(target=paced_client, args=(i, g, start)) for i, g in enumerate(games)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        while _pending():
            time.sleep(0.02)
        lags = sorted(
            (row.total_seconds() * 1000)
            for row in Submission.objects.filter(pk__gt=first_paced)
            .annotate(lag=F("validated_at") - F("submitted_at"))
            .values_list("lag", flat=True)
        )
        print(
            f"   paced at {paced_rate:.0f} deals/s for {paced_seconds} s ({len(paced_latencies)} "
            f"deals): call latency p50 {_percentile(paced_latencies, 0.5):.1f} ms, p95 "
            f"{_percentile(paced_latencies, 0.95):.1f} ms; submitted to validated p50 "
            f"{_percentile(lags, 0.5):.0f} ms, p95 {_percentile(lags, 0.95):.0f} ms"
        )

        from django.db import connection as db_connection
        from django.test.utils import CaptureQueriesContext

        from scoring import figures
        from scoring.models import Deal, Session

        for endpoint in ("scoreboard", "settlement"):
            session_id = world["sessions"][0]
            deals = Deal.objects.filter(game__table__session_id=session_id).count()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            times = []
            for i in range(30 + (100 if not quick else 20)):
                t0 = time.perf_counter()
                connection.request(
                    "GET", f"/api/v1/clubs/bench/sessions/{session_id}/{endpoint}/", headers=headers
                )
                response = connection.getresponse()
                response.read()
                if i >= 30:
                    times.append((time.perf_counter() - t0) * 1000)
                assert response.status == 200, response.status
            session = Session.objects.get(pk=session_id)
            with CaptureQueriesContext(db_connection) as queries:
                if endpoint == "scoreboard":
                    figures.session_scoreboard(session=session)
                else:
                    figures.session_settlement(session=session)
            print(
                f"   {endpoint} of a session of {deals} deals over HTTP: p50 "
                f"{_percentile(times, 0.5):.1f} ms, p95 {_percentile(times, 0.95):.1f} ms "
                f"({len(queries)} queries in the selector, +3 for auth, club and session)"
            )
        _floor(port, headers, web, worker, requests=200 if quick else 1000)
        # After every figure above: the peak of a worker that has served all of it.
        web_peaks = ", ".join(f"{mb:.1f}" for mb in _peak_rss_mb(_descendants(web.pid)))
        worker_peaks = ", ".join(f"{mb:.1f}" for mb in _peak_rss_mb(_descendants(worker.pid)))
        print(
            f"   peak resident size (VmHWM): gunicorn workers {web_peaks} MB; Celery pool "
            f"processes {worker_peaks} MB"
        )
    finally:
        _stop(web)
        _stop(worker)


def _floor(
    port: int,
    headers: dict[str, str],
    web: subprocess.Popen[bytes],
    worker: subprocess.Popen[bytes],
    requests: int,
) -> None:
    """What the stack costs before any work of ours, on the same processes: an authenticated
    read of the club (token and club: two queries), publishing a task, and a validation task
    for a submission already decided (it locks the row, sees the status and returns)."""
    from scoring.models import Submission
    from scoring.tasks import validate_submission

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    before = _cpu_seconds(web.pid)
    for _ in range(requests):
        connection.request("GET", "/api/v1/clubs/bench/", headers=headers)
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
    web_ms = (_cpu_seconds(web.pid) - before) / requests * 1000

    decided = Submission.objects.filter(status="accepted").values_list("pk", flat=True).first()
    before_worker, before_pg = _cpu_seconds(worker.pid), _postgres_cpu()
    before_publish = time.process_time()
    for _ in range(requests):
        validate_submission.apply_async(args=[decided])
    publish_ms = (time.process_time() - before_publish) / requests * 1000
    import redis
    from django.conf import settings

    queue = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    while queue.llen(settings.CELERY_TASK_DEFAULT_QUEUE) or queue.hlen("unacked"):
        time.sleep(0.05)
    worker_ms = (_cpu_seconds(worker.pid) - before_worker) / requests * 1000
    postgres_ms = (_postgres_cpu() - before_pg) / requests * 1000
    floor = web_ms + publish_ms + worker_ms + postgres_ms
    print(
        f"   the stack's floor, per deal: web {web_ms:.1f} ms (a token-authenticated read of "
        f"the club), publishing the task {publish_ms:.1f} ms, worker {worker_ms:.1f} ms (a task "
        f"that locks a decided submission and returns), PostgreSQL {postgres_ms:.1f} ms: "
        f"{floor:.1f} ms, at most {2000 / floor:.0f} deals/s on two cores if the work were free"
    )
