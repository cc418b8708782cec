"""A long rating replay (a correction early in a large club's history replays the family from
there: about 20 s for 100,000 games, docs/performance.md) runs on the background worker, never on
a process that validates deals: another club's deals keep scoring at their normal latency while
replays are held in flight, and the replays finish once let go."""

from __future__ import annotations

import os
import signal

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from clubs.models import Club
from standings.tasks import rate_game
from tests.conftest import Standing, worker_running
from tests.scoring.conftest import make_night
from tests.webhooks.receiver import wait_for
from tests.webhooks.test_delivery import _worker
from tests.webhooks.test_scoring_isolation import _not_held_up, _p95, _scoring_latencies

REPLAYS = 3  # more than the scoring worker's 2 threads: routed there, they would hold them all


def _waiting_on_the_club_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND query LIKE 'SELECT \"scoring_game\".%%'"
        )
        return cursor.fetchone()[0]


@pytest.mark.slow
@pytest.mark.usefixtures("postgres_tx", "redis_url", "committing_db")
def test_rating_replays_held_in_flight_do_not_slow_another_clubs_scoring(standing, tmp_path):
    away = Club.objects.get(slug="away")
    other = Standing(away, *[standing.outsider] * 4, standing.outsider)
    away_game = make_night(other).game
    night = make_night(standing)
    db = settings.DATABASES["default"]
    # A replay holds its club's row for as long as it runs: holding that row here makes every
    # rating task of the club a replay that does not end until the test lets it.
    holder = psycopg.connect(
        host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"]
    )
    background = None
    try:
        with worker_running(["scoring", settings.CELERY_TASK_DEFAULT_QUEUE]):
            alone = _scoring_latencies(standing, night)
            background = _worker(tmp_path, "background", queues="webhooks,background")
            holder.execute("SELECT id FROM clubs_club WHERE id = %s FOR UPDATE", [away.pk])
            for _ in range(REPLAYS):
                rate_game.delay(away_game.pk)
            wait_for(lambda: _waiting_on_the_club_lock() >= 1, 60, "no replay in flight")
            beside = _scoring_latencies(standing, night)
            in_flight = _waiting_on_the_club_lock()
            holder.rollback()
            wait_for(lambda: _waiting_on_the_club_lock() == 0, 30, "the replays did not end")
        print(  # the figures for docs/reliability.md
            f"FIGURES alone p95 {_p95(alone):.3f} s max {max(alone):.3f} s; beside replays held"
            f" in flight p95 {_p95(beside):.3f} s max {max(beside):.3f} s"
        )
        assert in_flight == 1  # the background worker (solo) holds one; the rest wait their turn
        assert _not_held_up(beside, alone)
    finally:
        holder.close()
        if background is not None and background.poll() is None:
            os.killpg(background.pid, signal.SIGKILL)
            background.wait(timeout=10)
        with connection.cursor() as cursor:  # the workers' connections, so the DB can go
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
