"""Query counts of the scoreboard and settle-up do not grow with the number of deals."""

from __future__ import annotations

import pytest

from tests.scoring.conftest import make_night
from tests.scoring.helpers import enter_deal


def play(night, deals: int) -> None:
    results = {
        "results": night.results(
            Asha={"outcome": "loser", "points": 10},
            Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "first_drop"},
            Dev={"outcome": "middle_drop"},
            Esther={"outcome": "loser", "points": 2},
            Farid={"outcome": "winner"},
        )
    }
    for _ in range(deals):
        enter_deal(night.game, night.standing.scorer, results)


@pytest.mark.parametrize("deals", [1, 25])
@pytest.mark.parametrize("endpoint", ["scoreboard", "settlement"])
def test_session_reads_take_a_fixed_number_of_queries(
    standing, django_assert_num_queries, deals, endpoint
):
    night = make_night(standing)
    play(night, deals)
    client = standing.client("player")
    # club + caller's role, the session, then the ledger aggregates.
    expected = {"scoreboard": 5, "settlement": 5}[endpoint]
    with django_assert_num_queries(expected):
        response = client.get(f"/api/v1/clubs/home/sessions/{night.session.pk}/{endpoint}/")
    assert response.status_code == 200
    if endpoint == "scoreboard":
        assert response.json()["deals_counted"] == deals
