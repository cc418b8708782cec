"""The filters of the webhook lists of the API (one FilterSet per list: ``config.filters``)."""

from __future__ import annotations

from config.filters import ChoiceFilter, ListFilterSet, UpdatedSinceFilter
from webhooks.models import Delivery


class AttemptFilterSet(ListFilterSet):
    # An attempt never changes once made: what changed since a time is what was made since.
    updated_since = UpdatedSinceFilter(
        "at", description="Only attempts made at or after this time (RFC 3339)."
    )
    delivery_status = ChoiceFilter(
        "delivery__status",
        choices=Delivery.Status.values,
        description="Only attempts of deliveries in this state.",
    )
    # Paged newest first by cursor (a list that grows while it is read), whatever the filters.
    change_order = False
