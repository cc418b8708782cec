"""Webhook work for the worker and beat; each task takes ids and is safe to run twice."""

from __future__ import annotations

from django.conf import settings

from config.celery import project_task
from webhooks.services import attempts_prune, deliveries_sweep, delivery_attempt, standings_flush

# A backstop to the client's own deadline (webhooks.sending), for whatever it does not cover (a
# TLS handshake dragged out, a stuck DNS lookup): the process is freed soon after the deadline;
# the claim lapses and the sweep sends the delivery again.
_DEADLINE = settings.WEBHOOK_TIMEOUT_SECONDS


@project_task(name="webhooks.deliver", soft_time_limit=_DEADLINE + 5, time_limit=_DEADLINE + 10)
def deliver(delivery_id: int) -> str:
    return delivery_attempt(delivery_id=delivery_id)


@project_task(name="webhooks.sweep")
def sweep() -> int:
    """Every few seconds: debounced standings events that are due, then due deliveries."""
    standings_flush()
    return deliveries_sweep()


@project_task(name="webhooks.prune")
def prune() -> int:
    """Hourly: each endpoint's delivery log cut to its last 100 attempts."""
    return attempts_prune()
