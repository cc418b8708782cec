"""A tournament's report: the field, every round's tables and who went on from each, the places
and the prizes, read through the selectors and the helpers of the desk and the public page
(``tournaments.selectors``, ``tournaments.views.places_shown`` and ``pool_words``), so that every
figure is the one they show."""

from __future__ import annotations

from typing import Any

from clubs.models import Club
from clubs.page_kit.display import club_money
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.views import places_shown, pool_words


def tournament_report_context(club: Club, tournament: Tournament) -> dict[str, Any]:
    view = selectors.tournament_view(tournament=tournament)
    grid = selectors.tournament_grid(tournament=tournament, view=view)
    money = not club.points_only and bool(tournament.entry_fee_minor)
    counting = {entry.pk for entry in view.counted}
    return {
        "club": club,
        "tournament": tournament,
        "view": view,
        "money_shown": money,
        "field": [
            {
                "seed": e.seed,
                "name": e.player.name,
                "status": e.get_status_display(),
                "counted": e.pk in counting,
            }
            for e in view.entries
        ],
        "rounds": [
            {"round": played, "cells": grid.cells.get(played.number, [])} for played in grid.rounds
        ],
        "places": places_shown(club, view),
        "prize_pool": club_money(club, view.prize_pool_minor) if money else "",
        "pool_words": pool_words(club, view) if money else "",
        "fee": club_money(club, tournament.entry_fee_minor) if money else "",
    }
