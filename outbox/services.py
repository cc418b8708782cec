"""The transactional outbox. ``outbox_enqueue`` writes the message in the caller's transaction and
publishes it once right after the commit; whatever could not be published then (broker down,
process gone) is published by ``outbox_relay``, which beat runs every few seconds. Tasks sent this
way must be idempotent: a message may be published more than once, never zero times."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from config.celery import app
from outbox.models import OutboxMessage

logger = logging.getLogger("rummyclub.outbox")

# The publish right after commit normally wins; the relay leaves young rows to it.
RELAY_GRACE = timedelta(seconds=2)
RELAY_BATCH = 500
KEEP_SENT = timedelta(hours=24)


def outbox_enqueue(*, task: str, args: Sequence[Any] = (), key: str = "") -> OutboxMessage:
    """Record ``task(*args)`` to be sent once the caller's transaction commits (at once outside
    a transaction). It is lost only if the transaction rolls back."""
    message = OutboxMessage.objects.create(task=task, args=list(args), key=key)
    message_id, arguments = message.pk, list(args)
    transaction.on_commit(lambda: _publish_once(message_id, task, arguments))
    return message


def _publish(task: str, args: list[Any]) -> None:
    if app.conf.task_always_eager:
        # The embedded default: no broker, the task runs here and now.
        if task not in app.tasks:
            app.loader.import_default_modules()
        app.tasks[task].apply_async(args=args)
        return
    # One try, no reconnect loop: a broker that is down fails at once and the relay tries later.
    app.send_task(task, args=args, retry=False, ignore_result=True)


def _publish_once(message_id: int, task: str, args: list[Any]) -> bool:
    """Publish one message and mark it sent; a broker failure is logged and left to the relay."""
    if app.conf.task_always_eager:
        # Marked first: the task runs in-process and its own errors are not the outbox's.
        OutboxMessage.objects.filter(pk=message_id).update(
            sent_at=timezone.now(), attempts=F("attempts") + 1
        )
        _publish(task, args)
        return True
    try:
        _publish(task, args)
    except Exception as exc:  # any broker failure: the row stays unsent for the relay
        logger.warning("outbox: %s%s not published (%s); the relay will", task, args, exc)
        OutboxMessage.objects.filter(pk=message_id).update(attempts=F("attempts") + 1)
        return False
    OutboxMessage.objects.filter(pk=message_id).update(
        sent_at=timezone.now(), attempts=F("attempts") + 1
    )
    return True


def outbox_relay(*, limit: int = RELAY_BATCH) -> int:
    """Publish messages still unsent a moment after they were written; the number published.
    Stops at the first failure (the broker is down: the next run tries again)."""
    cutoff = timezone.now() - RELAY_GRACE
    published = 0
    with transaction.atomic():
        # Rows locked while published, skipped by a relay running beside this one.
        messages = list(
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True, created_at__lt=cutoff)
            .order_by("created_at")[:limit]
        )
        for message in messages:
            if not _publish_once(message.pk, message.task, list(message.args)):
                break
            published += 1
    if published:
        logger.info("outbox: relayed %d message(s)", published)
    return published


def outbox_prune(*, older_than: timedelta = KEEP_SENT) -> int:
    """Delete messages sent more than ``older_than`` ago."""
    deleted, _ = OutboxMessage.objects.filter(
        sent_at__isnull=False, sent_at__lt=timezone.now() - older_than
    ).delete()
    return deleted
