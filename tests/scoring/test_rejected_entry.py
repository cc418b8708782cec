"""A rejected entry of a new deal holds no number and blocks nothing: the next entry of a new deal
is that deal's next version (the API and the pages alike), so five rejected tries leave one deal,
numbered 1, and the next good entry counts as deal 1."""

from __future__ import annotations

from django.test import TestCase

from scoring.models import Deal, Submission
from tests.scoring.helpers import new_game, play, results, state

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]


def test_rejected_entries_of_a_new_deal_keep_one_deal_and_its_number(standing):
    game, ids = new_game(standing, "points", FOUR)
    no_winner = results(ids, Asha=10, Bilal=20, Chitra=30, Dev=40)
    tries = [play(standing, game, no_winner, expect="rejected") for _ in range(5)]
    assert {t.deal_id for t in tries} == {tries[0].deal_id}
    assert [t.version for t in tries] == [1, 2, 3, 4, 5]
    deal = Deal.objects.get(game=game)
    assert deal.number == 1 and deal.status == Deal.Status.OPEN
    good = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    assert good.deal_id == deal.pk and good.version == 6
    assert Deal.objects.get(pk=deal.pk).status == Deal.Status.FINAL
    # The next deal is deal 2, a new number.
    second = play(standing, game, results(ids, Bilal="winner", Asha=5, Chitra=30, Dev=40))
    assert second.deal.number == 2 and Deal.objects.filter(game=game).count() == 2


def test_a_pool_is_not_blocked_by_a_rejected_first_entry(standing):
    """Pool refuses a new deal while one waits; a rejected first entry is not in the way: the next
    entry corrects it in place."""
    game, ids = new_game(standing, "pool-101", ["Asha", "Bilal", "Chitra"])
    play(standing, game, results(ids, Asha=10, Bilal=20, Chitra=30), expect="rejected")
    counted = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30))
    assert counted.deal.number == 1 and counted.version == 2
    assert {p["name"]: p["score"] for p in state(game)["players"]}["Chitra"] == 30


def test_the_api_enters_a_rejected_new_deal_again_under_its_number(standing):
    game, ids = new_game(standing, "points", FOUR)
    api = standing.client("scorer")
    url = f"/api/v1/clubs/home/games/{game.pk}/deals/"
    answers = []
    for payload in (
        results(ids, Asha=10, Bilal=20, Chitra=30, Dev=40),
        results(ids, Asha=10, Bilal=20, Chitra=30, Dev=40),
        results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40),
    ):
        with TestCase.captureOnCommitCallbacks(execute=True):
            response = api.post(url, payload, format="json")
        assert response.status_code == 202, response.json()
        answers.append(response.json())
    deal = Deal.objects.get(game=game)
    assert deal.number == 1 and deal.status == Deal.Status.FINAL
    assert [a["deal"] for a in answers] == [deal.pk] * 3
    assert [a["version"] for a in answers] == [1, 2, 3]
    assert list(
        Submission.objects.filter(deal=deal).order_by("version").values_list("status", flat=True)
    ) == ["rejected", "rejected", "accepted"]
