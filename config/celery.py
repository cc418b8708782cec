"""The Celery app. Project tasks take ids, are idempotent, acknowledge late and retry a bounded
number of times. A service sends work that must not be lost through the outbox
(``outbox.services.outbox_enqueue``); ``enqueue_on_commit`` is for work that a periodic
catch-up redoes."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, Task
from celery.signals import task_postrun, task_prerun
from django.db import OperationalError, close_old_connections, transaction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("rummyclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Celery's Django fix-up closes every database connection before and after each task unless told
# to reuse them; reconnecting cost more than the work of a task. Reuse connections, and let
# Django drop the ones that are broken or older than CONN_MAX_AGE, as it does between requests.
app.conf["CELERY_DB_REUSE_MAX"] = 1_000_000


@task_prerun.connect
@task_postrun.connect
def _close_old_database_connections(**kwargs: Any) -> None:
    if not getattr(kwargs.get("task"), "request", None) or not kwargs["task"].request.is_eager:
        close_old_connections()


class ProjectTask(Task):  # type: ignore[misc]
    """Base for project tasks: late acks and bounded retries with back-off on transient errors."""

    acks_late = True
    reject_on_worker_lost = True
    max_retries = 5
    retry_backoff = True
    retry_backoff_max = 60
    retry_jitter = True
    # Only errors of the infrastructure are worth a retry (a lost connection, a deadlock chosen
    # as victim); a bug or a rule violation is not.
    autoretry_for: tuple[type[BaseException], ...] = (OSError, OperationalError)


def project_task(*args: Any, **kwargs: Any) -> Any:
    """``@project_task`` declares a task with the project defaults."""
    kwargs.setdefault("base", ProjectTask)
    kwargs.setdefault("bind", False)
    return app.task(*args, **kwargs)


def enqueue_on_commit(task: Any, *args: Any, **kwargs: Any) -> None:
    """Send ``task`` once the current transaction commits (at once outside a transaction), so a
    worker never looks for rows that are not there yet."""
    transaction.on_commit(lambda: task.apply_async(args=args, kwargs=kwargs))
