"""The filters of the tournament lists of the API (one FilterSet per list: ``config.filters``)."""

from __future__ import annotations

from config.filters import ChoiceFilter, IdFilter, ListFilterSet
from scoring.formats import HANDLERS
from tournaments.models import Entry, Tournament


class TournamentFilterSet(ListFilterSet):
    status = ChoiceFilter(
        choices=Tournament.Status.values, description="Only tournaments in this state."
    )
    kind = ChoiceFilter(choices=Tournament.Kind.values, description="Only this kind.")
    game_format = ChoiceFilter(
        "preset__format", choices=list(HANDLERS), description="Only tournaments of this format."
    )
    # An entrant is entered once (entry_once), so this join repeats no tournament.
    player = IdFilter("entries__player_id", description="Only tournaments this player entered.")


class EntryFilterSet(ListFilterSet):
    status = ChoiceFilter(choices=Entry.Status.values, description="Only entries in this state.")
    player = IdFilter("player_id", description="Only this player's entry.")
