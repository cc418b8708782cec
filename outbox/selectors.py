"""Reads of the outbox."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db.models import Max

from outbox.models import OutboxMessage


def outbox_last_written(*, keys: Sequence[str]) -> dict[str, datetime]:
    """When the latest message about each key was written (keys without one are absent)."""
    rows = (
        OutboxMessage.objects.filter(key__in=list(keys))
        .values("key")
        .annotate(last=Max("created_at"))
        .values_list("key", "last")
    )
    return dict(rows)
