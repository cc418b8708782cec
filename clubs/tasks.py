"""Periodic work of the clubs app (celery beat)."""

from __future__ import annotations

from clubs.idempotency import idempotency_keys_prune
from config.celery import project_task


@project_task(name="clubs.prune_idempotency_keys")
def prune_idempotency_keys() -> int:
    """Hourly: forget Idempotency-Keys older than a day."""
    return idempotency_keys_prune()
