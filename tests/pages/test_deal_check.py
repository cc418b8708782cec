"""The entry page's check of a deal as it is typed: the server reads the form as a submission
would be read and checks it with the game's rules, answering every problem by the player's name
(and the card or field), or what each line scores; nothing is stored either way."""

from __future__ import annotations

from typing import Any

from ledger.models import LedgerEntry
from scoring.models import Deal, Submission
from tests.pages.conftest import Pages


def _check(pages: Pages, path: str, data: dict[str, Any]) -> dict[str, Any]:
    before = (Deal.objects.count(), Submission.objects.count(), LedgerEntry.objects.count())
    response = pages.client("scorer").post(path, data)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    after = (Deal.objects.count(), Submission.objects.count(), LedgerEntry.objects.count())
    assert after == before, "a check stores nothing"
    return response.json()


def test_a_valid_deal_is_scored_line_by_line(pages: Pages):
    n = pages.night
    answer = _check(pages, f"/clubs/{pages.slug}/games/{n.game.pk}/deals/new/check/", pages.form())
    assert answer["ok"] is True and answer["problems"] == []
    points = {int(pid): value for pid, value in answer["points"].items()}
    assert points[n.pid("Bilal")] == 23
    assert points[n.pid("Farid")] == 0  # the winner counts nothing and collects the rest
    assert set(points) == {player.pk for player in n.players.values()}


def test_problems_name_the_player_and_what_is_wrong(pages: Pages):
    n = pages.night
    data = pages.form()
    data[f"p{n.pid('Chitra')}-points"] = "21"  # a first drop scores 20 in this preset
    path = f"/clubs/{pages.slug}/games/{n.game.pk}/deals/new/check/"
    answer = _check(pages, path, data)
    assert answer == {
        "ok": False, "problems": ["Chitra: a first drop scores 20, not 21"], "points": {}
    }  # fmt: skip
    data[f"p{n.pid('Asha')}-outcome"] = "winner"  # and a second winner
    answer = _check(pages, path, data)
    assert "a deal has one winner, not 2 (Asha, Farid)" in answer["problems"]


def test_a_field_the_form_cannot_read_is_named_with_the_player(pages: Pages):
    n = pages.night
    data = pages.form()
    data[f"p{n.pid('Bilal')}-points"] = "twenty"
    answer = _check(pages, f"/clubs/{pages.slug}/games/{n.game.pk}/deals/new/check/", data)
    assert answer["ok"] is False
    assert any(p.startswith("Bilal's points: ") for p in answer["problems"]), answer


def test_a_correction_is_checked_against_its_deal(pages: Pages):
    deal, _ = pages.play_deal()
    n = pages.night
    data = pages.form()
    data[f"p{n.pid('Bilal')}-points"] = "30"
    answer = _check(pages, f"/clubs/{pages.slug}/deals/{deal.pk}/result/check/", data)
    assert answer["ok"] is True
    assert answer["points"][str(n.pid("Bilal"))] == 30
    assert deal.submissions.count() == 1


def test_a_game_that_takes_no_tiebreaker_says_so(pages: Pages):
    n = pages.night
    path = f"/clubs/{pages.slug}/games/{n.game.pk}/deals/tiebreaker/check/"
    answer = _check(pages, path, pages.form())
    assert answer["ok"] is False
    assert answer["problems"] and "tie-breaker" in answer["problems"][0]


def test_negative_points_are_said_as_negative_not_as_a_whole_number(pages: Pages):
    n = pages.night
    data = pages.form()
    data[f"p{n.pid('Bilal')}-points"] = "-20"
    answer = _check(pages, f"/clubs/{pages.slug}/games/{n.game.pk}/deals/new/check/", data)
    assert answer["ok"] is False
    assert answer["problems"] == [
        "Bilal's points: cannot be negative: give the points the player counts, like 20"
    ]
