"""The webhook API's input and output shapes."""

from __future__ import annotations

from rest_framework import serializers

from webhooks.models import EVENTS, Attempt, Delivery, Endpoint


class EndpointCreateInput(serializers.Serializer[dict]):
    url = serializers.URLField(max_length=500)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENTS), min_length=1, max_length=len(EVENTS)
    )
    secret = serializers.CharField(
        required=False, min_length=16, max_length=128,
        help_text="Signs each delivery: whsec_ and 24 to 64 bytes in base64 (Standard Webhooks); "
        "generated (and shown once) when not given.",
    )  # fmt: skip


class EndpointUpdateInput(serializers.Serializer[dict]):
    url = serializers.URLField(max_length=500, required=False)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENTS),
        min_length=1,
        max_length=len(EVENTS),
        required=False,
    )
    enabled = serializers.BooleanField(required=False)


class EndpointSecretInput(serializers.Serializer[dict]):
    secret = serializers.CharField(
        required=False, min_length=16, max_length=128,
        help_text="The endpoint's new secret (the one its receiver checks): whsec_ and 24 to 64 "
        "bytes in base64 (Standard Webhooks); generated (and shown once) when not given.",
    )  # fmt: skip
    enable = serializers.BooleanField(
        required=False, default=True,
        help_text="Enable the endpoint too (the default), clearing a failing state.",
    )  # fmt: skip


class EndpointOutput(serializers.ModelSerializer[Endpoint]):
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENTS), help_text="The event names it receives."
    )

    class Meta:
        model = Endpoint
        fields = ["id", "url", "events", "enabled", "health", "failures", "last_error",
                  "given_up", "failing_since", "timeouts", "resume_at", "created_at"]  # fmt: skip


class EndpointCreatedOutput(EndpointOutput):
    secret = serializers.CharField(help_text="Shown here once; keep it to check signatures.")

    class Meta(EndpointOutput.Meta):
        fields = [*EndpointOutput.Meta.fields, "secret"]


class DeliveryQueuedOutput(serializers.Serializer[dict]):
    delivery = serializers.UUIDField()
    event = serializers.UUIDField()
    status = serializers.ChoiceField(choices=Delivery.Status.choices)


class AttemptOutput(serializers.ModelSerializer[Attempt]):
    delivery = serializers.UUIDField(source="delivery.delivery_id")
    event = serializers.UUIDField(source="delivery.event_id")
    event_name = serializers.CharField(source="delivery.event.name")
    outcome = serializers.ChoiceField(
        choices=[("delivered", "answered 2xx"), ("failed", "another answer, or none")],
        help_text="This attempt's own result.",
    )
    delivery_status = serializers.ChoiceField(
        choices=Delivery.Status.choices,
        source="delivery.status",
        help_text="Where the delivery stands now, after this attempt and any later one.",
    )

    class Meta:
        model = Attempt
        fields = ["id", "at", "delivery", "event", "event_name", "outcome", "delivery_status",
                  "status_code", "duration_ms", "error", "response_body"]  # fmt: skip


class ReplayInput(serializers.Serializer[dict]):
    since = serializers.DateTimeField(
        help_text="Every event since this time (at most 7 days ago, not in the future) is sent "
        "again; ISO 8601 with its offset (`2026-11-25T20:00:00Z`)."
    )


class ReplayQueuedOutput(serializers.Serializer[dict]):
    since = serializers.DateTimeField()
    until = serializers.DateTimeField(help_text="When the replay was asked for: events after it "
                                      "are sent as they happen.")  # fmt: skip
    events = serializers.IntegerField(help_text="Events queued again, oldest first.")
    pending = serializers.IntegerField(
        help_text="Events since then still being delivered to this webhook: not queued twice."
    )
    status = serializers.ChoiceField(choices=[("queued", "queued")])
