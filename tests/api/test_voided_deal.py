"""A voided deal is not corrected back to life: the API refuses a new result for it, named."""

from __future__ import annotations

from django.test import TestCase

from scoring.models import Deal, Submission
from scoring.undo import deal_void
from tests.api.test_errors import assert_error
from tests.scoring.helpers import new_game, play, results

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]


def test_a_result_for_a_voided_deal_answers_409_deal_voided(standing):
    game, ids = new_game(standing, "points", FOUR)
    first = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    deal_void(deal=first.deal, actor=standing.organiser)
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = standing.client("scorer").post(
            f"/api/v1/clubs/home/deals/{first.deal_id}/submissions/",
            results(ids, Bilal="winner", Asha=10, Chitra=5, Dev=15),
            format="json",
        )
    error = assert_error(response, 409, "deal_voided")
    assert error["message"].startswith(f"deal {first.deal.number} was voided")
    assert Deal.objects.get(pk=first.deal_id).status == Deal.Status.VOID
    assert Submission.objects.filter(deal_id=first.deal_id).count() == 1
