"""POST /api/v1/rules/evaluate/: the batch command's answers over HTTP."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from rules.web.api import MAX_BATCH, AnonEvaluateThrottle

URL = "/api/v1/rules/evaluate/"


def test_malformed_json_gets_400_with_the_error_shape(db):
    response = APIClient().post(URL, data='{"id": 1,', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_request"
    assert set(response.json()["error"]) == {"code", "message", "details"}


def test_single_object_that_cannot_be_evaluated_is_400_naming_the_token(db):
    response = APIClient().post(URL, {"id": "x", "game": "chess"}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details"}  # the one error shape, nothing beside
    assert error["code"] == "bad_game"
    assert error["details"]["id"] == "x"
    [reason] = error["details"]["reasons"]
    assert reason["code"] == "bad_game" and reason["token"] == "chess"
    assert reason["player"] is None and reason["seat"] is None


def test_a_list_answers_each_item_in_order(db):
    response = APIClient().post(
        URL, [{"id": 1, "game": "chess"}, "not an object", {"id": 3}], format="json"
    )
    assert response.status_code == 200
    answers = response.json()
    assert [a["id"] for a in answers] == [1, None, 3]
    assert [a["error"]["code"] for a in answers] == ["bad_game", "bad_request", "bad_game"]


def test_more_than_the_batch_limit_is_refused(db):
    response = APIClient().post(URL, [{"id": i} for i in range(MAX_BATCH + 1)], format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "batch_too_large"
    assert error["details"] == {"max": MAX_BATCH, "given": MAX_BATCH + 1}


def test_empty_list_is_refused(db):
    response = APIClient().post(URL, [], format="json")
    assert response.json()["error"]["code"] == "empty_batch"


def test_anonymous_callers_are_throttled(db, monkeypatch):
    cache.clear()
    monkeypatch.setattr(AnonEvaluateThrottle, "rate", "3/min", raising=False)
    client = APIClient()
    statuses = [
        client.post(URL, {"id": i, "game": "x"}, format="json").status_code for i in range(4)
    ]
    assert statuses == [400, 400, 400, 429]
    throttled = client.post(URL, {"id": 9, "game": "x"}, format="json")
    assert throttled.json()["error"]["code"] == "throttled"
    assert int(throttled.headers["Retry-After"]) > 0


@pytest.mark.usefixtures("standing")
def test_logged_in_callers_are_not_throttled_as_anonymous(standing, monkeypatch):
    cache.clear()
    monkeypatch.setattr(AnonEvaluateThrottle, "rate", "1/min", raising=False)
    client = standing.client("player")
    statuses = {
        client.post(URL, {"id": i, "game": "x"}, format="json").status_code for i in range(3)
    }
    assert statuses == {400}


def test_a_hand_answers_its_count_as_against_with_points_beside_it(db):
    cards = "3H 4H 5H 5C 6C 7C QH 8D 5C 2H 2C 2D KS".split()
    hand = {"id": 1, "game": "indian", "wild": "QS", "cards": cards}
    response = APIClient().post(URL, hand, format="json")
    assert response.status_code == 200
    answer = response.json()
    assert (answer["valid"], answer["against"]) == (False, 22)
    assert answer["points"] == 22  # the older name, kept for a release
    [listed] = APIClient().post(URL, [{**hand, "outcome": "first_drop"}], format="json").json()
    assert (listed["against"], listed["points"]) == (20, 20)


def test_a_night_of_okey_is_scored_through_the_api(db):
    """Four deals of Okey as one batch: the finishes shown are judged, each deal's scores and
    the book's share answered, and the night's totals with the book sum to zero."""
    players = ["Ali", "Banu", "Cem", "Deniz"]
    finish = {
        "id": "shown",
        "game": "okey",
        "indicator": "R7",
        "hand": [
            ["R1", "R2", "R3"],
            ["K5", "B5", "Y5"],
            ["B10", "B11", "B12", "B13", "B1"],
            ["R8", "FJ", "R9"],
        ],
    }
    deals = [
        {"finisher": "Ali"},
        {"finisher": "Banu", "finish": "pairs", "indicator_shown": ["Cem"]},
        {"finisher": "Cem", "okey_discard": True},
        {"finisher": None},
    ]
    batch = [finish] + [
        {"id": index, "game": "okey", "players": players, **deal}
        for index, deal in enumerate(deals)
    ]
    response = APIClient().post(URL, batch, format="json")
    assert response.status_code == 200
    shown, *scored = response.json()
    assert shown["finishes"] is True and shown["finish"] == "melds"
    totals = dict.fromkeys(players, 0)
    book = 0
    for answer in scored:
        for name, score in answer["scores"].items():
            totals[name] += score
        book += answer["book"]
    assert totals == {"Ali": -9, "Banu": -7, "Cem": -6, "Deniz": -11}
    assert sum(totals.values()) + book == 0


def test_an_okey_group_that_is_no_meld_is_named(db):
    response = APIClient().post(
        URL,
        {
            "id": 1,
            "game": "okey",
            "indicator": "R7",
            "hand": [
                ["R1", "R2", "R3"],
                ["K5", "B5", "Y5"],
                ["B10", "B11", "B12", "B13", "B1"],
                ["R8", "FJ", "Y9"],
            ],
        },
        format="json",
    )
    assert response.status_code == 200
    answer = response.json()
    assert answer["finishes"] is False
    assert answer["reason"]["code"] == "not_a_meld" and answer["reason"]["details"] == {"group": 3}
