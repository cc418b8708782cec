"""The standings' writes: a club's order of metrics. Keyword-only, atomic, audited (the ratings'
writes are in ``standings.ratings``)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from clubs.audit import audit_record
from clubs.models import Club
from standings.metrics import check_metric_ids


@transaction.atomic
def standings_order_set(*, club: Club, actor: AbstractBaseUser, order: list[str]) -> Club:
    """The club's order of standings metrics (ids of ``standings.metrics.METRICS``)."""
    check_metric_ids(order, club=club)
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = {"standings_metrics": club.standings_metrics}
    club.standings_metrics = order
    club.save(update_fields=["standings_metrics"])
    audit_record(
        actor=actor,
        club=club,
        action="club.standings_order",
        obj=club,
        before=before,
        after={"standings_metrics": order},
    )
    return club
