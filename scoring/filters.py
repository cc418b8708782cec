"""The filters of the scoring lists of the API (one FilterSet per list: ``config.filters``)."""

from __future__ import annotations

from config.filters import ChoiceFilter, IdFilter, ListFilterSet
from scoring.formats import HANDLERS
from scoring.models import Deal, Game, Session, Submission


class SessionFilterSet(ListFilterSet):
    status = ChoiceFilter(choices=Session.Status.values, description="Only nights open or closed.")
    season = IdFilter("season_id", description="Only the nights of this season.")


class GameFilterSet(ListFilterSet):
    session = IdFilter("table__session_id", description="Only the games of this night.")
    table = IdFilter("table_id", description="Only the games of this table.")
    # ``format`` is DRF's own parameter (the answer's format, ``?format=json``).
    game_format = ChoiceFilter(
        "format", choices=list(HANDLERS), description="Only games of this format."
    )
    status = ChoiceFilter(choices=Game.Status.values, description="Only games in play or over.")
    # A player sits once in a game (seat_player_once), so this join repeats no game.
    player = IdFilter("seats__player_id", description="Only the games this player sat in.")


class DealFilterSet(ListFilterSet):
    status = ChoiceFilter(choices=Deal.Status.values, description="Only deals in this state.")


class SubmissionFilterSet(ListFilterSet):
    status = ChoiceFilter(
        choices=Submission.Status.values, description="Only the versions in this state."
    )


class ClubDealFilterSet(DealFilterSet):
    game = IdFilter("game_id", description="Only the deals of this game.")
    session = IdFilter("game__table__session_id", description="Only the deals of this night.")


class ClubSubmissionFilterSet(SubmissionFilterSet):
    deal = IdFilter("deal_id", description="Only the versions of this deal.")
    game = IdFilter("deal__game_id", description="Only the versions of this game's deals.")
