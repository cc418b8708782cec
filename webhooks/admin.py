from django.contrib import admin

from webhooks.models import Attempt, Delivery, Endpoint, Event


@admin.register(Endpoint)
class EndpointAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["club", "url", "enabled", "health", "failures"]
    exclude = ["secret"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "club", "created_at", "order_key"]


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["delivery_id", "endpoint", "status", "attempts", "next_attempt_at"]


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["at", "endpoint", "status_code", "duration_ms", "error"]
