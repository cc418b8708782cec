"""Work that must not be lost, written in the transaction of the change that causes it."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class OutboxMessage(models.Model):
    """A task to send: published right after its transaction commits, and by the relay (beat)
    while it is still unsent (the broker was down, the process died before publishing)."""

    task = models.CharField(max_length=200, help_text="The Celery task's name.")
    args = models.JSONField(default=list, help_text="Its positional arguments (ids).")
    key = models.CharField(
        max_length=200, blank=True, help_text="What it is about, e.g. the submission it validates."
    )
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=models.Q(sent_at__isnull=True),
                name="outbox_unsent",
            ),
            models.Index(fields=["key", "-created_at"], name="outbox_key_time"),
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)} ({'sent' if self.sent_at else 'unsent'})"
