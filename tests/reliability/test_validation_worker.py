"""Submissions validated by a real Celery worker on Redis, and validation that dies half-way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from ledger.models import LedgerEntry, Posting
from scoring.deals import deal_create
from scoring.models import PlayerResult, Submission
from scoring.submissions import submission_validate, submissions_requeue_stale
from tests.scoring.conftest import Night, make_night

REPO = Path(__file__).resolve().parents[2]


def payload(night: Night) -> dict:
    return {
        "results": night.results(
            Asha={"outcome": "loser", "points": 12},
            Bilal={"outcome": "loser", "points": 34},
            Chitra={"outcome": "loser", "points": 56},
            Dev={"outcome": "first_drop"},
            Esther={"outcome": "middle_drop"},
            Farid={"outcome": "winner"},
        )
    }


def wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)


@pytest.mark.usefixtures("postgres_tx")
def test_submissions_are_validated_by_a_worker_on_redis(standing, celery_worker):
    night = make_night(standing)
    client = APIClient()
    client.force_authenticate(standing.scorer)
    deal = client.post(f"/api/v1/clubs/home/games/{night.game.pk}/deals/", {}, format="json")
    urls = []
    for _ in range(3):
        response = client.post(
            f"/api/v1/clubs/home/deals/{deal.json()['id']}/submissions/",
            payload(night),
            format="json",
        )
        assert response.status_code == 202
        urls.append(response.json()["url"])
    wait_for(lambda: not Submission.objects.filter(status="pending").exists())
    statuses = [client.get(url).json()["status"] for url in urls]
    assert statuses.count("accepted") == 1
    assert statuses[-1] == "accepted"  # the newest version wins
    assert LedgerEntry.objects.filter(kind="deal", reversed_by__isnull=True).count() == 1


def _lock_connection() -> psycopg.Connection:
    """A connection of its own, outside Django (autocommit: each read sees the present)."""
    settings = connection.settings_dict
    return psycopg.connect(
        autocommit=True,
        dbname=settings["NAME"],
        user=settings["USER"],
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        password=settings["PASSWORD"] or None,
    )


@pytest.mark.usefixtures("postgres_tx")
def test_validation_killed_before_commit_leaves_nothing_and_a_rerun_completes_it(standing):
    night = make_night(standing)
    deal = deal_create(game=night.game, actor=standing.scorer)
    submission = Submission.objects.create(
        deal=deal, version=1, source="api", payload=payload(night), submitted_by=standing.scorer
    )
    settings = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": (
            f"postgresql://{settings['USER']}@{settings['HOST']}:{settings['PORT'] or 5432}"
            f"/{settings['NAME']}"
        ),
    }
    code = (
        "import django; django.setup(); from scoring.submissions import submission_validate; "
        f"submission_validate(submission_id={submission.pk})"
    )
    blocker = _lock_connection()
    try:
        # Hold a lock that the validation needs after it has written the ledger lines, so the
        # worker is caught in the middle of its transaction.
        blocker.execute("BEGIN")
        blocker.execute("LOCK TABLE scoring_playerresult IN SHARE MODE")
        worker = subprocess.Popen(
            [sys.executable, "-c", code], cwd=REPO, env=env, start_new_session=True
        )
        waiting = (
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query LIKE 'INSERT INTO \"scoring_playerresult\"%%'"
        )
        with _lock_connection() as observer:
            # A fresh Python process loads Django first: give it time on a busy machine.
            wait_for(lambda: observer.execute(waiting).fetchone() is not None, timeout=120)
            backend = observer.execute(waiting).fetchone()[0]
            # It has already written ledger lines (uncommitted) when it is killed.
            wrote = (
                "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                "WHERE l.pid = %s AND c.relname = 'scoring_posting' AND l.mode = 'RowExclusiveLock'"
            )
            assert observer.execute(wrote, [backend]).fetchone()[0] == 1
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
            blocker.execute("ROLLBACK")
            gone = "SELECT count(*) FROM pg_stat_activity WHERE pid = %s"
            wait_for(lambda: observer.execute(gone, [backend]).fetchone()[0] == 0)
    finally:
        blocker.close()

    assert worker.returncode == -signal.SIGKILL
    submission.refresh_from_db()
    assert submission.status == "pending"
    assert not Posting.objects.exists()
    assert not LedgerEntry.objects.exists()
    assert not PlayerResult.objects.exists()

    assert submission_validate(submission_id=submission.pk).status == "accepted"
    assert LedgerEntry.objects.filter(submission=submission).count() == 1
    assert Posting.objects.filter(quantity="points").count() == 6


def test_stale_pending_submissions_are_sent_again(standing, committing_db):
    night = make_night(standing)
    deal = deal_create(game=night.game, actor=standing.scorer)
    lost = Submission.objects.create(
        deal=deal, version=1, source="api", payload=payload(night), submitted_by=standing.scorer
    )
    fresh_deal = deal_create(game=night.game, actor=standing.scorer)
    fresh = Submission.objects.create(
        deal=fresh_deal,
        version=1,
        source="api",
        payload=payload(night),
        submitted_by=standing.scorer,
    )
    Submission.objects.filter(pk=lost.pk).update(
        submitted_at=timezone.now() - timedelta(minutes=10)
    )
    assert submissions_requeue_stale() == [lost.pk]
    lost.refresh_from_db()
    fresh.refresh_from_db()
    assert lost.status == "accepted"  # tasks run in-process here
    assert fresh.status == "pending"  # its own message may still be on its way
