"""The filters of the club lists of the API (one FilterSet per list: ``config.filters``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from clubs.models import Role, Tombstone
from clubs.selectors import players_found_from, players_named_from
from config.filters import BoolFilter, ChoiceFilter, ListFilterSet, TextFilter


class PlayerFilterSet(ListFilterSet):
    search = TextFilter(
        method="name_starts",
        description="Only players whose name starts with this, ignoring case (what a "
        "type-ahead asks, with e.g. `limit=20`).",
    )
    q = TextFilter(
        method="roster_search",
        description="Only players whose name or nickname starts with this, ignoring case, or "
        "whose phone number holds its digits (three or more).",
    )
    active = BoolFilter(description="Only active players (true) or retired ones (false).")

    def name_starts(self, queryset: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        return players_named_from(queryset, value)

    def roster_search(self, queryset: QuerySet[Any], name: str, value: str) -> QuerySet[Any]:
        return players_found_from(queryset, value)


class MemberFilterSet(ListFilterSet):
    role = ChoiceFilter(choices=Role.values, description="Only the members of this role.")


class TombstoneFilterSet(ListFilterSet):
    resource = ChoiceFilter(
        choices=Tombstone.Resource.values, description="Only the tombstones of this kind of row."
    )
