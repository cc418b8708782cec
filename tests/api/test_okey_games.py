"""A night of Okey through the API (docs/rules.md, "Okey"): deals entered as the indicator,
the finish and who showed the indicator, scored under loss and countdown, read back in the
schema's components; the game's ledger sums to zero with the book's share; bad input is refused
naming the tile or field."""

from __future__ import annotations

import json
from typing import Any

from django.test import TestCase

from ledger.models import Posting
from scoring.games import game_finish
from tests.api.test_typed_results import _checked, _state
from tests.scoring.helpers import by_name, ledger_balanced, new_game

THREE = ["Asha", "Bilal", "Chitra"]
#: With indicator R7 the okey is R8 (wild): four melds of 14 tiles, one okey as R3's place.
MELDS = ["R1", "R2", "R8", "R4", "K5", "B5", "Y5", "B9", "B10", "B11", "B12", "Y1", "Y2", "Y3"]
#: Seven pairs, an okey pairing the K9 alone.
PAIRS = ["R1", "R1", "K4", "K4", "B6", "B6", "Y9", "Y9", "FJ", "FJ", "R12", "R12", "K9", "R8"]


def okey_deal(ids: dict[str, int], finisher: str | None, **deal: Any) -> dict[str, Any]:
    shown = [ids[name] for name in deal.pop("shown", [])]
    body = {"indicator": "R7", "finisher": ids[finisher] if finisher else None, **deal}
    if shown:
        body["indicator_shown"] = shown
    return {"okey": body}


def test_a_night_of_okey_by_loss_and_its_zero_sum_ledger(standing):
    game, ids = new_game(standing, "okey", THREE, point_value_minor=50)
    first = _checked(standing, game, okey_deal(ids, "Asha", hand=MELDS), "accepted")
    result = first["result"]
    assert (result["format"], result["variant"], result["okey"]) == ("okey", "loss", "R8")
    assert result["finish"] == "melds" and result["worth"] == 2
    assert [len(group) for group in result["hand"]] and sum(map(len, result["hand"])) == 14
    points = {line["name"]: line["points"] for line in result["players"]}
    assert points == {"Asha": 0, "Bilal": -2, "Chitra": -2}
    # Seven pairs by discarding the okey: 2 x 2 x 2; Asha showed the indicator's twin (-1 each).
    second = okey_deal(ids, "Bilal", finish="pairs", okey_discard=True, hand=PAIRS, shown=["Asha"])
    points = {
        line["name"]: line["points"]
        for line in _checked(standing, game, second, "accepted")["result"]["players"]
    }
    assert points == {"Asha": -8, "Bilal": -1, "Chitra": -9}
    # The tiles ran out: nobody scores.
    third = _checked(standing, game, okey_deal(ids, None), "accepted")["result"]
    assert {line["outcome"] for line in third["players"]} == {"no_finisher"}
    state = _state(standing, game)
    assert state["format"] == "okey" and state["deals_counted"] == 3
    assert by_name(state, "total") == {"Asha": -8, "Bilal": -3, "Chitra": -11}
    assert state["status"] == "open" and state["winners"] == []
    # Money moves at the end: each pays every player ahead the difference, at 50 a point.
    net = {"Asha": 50 * (3 * -8 + 22), "Bilal": 50 * (3 * -3 + 22), "Chitra": 50 * (3 * -11 + 22)}
    assert state["settlement_minor"] == {str(ids[name]): amount for name, amount in net.items()}
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_finish(game=game, actor=standing.organiser)
    money = Posting.objects.filter(book__game=game, quantity="money")
    assert dict(money.values_list("player_id", "amount")) == {ids[n]: a for n, a in net.items()}
    assert sum(net.values()) == 0 and ledger_balanced(game)
    # Its money settled on these totals: no deal of the finished game can change them now.
    late = standing.client("scorer").post(
        f"/api/v1/clubs/home/deals/{first['deal']}/submissions/", okey_deal(ids, "Bilal"),
        format="json",
    )  # fmt: skip
    assert late.status_code == 409 and late.json()["error"]["code"] == "game_finished"


def test_a_countdown_game_ends_when_a_count_reaches_zero(standing):
    game, ids = new_game(standing, "okey-countdown-20", ["Asha", "Bilal"], params={
        "okey": {"target": 6}
    })  # fmt: skip
    first = _checked(standing, game, okey_deal(ids, "Asha", finish="pairs"), "accepted")
    assert by_name(_state(standing, game), "left") == {"Asha": 2, "Bilal": 6}
    _checked(standing, game, okey_deal(ids, None, shown=["Bilal"]), "accepted")
    assert by_name(_state(standing, game), "left") == {"Asha": 2, "Bilal": 5}
    # Each deal builds on the count before it: only the latest may be corrected.
    late = standing.client("scorer").post(
        f"/api/v1/clubs/home/deals/{first['deal']}/submissions/", okey_deal(ids, "Bilal"),
        format="json",
    )  # fmt: skip
    assert late.status_code == 409 and late.json()["error"]["code"] == "not_latest_deal"
    _checked(standing, game, okey_deal(ids, "Asha"), "accepted")
    state = _state(standing, game)
    assert state["status"] == "finished" and state["winners"] == [ids["Asha"]]
    assert by_name(state, "left") == {"Asha": 0, "Bilal": 5}
    assert ledger_balanced(game)


def test_bad_input_is_refused_naming_the_tile_or_field(standing):
    game, ids = new_game(standing, "okey", THREE)

    def refused(payload: dict[str, Any], deal: int | None = None) -> dict[str, Any]:
        body = _checked(standing, game, payload, "rejected", deal=deal)
        [reason] = body["reasons"]
        return {**reason, "deal": body["deal"]}

    reason = refused({"okey": {"indicator": "G7", "finisher": ids["Asha"]}})
    assert (reason["code"], reason["token"]) == ("bad_tile", "G7")
    assert "indicator" in reason["message"]
    deal = reason["deal"]
    reason = refused(okey_deal(ids, "Asha", hand=[*MELDS[:13], "X4"]), deal)
    assert (reason["code"], reason["token"], reason["player"]) == ("bad_tile", "X4", ids["Asha"])
    # The deal page shows the tiles as entered, the one the reason names marked.
    from tests.pages.test_club_admin import _client

    page = _client(standing.scorer).get(f"/clubs/home/deals/{deal}/").content.decode()
    assert "The finisher's tiles as entered" in page
    assert "unknown tile X4 (wrong)" in page and "red 1</span>" in page
    reason = refused(okey_deal(ids, "Asha", hand=MELDS[:13]), deal)
    assert (reason["code"], reason["token"]) == ("wrong_tile_count", "hand")
    # R7 is the indicator: its other copy lies face up, so a hand holds one at most.
    reason = refused(okey_deal(ids, "Asha", hand=["R7", "R7", *MELDS[2:]]), deal)
    assert (reason["code"], reason["token"]) == ("too_many_copies", "R7")
    reason = refused(okey_deal(ids, "Asha", finish="pairs", hand=MELDS), deal)
    assert (reason["code"], reason["token"]) == ("does_not_finish", "hand")
    reason = refused(okey_deal(ids, None, okey_discard=True), deal)
    assert (reason["code"], reason["token"]) == ("bad_field", "finisher")
    reason = refused({"okey": {"indicator": "R7", "finisher": 999999}}, deal)
    assert (reason["code"], reason["token"]) == ("not_seated", "finisher")
    reason = refused({"okey": {"indicator": "", "finisher": None}}, deal)
    assert (reason["code"], reason["token"]) == ("missing_field", "indicator")
    client = standing.client("scorer")
    url = f"/api/v1/clubs/home/deals/{deal}/submissions/"
    answer = client.post(url, {"okey": {"finisher": None}}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["message"] == "okey: indicator: This field is required."
    both = {"racks": {}, "okey": {"indicator": "R7", "finisher": None}}
    answer = client.post(url, both, format="json")
    assert answer.status_code == 400 and "not both" in answer.json()["error"]["message"]


def test_an_okey_preset_says_its_scoring_in_words_and_names_a_bad_option(standing):
    from tests.pages.test_club_admin import _client

    organiser = _client(standing.organiser)
    url = "/clubs/home/settings/presets/preview/"
    params = json.dumps({"okey": {"target": 11, "pairs_factor": 3, "one_after_thirteen": False}})
    text = organiser.get(url, {"format": "okey", "variant": "countdown", "params": params})
    assert text.status_code == 200
    words = text.content.decode()
    assert "each player counts down from 11" in words
    assert "Finishing with seven pairs counts 3 times" in words
    assert "A 1 is always low in a run (12 13 1 is refused)" in words
    loss = organiser.get(url, {"format": "okey", "variant": "loss", "params": "{}"})
    assert "A finish costs every other player 2" in loss.content.decode()
    answer = standing.client("organiser").post(
        "/api/v1/clubs/home/presets/",
        {"key": "odd", "name": "Odd", "format": "okey", "variant": "loss",
         "params": {"okey": {"finish_points": "two"}}},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_preset"
    assert "params.okey" in answer.json()["error"]["message"]
    wrong_base = {"okey": {"base": "okey"}}
    answer = standing.client("organiser").post(
        "/api/v1/clubs/home/presets/",
        {"key": "odd", "name": "Odd", "format": "okey", "variant": "countdown",
         "params": wrong_base},
        format="json",
    )  # fmt: skip
    assert (
        answer.status_code == 400
        and "is not a countdown preset" in answer.json()["error"]["message"]
    )
