"""Reads of a club's webhooks, always within the club."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clubs.models import Club
from config.errors import NotFoundError
from webhooks.models import Attempt, Delivery, Endpoint
from webhooks.services import KEEP_ATTEMPTS


def endpoint_list(*, club: Club) -> QuerySet[Endpoint]:
    return club.webhook_endpoints.order_by("id")


def endpoint_get(*, club: Club, endpoint_id: int) -> Endpoint:
    endpoint = club.webhook_endpoints.filter(pk=endpoint_id).first()
    if endpoint is None:
        raise NotFoundError(
            _("no webhook #%(id)s in %(club)s") % {"id": endpoint_id, "club": club.name}
        )
    return endpoint


def attempt_log(*, endpoint: Endpoint) -> QuerySet[Attempt]:
    """The endpoint's last attempts, newest first, with the delivery and event of each."""
    return (
        Attempt.objects.filter(endpoint=endpoint)
        .select_related("delivery__event")
        .order_by("-at", "-id")[:KEEP_ATTEMPTS]
    )


def attempt_list(*, endpoint: Endpoint) -> QuerySet[Attempt]:
    """The endpoint's last ``KEEP_ATTEMPTS`` attempts, newest first, with the delivery and event
    of each (older ones wait for the prune, but are no longer shown)."""
    attempts = Attempt.objects.filter(endpoint=endpoint)
    oldest_kept = list(
        attempts.order_by("-id").values_list("id", flat=True)[KEEP_ATTEMPTS - 1 : KEEP_ATTEMPTS]
    )
    if oldest_kept:
        attempts = attempts.filter(id__gte=oldest_kept[0])
    return attempts.select_related("delivery__event").order_by("-id")


def delivery_get(*, endpoint: Endpoint, delivery_id: str) -> Delivery:
    delivery = (
        Delivery.objects.filter(endpoint=endpoint, delivery_id=delivery_id)
        .select_related("event__club", "endpoint__club")
        .first()
    )
    if delivery is None:
        raise NotFoundError(_("no delivery %(id)s of this webhook") % {"id": delivery_id})
    return delivery
