"""A club's webhook endpoints, the events that happened, and their delivery to each endpoint.

An event is written in the transaction of the change that causes it, with a delivery for each
endpoint subscribed to it; the delivery's first send goes through the outbox, its retries are
found by a periodic sweep, so nothing is lost between the change and the receiver's 2xx."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from clubs.models import Club

EVENTS = (
    "deal.scored",
    "deal.rejected",
    "deal.corrected",
    "game.finished",
    "session.closed",
    "tournament.round_released",
    "tournament.finished",
    "standings.changed",
)
PING = "ping"


class Endpoint(models.Model):
    class Health(models.TextChoices):
        OK = "ok", "Delivering"
        FAILING = "failing", "Failing: its last attempt failed"
        SLOWED = "slowed", "Slowed: its attempts keep timing out"
        PAUSED = "paused", "Paused: its attempts kept timing out"
        DISABLED = "disabled", "Disabled after repeated failures"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(max_length=500)
    events = models.JSONField(default=list, help_text="The event names it receives.")
    secret = models.CharField(
        max_length=128,
        help_text="Signs each delivery (Standard Webhooks, whsec_...); shown once, when created.",
    )
    enabled = models.BooleanField(default=True)
    health = models.CharField(max_length=10, choices=Health.choices, default=Health.OK)
    failures = models.PositiveIntegerField(
        default=0, help_text="Failed attempts since the last delivered one (every one counts)."
    )
    given_up = models.PositiveIntegerField(
        default=0, help_text="Events given up on in a row (a delivered one resets it)."
    )
    last_error = models.CharField(
        max_length=300, blank=True, help_text="What the last failed attempt met."
    )
    failing_since = models.DateTimeField(null=True, blank=True)
    sending_until = models.DateTimeField(
        null=True, blank=True, help_text="A worker is sending to it until then (one at a time)."
    )
    timeouts = models.PositiveIntegerField(
        default=0,
        help_text="Attempts in a row that ran out of time (an answer of any kind resets it).",
    )
    resume_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Slowed or paused: no attempt is sent to it before then.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            # Two endpoints of one URL would send every event twice to the same receiver.
            models.UniqueConstraint(fields=["club", "url"], name="webhook_endpoint_one_per_url"),
        ]

    def __str__(self) -> str:
        return f"{self.club_id} -> {self.url}"


class Event(models.Model):
    """Something that happened, once, whatever the deliveries: its id lets receivers drop a
    duplicate."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=40)
    created_at = models.DateTimeField(default=timezone.now)
    data = models.JSONField(default=dict)
    order_key = models.CharField(
        max_length=60,
        blank=True,
        help_text="Events of one key (a deal) reach each endpoint in the order they happened.",
    )

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"{self.name} {self.id}"


class Delivery(models.Model):
    """One event to one endpoint: attempted until a 2xx or until its retry window ends."""

    class Status(models.TextChoices):
        PENDING = "pending", "Being delivered"
        DELIVERED = "delivered", "Delivered"
        ABANDONED = "abandoned", "Given up"

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deliveries")
    delivery_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    claimed_until = models.DateTimeField(
        null=True, blank=True, help_text="A worker sending it holds it until then."
    )
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=models.Q(status="pending"),
                name="webhook_delivery_due",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} -> {self.endpoint_id} ({self.status})"


class Attempt(models.Model):
    """One POST of a delivery: what the receiver answered (its body cut to 1 KB)."""

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="attempts")
    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempt_set")
    at = models.DateTimeField(default=timezone.now)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    response_body = models.CharField(max_length=1024, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["endpoint", "-at"], name="webhook_attempt_log")]

    def __str__(self) -> str:
        return f"{self.delivery_id}: {self.status_code or self.error}"

    @property
    def outcome(self) -> str:
        """This attempt's own result (its delivery may have succeeded at a later attempt)."""
        ok = not self.error and self.status_code is not None and 200 <= self.status_code < 300
        return "delivered" if ok else "failed"


class StandingsChange(models.Model):
    """A club whose standings changed: one ``standings.changed`` event is sent when it is due,
    however many deals counted meanwhile (the debounce)."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="+")
    due_at = models.DateTimeField()
    first_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.club_id} due {self.due_at:%H:%M:%S}"
