"""A check of the webhook settings against each other: a delivery's claim must outlast the
longest its task can run, or the sweep would hand a delivery still being sent to a second
process and the receiver would get it twice at once."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

from webhooks.tasks import deliver

CLAIM_TOO_SHORT = "rummyclub.E002"


def claim_outlasts_delivery_check(
    app_configs: Any = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    if deliver.time_limit < settings.WEBHOOK_CLAIM_SECONDS:
        return []
    return [
        checks.Error(
            f"WEBHOOK_CLAIM_SECONDS ({settings.WEBHOOK_CLAIM_SECONDS}) must be longer than a"
            f" delivery's hard time limit ({deliver.time_limit} s, WEBHOOK_TIMEOUT_SECONDS + 10)",
            hint="Raise WEBHOOK_CLAIM_SECONDS or lower WEBHOOK_TIMEOUT_SECONDS.",
            id=CLAIM_TOO_SHORT,
        )
    ]
