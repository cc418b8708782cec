"""A real Celery round trip: a worker consuming from Redis runs a task and the result comes back."""

from __future__ import annotations

import time

from django.db import transaction

from clubs.models import AuditEntry
from config.celery import app, enqueue_on_commit


@app.task(name="tests.add")
def add(x: int, y: int) -> int:
    return x + y


@app.task(name="tests.record")
def record(action: str) -> int:
    return AuditEntry.objects.create(action=action, object_type="test", object_id="1").pk


def test_task_round_trip_through_redis(celery_worker):
    result = add.delay(20, 22)
    assert result.get(timeout=20) == 42
    assert result.backend.__class__.__name__ == "RedisBackend"


def test_enqueue_on_commit_sends_only_after_commit(celery_worker):
    sent = []
    with transaction.atomic():
        enqueue_on_commit(record, "after-commit")
        sent.append(AuditEntry.objects.filter(action="after-commit").exists())
    assert sent == [False]
    for _ in range(100):
        if AuditEntry.objects.filter(action="after-commit").exists():
            break
        time.sleep(0.1)
    assert AuditEntry.objects.filter(action="after-commit").count() == 1


def test_enqueue_on_commit_drops_the_task_on_rollback(transactional_db):
    try:
        with transaction.atomic():
            enqueue_on_commit(record, "rolled-back")
            raise RuntimeError("roll back")
    except RuntimeError:
        pass
    with transaction.atomic():
        enqueue_on_commit(record, "committed")
    # Tasks run in-process here: the committed one has run, the rolled-back one never will.
    assert list(AuditEntry.objects.values_list("action", flat=True)) == ["committed"]
