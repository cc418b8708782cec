"""Periodic work of the outbox (celery beat)."""

from __future__ import annotations

from config.celery import project_task
from outbox.services import outbox_prune, outbox_relay


@project_task(name="outbox.relay")
def relay() -> int:
    """Every few seconds: publish what was not published right after its commit."""
    return outbox_relay()


@project_task(name="outbox.prune")
def prune() -> int:
    """Hourly: forget messages sent more than a day ago."""
    return outbox_prune()
