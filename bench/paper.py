"""Reports at the size of a long night: ``python -m bench paper`` (``--quick``: fewer requests).

A club on PostgreSQL (a fresh database ``rummyclub_bench_paper``) with one night of four tables
of six players, points rummy for money, 30 deals a table (120 deals) entered through the
services, the night closed and one transfer marked paid. The night's PDF report, its standings
image (PNG), its share text and a game's score sheet (PDF) are requested through the whole
Django stack on production settings (the organiser signed in) and timed: p50 and p95 of 10
requests (``--quick``: 3), the median CPU time of the process (the figure that does not depend
on the machine's other work), the report's pages and size. The first request of a process (fonts
looked up) is timed apart."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from typing import Any

from bench.scoring import _fresh_database, _percentile
from bench.standings import REPO, _environment

TABLES = 4
SEATS = 6
DEALS_PER_TABLE = 30
REQUESTS = 10


def _night() -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from clubs import services as club_services
    from scoring import figures
    from scoring.deals import deal_create_with_result
    from scoring.games import game_create, table_create
    from scoring.models import RulePreset
    from scoring.nights import session_close, session_create, transfer_mark_paid

    user, _ = get_user_model().objects.get_or_create(username="bench-paper")
    club = club_services.club_create(owner=user, name="Bench Paper", slug="paper")
    night = session_create(club=club, actor=user, name="Long night")
    preset = RulePreset.objects.get(club=None, key="points")
    for table_number in range(TABLES):
        players = [
            club_services.player_create(club=club, actor=user, name=f"P{table_number}-{seat}")
            for seat in range(SEATS)
        ]
        game = game_create(
            table=table_create(session=night, actor=user), actor=user, preset=preset,
            players=players, point_value_minor=100,
        )  # fmt: skip
        for number in range(DEALS_PER_TABLE):
            winner = players[number % SEATS]
            lines = [{"player": winner.pk, "outcome": "winner"}] + [
                {"player": p.pk, "outcome": "loser", "against": 5 + (7 * number + i) % 75}
                for i, p in enumerate(players) if p != winner
            ]  # fmt: skip
            deal_create_with_result(
                game=game, actor=user, wild="", dealer=None, number=None, is_tiebreaker=False,
                source="import", payload={"results": lines},
            )  # fmt: skip
    session_close(session=night, actor=user)
    first = figures.session_settlement(session=night)[0]
    transfer_mark_paid(session=night, actor=user, payer=first.payer_key, payee=first.payee_key)
    return {
        "user": user,
        "base": f"/clubs/{club.slug}/sessions/{night.pk}/",
        "sheet": f"/clubs/{club.slug}/games/{game.pk}/sheet.pdf",
    }


def _measure(client: Any, path: str, requests: int) -> tuple[float, float, float, bytes]:
    """p50 and p95 of the wall clock, the median CPU time of this process (what the request
    costs whatever else the machine runs), in ms, and the body."""
    times, cpu = [], []
    body = b""
    for _ in range(requests):
        started, cpu_started = time.perf_counter(), time.process_time()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
        assert response.status_code == 200, (path, response.status_code)
        body = response.content
    return _percentile(times, 0.5), _percentile(times, 0.95), _percentile(cpu, 0.5), body


def run(quick: bool) -> None:
    db_url = os.environ.get(
        "BENCH_PAPER_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_paper"
    )
    env = _environment(db_url)
    _fresh_database(db_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    from django.test import Client
    from pypdf import PdfReader

    from config.startup import serving_process_ready

    started = time.perf_counter()
    world = _night()
    print(f"   night of {TABLES * DEALS_PER_TABLE} deals loaded in "
          f"{time.perf_counter() - started:.1f} s", flush=True)  # fmt: skip
    serving_process_ready(load_pages=True)
    client = Client()
    client.force_login(world["user"])
    requests = 3 if quick else REQUESTS
    first, _, first_cpu, _ = _measure(client, world["base"] + "report.pdf", 1)
    print(f"   first report of the process: {first:.0f} ms ({first_cpu:.0f} ms CPU)", flush=True)
    print(f"   {'what':<24} {'p50 ms':>8} {'p95 ms':>8} {'CPU ms':>8} {'pages':>6} {'KB':>6}",
          flush=True)  # fmt: skip
    for label, path in (("night report (PDF)", world["base"] + "report.pdf"),
                        ("standings image (PNG)", world["base"] + "standings.png"),
                        ("share text", world["base"] + "share.txt"),
                        ("game's score sheet (PDF)", world["sheet"])):  # fmt: skip
        p50, p95, cpu, body = _measure(client, path, requests)
        pages = len(PdfReader(io.BytesIO(body)).pages) if path.endswith(".pdf") else ""
        print(f"   {label:<24} {p50:>8.0f} {p95:>8.0f} {cpu:>8.0f} {pages!s:>6}"
              f" {len(body) / 1024:>6.0f}", flush=True)  # fmt: skip
