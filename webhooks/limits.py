"""Pings, redeliveries and replays, the sends an organiser asks for by hand, limited per club:
any account can create a club and an endpoint, and each send may hold a webhook worker for its
whole deadline."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from clubs.models import AuditEntry, Club
from config.errors import TooManyRequests
from webhooks.models import PING, Event

WINDOW = timedelta(minutes=1)


def manual_send_check(*, club: Club) -> None:
    """Refuse (429) a ping, redelivery or replay once the club has sent
    ``WEBHOOK_MANUAL_SENDS_PER_MINUTE`` in the last minute. Counted from the rows those sends
    write (ping events, redelivery and replay audit entries), with the club's row locked in the
    caller's transaction, so two at once cannot both take the last one."""
    limit = settings.WEBHOOK_MANUAL_SENDS_PER_MINUTE
    Club.objects.select_for_update(no_key=True).filter(pk=club.pk).exists()
    since = timezone.now() - WINDOW
    pings = Event.objects.filter(club=club, name=PING, created_at__gte=since).count()
    redeliveries = AuditEntry.objects.filter(
        club=club,
        action__in=("webhook.redeliver", "webhook.replay"),
        created_at__gte=since,
    ).count()
    if pings + redeliveries >= limit:
        raise TooManyRequests(
            f"at most {limit} pings, redeliveries and replays a minute per club; "
            "try again in a minute",
            retry_after=int(WINDOW.total_seconds()),
        )
