"""The Celery app. Project tasks take ids, are idempotent, acknowledge late and retry a bounded
number of times. A service sends work that must not be lost through the outbox
(``outbox.services.outbox_enqueue``); ``enqueue_on_commit`` is for work that a periodic
catch-up redoes."""

from __future__ import annotations

import logging
import os
from typing import Any

import redis
from celery import Celery, Task
from celery.signals import task_postrun, task_prerun, worker_init, worker_process_init
from django.conf import settings  # read when asked: this module is loaded by the settings
from django.db import OperationalError, close_old_connections, transaction
from kombu.transport import resolve_transport

from config.startup import serving_process_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

logger = logging.getLogger("rummyclub.celery")

app = Celery("rummyclub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Celery's Django fix-up closes every database connection before and after each task unless told
# to reuse them; reconnecting cost more than the work of a task. Reuse connections, and let
# Django drop the ones that are broken or older than CONN_MAX_AGE, as it does between requests.
app.conf["CELERY_DB_REUSE_MAX"] = 1_000_000


@worker_process_init.connect
def _set_aside_what_is_loaded(**kwargs: Any) -> None:
    """A pool process starts with the worker's tasks and Django loaded: out of the collector's
    reach from now on, as in a web process (``config.startup``)."""
    serving_process_ready(load_pages=False)


@worker_init.connect
def _survive_acks_on_a_lost_connection(**kwargs: Any) -> None:
    """kombu 5.7.0: a task that finishes just as the Redis connection is lost acknowledges on a
    channel whose connection is already gone; ``_connparams`` then raises ``AttributeError:
    'NoneType' object has no attribute 'hostname'`` in the worker's main loop, which exits
    ("Unrecoverable error"), as tests/reliability/test_broker_outage.py caught. The same happens
    when the channel is closed and gives its unacknowledged messages back. The message cannot
    be acknowledged then anyway: it is delivered again or, lost with the broker, sent again by
    the stale-submission sweep, and tasks are idempotent. So the failed acknowledgement is logged
    and the worker goes on reconnecting. Remove when kombu handles it.

    Done as a worker starts (``worker_init``, before it connects; its pool's processes inherit
    it), not on import: only a consumer acknowledges, and importing kombu's Redis transport with
    this module put 5 to 8 MB and some 75 modules into every process (web workers, beat,
    commands) before it had anything to publish: kombu loads it here by name, as a worker does
    for its broker's URL."""
    qos = resolve_transport("redis").Channel.QoS

    if getattr(qos.ack, "survives_a_lost_connection", False):
        return  # a second worker in the same process (the tests')

    def guarded(method: Any) -> Any:
        def call(self: Any, delivery_tag: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, delivery_tag, *args, **kwargs)
            except AttributeError:
                # Only the known case: the channel's transport has dropped its client.
                transport = getattr(self.channel, "connection", None)
                if getattr(transport, "client", None) is not None:
                    raise
                logger.warning("broker connection lost: message %s not acknowledged", delivery_tag)
                return None
            except redis.exceptions.ConnectionError:
                logger.warning("broker connection lost: message %s not acknowledged", delivery_tag)
                return None

        call.survives_a_lost_connection = True  # type: ignore[attr-defined]
        return call

    def guarded_restore(method: Any) -> Any:
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            return guarded(lambda qos, _tag, *a, **k: method(qos, *a, **k))(
                self, "unacked", *args, **kwargs
            )

        return call

    qos.ack = guarded(qos.ack)
    qos.reject = guarded(qos.reject)
    # Closing the channel after the loss gives unacknowledged messages back to a broker that is
    # gone: the same failure, on the way to reconnecting.
    qos.restore_unacked = guarded_restore(qos.restore_unacked)


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
    # No task holds a worker's process for ever (prefork workers enforce these): at the soft limit
    # the task's transaction rolls back and a sweep or catch-up does the work again; at the hard
    # limit the process is replaced. Tasks that may rightly run longer say so.
    soft_time_limit = 60
    time_limit = 90


def project_task(*args: Any, **kwargs: Any) -> Any:
    """``@project_task`` declares a task with the project defaults."""
    kwargs.setdefault("base", ProjectTask)
    kwargs.setdefault("bind", False)
    return app.task(*args, **kwargs)


def all_queues() -> list[str]:
    """Every queue a task is sent to: the default one and each a route names. A worker that
    consumes them all runs every task (the tests' and the benchmarks' single worker)."""
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    return [settings.CELERY_TASK_DEFAULT_QUEUE, *sorted(routed)]


def enqueue_on_commit(task: Any, *args: Any, **kwargs: Any) -> None:
    """Send ``task`` once the current transaction commits (at once outside a transaction), so a
    worker never looks for rows that are not there yet."""
    transaction.on_commit(lambda: task.apply_async(args=args, kwargs=kwargs))
