"""Query counts of submitting and validating a deal, and of the scoreboard and settle-up, do not
grow with the number of deals."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from scoring.deals import deal_create_with_result
from scoring.models import Submission
from scoring.submissions import submission_validate
from tests.scoring.conftest import make_night
from tests.scoring.helpers import enter_deal


def deal_result(night) -> dict:
    """One deal's result, points only."""
    return {
        "results": night.results(
            Asha={"outcome": "loser", "points": 10},
            Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "first_drop"},
            Dev={"outcome": "middle_drop"},
            Esther={"outcome": "loser", "points": 2},
            Farid={"outcome": "winner"},
        )
    }


def play(night, deals: int) -> None:
    for _ in range(deals):
        enter_deal(night.game, night.standing.scorer, deal_result(night))


@pytest.mark.parametrize("deals", [1, 25])
@pytest.mark.parametrize("endpoint", ["scoreboard", "settlement"])
def test_session_reads_take_a_fixed_number_of_queries(
    standing, django_assert_num_queries, deals, endpoint
):
    night = make_night(standing)
    play(night, deals)
    client = standing.client("player")
    # club + caller's role, the session, then the standing rows, the deals counted and the
    # club's fees; settle-up reads the scoreboard, what each player paid into the night's
    # accounts (fees paid at the desk are no debts between players), the transfers marked paid
    # and the payees' payment details (their pay links).
    expected = {"scoreboard": 5, "settlement": 8}[endpoint]
    with django_assert_num_queries(expected):
        response = client.get(f"/api/v1/clubs/home/sessions/{night.session.pk}/{endpoint}/")
    assert response.status_code == 200
    if endpoint == "scoreboard":
        assert response.json()["deals_counted"] == deals


@pytest.mark.parametrize("deals", [1, 25])
def test_player_history_takes_a_fixed_number_of_queries(standing, django_assert_num_queries, deals):
    night = make_night(standing)
    play(night, deals)
    client = standing.client("player")
    # club + caller's role, the player, then its ledger: the page's lines with their running
    # figures, the number of lines and the totals in one statement, then the page's postings,
    # counted results and games.
    with django_assert_num_queries(6):
        response = client.get(f"/api/v1/clubs/home/players/{night.pid('Farid')}/history/")
    assert response.status_code == 200
    assert response.json()["count"] == deals


def _statements(captured: CaptureQueriesContext) -> list[str]:
    """The statements run, without transaction control (which differs by database)."""
    control = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")
    return [q["sql"] for q in captured.captured_queries if not q["sql"].startswith(control)]


@pytest.mark.parametrize("history", [0, 12])
def test_submitting_and_validating_a_deal_take_a_fixed_number_of_statements(standing, history):
    night = make_night(standing)
    play(night, history)
    payload = deal_result(night)
    with (
        TestCase.captureOnCommitCallbacks(execute=False),
        CaptureQueriesContext(connection) as submit,
    ):
        _, submission = deal_create_with_result(
            game=night.game, actor=night.standing.scorer, wild="", dealer=None, number=None,
            is_tiebreaker=False, source="api", payload=payload,
        )  # fmt: skip
    assert submission is not None
    with CaptureQueriesContext(connection) as validate:
        assert submission_validate(submission_id=submission.pk).status == Submission.Status.ACCEPTED
    # Submit: lock the game, last deal number, deal, audit, submission, audit, the outbox
    # message that has it validated.
    assert len(_statements(submit)) == 7, _statements(submit)
    # Validate: submission with its deal locked, seats, claim, ledger entry, postings, standing
    # rows, player results, deal status, the club's webhook endpoints (none here), audit (the
    # deal is open: no other version counts yet).
    assert len(_statements(validate)) == 10, _statements(validate)
