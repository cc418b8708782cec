"""The desk's results grid (polled), the desk, the public tournament page, its live part and its
projector each read a fixed number of queries, whatever the size of the field: a knock-out of 12
entrants and one of 240, each with half its first round played, cost the same."""

from __future__ import annotations

import random

import pytest
from django.test import Client, TestCase

from tests.conftest import Standing
from tests.tournaments.helpers import enter, new_tournament, play_table, roster
from tournaments.models import RoundTable, Tournament
from tournaments.services.draws import round_release
from tournaments.services.setup import tournament_start

#: Path (after the club's part) -> signed in as the organiser, and its most queries: the
#: session, the user, the club, the tournament, its entries and their players, rounds and
#: tables, then what the page adds (the grid: the deals of the tables in play, the entries
#: waiting and the latest counted, the table links; the desk and the public page: the entries
#: that count and the prizes; the desk: the fees; the public pages: the running figures of the
#: tables in play, two queries for all of them, their games with their presets and their kept
#: rows).
PAGES = {
    "/clubs/home/tournaments/{t}/grid/": (True, 12),
    "/clubs/home/tournaments/{t}/": (True, 15),
    "/p/home/tournaments/{t}/": (False, 13),
    "/p/home/tournaments/{t}/live/": (False, 13),
    "/p/home/tournaments/{t}/live/?view=projector": (False, 14),
    "/p/home/tournaments/{t}/projector/": (False, 14),
}


def _half_played(standing: Standing, entrants: int) -> Tournament:
    cup = new_tournament(standing, entry_fee_minor=1000, club_fee_minor=100)
    enter(standing, cup, roster(standing, entrants))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        round_release(tournament=cup, actor=standing.organiser, number=1)
    rng = random.Random(7)
    tables = RoundTable.objects.filter(round__tournament=cup).select_related("game")
    for table in list(tables.order_by("number"))[::2]:
        seats = list(table.game.seats.order_by("position").values_list("player_id", flat=True))
        play_table(standing, table.game, {p: rng.randint(2, 80) for p in seats[1:]})
    return cup


@pytest.mark.parametrize("entrants", [12, 240])
def test_the_grid_and_the_public_pages_read_as_many_queries_whatever_the_field(
    standing, django_assert_max_num_queries, entrants
):
    standing.club.public_standings = True
    standing.club.save()
    cup = _half_played(standing, entrants)
    organiser, anonymous = Client(), Client()
    organiser.force_login(standing.organiser)
    tables = entrants // 6
    for path, (signed_in, most) in PAGES.items():
        client = organiser if signed_in else anonymous
        url = path.format(t=cup.pk)
        assert client.get(url).status_code == 200  # a session's first read, left out
        with django_assert_max_num_queries(most):
            body = client.get(url).content.decode()
        if "projector" not in path:
            # Half the tables settled (the two going on named), the others waiting for a deal.
            assert body.count("On: ") == -(-tables // 2), path
            assert body.count('data-state="waiting"') == tables // 2, path
