"""The end every kind comes to: everyone placed, the places kept, the prizes paid from the purse
through ``rules.prizes``, the tournament finished."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from rules import prizes
from tournaments.changes import audit, event
from tournaments.figures import entries_counted, prize_pool_minor
from tournaments.models import Tournament
from tournaments.purse import purse_pay_prizes

#: Sent after the commit of a change to a tournament's places (it finished, or a correction
#: reopened a round), with ``tournament_id``: what ranks by its places (a series) listens.
tournament_places_changed = Signal()


def places_changed(tournament: Tournament) -> None:
    """Announce, after the commit, that the tournament's places may have changed."""
    tournament_id = tournament.pk
    transaction.on_commit(
        lambda: tournament_places_changed.send_robust(
            sender=Tournament, tournament_id=tournament_id
        )
    )


def finish_placed(tournament: Tournament, places: dict[int, int]) -> None:
    """Everyone placed (entry id -> place): the places kept, the prizes paid from the purse,
    the tournament finished."""
    # The field the payout structure is scaled to: the entries that count (everyone placed
    # when entry is free).
    entrants = (
        entries_counted(tournament=tournament).count()
        if tournament.entry_fee_minor
        else len(places)
    )
    percentages = prizes.payout_percentages(tournament.payout, entrants)
    pool = prize_pool_minor(tournament=tournament)
    won = prizes.prizes(pool, percentages, places) if places else {}
    for entry in tournament.entries.filter(pk__in=places):
        entry.place = places[entry.pk]
        entry.save(update_fields=["place"])
    player_of = dict(tournament.entries.values_list("pk", "player_id"))
    shares = {player_of[e]: amount for e, amount in won.items() if amount}
    purse_pay_prizes(tournament=tournament, shares=shares)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    places_changed(tournament)
    audit(tournament, None, "finish", places=len(places), prizes_minor=sum(won.values()))
    event(tournament, "tournament.finished", places=len(places), prizes_minor=sum(won.values()))
