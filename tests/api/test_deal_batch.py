"""Batch entry: several deals of a game in one request, all or none, each with its own result
and submission, honouring ``Idempotency-Key`` as a single entry does."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.signin.services import api_token_create
from scoring.models import Deal, Session, Submission
from scoring.nights import session_close
from tests.api.test_errors import assert_error
from tests.conftest import Standing
from tests.scoring.helpers import new_game, results

pytestmark = pytest.mark.usefixtures("committing_db")

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]


@pytest.fixture
def app(standing: Standing) -> tuple[APIClient, str, dict[str, int]]:
    """A score app with a token, and the batch path of a points game of four."""
    game, pids = new_game(standing, "points", FOUR)
    _, key = api_token_create(user=standing.scorer, name="score app")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client, f"/api/v1/clubs/home/games/{game.pk}/deals/batch/", pids


def _deals(pids: dict[str, int], count: int) -> list[dict[str, Any]]:
    """``count`` deals, each won by the next player, the others losing 2, 4 and 6 points more
    each deal (so that every deal's result differs)."""
    deals = []
    for n in range(count):
        winner = FOUR[n % 4]
        losers = [name for name in FOUR if name != winner]
        lines = {winner: "winner", **{name: 2 * (i + 1) + n for i, name in enumerate(losers)}}
        deals.append(results(pids, **lines))
    return deals


def _post(client: APIClient, path: str, body: Any, key: str | None = None) -> Any:
    extra = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    return client.post(path, json.dumps(body), content_type="application/json", **extra)


def test_a_batch_of_20_deals_is_entered_in_order_each_with_its_own_result(app):
    client, path, pids = app
    body = {"deals": _deals(pids, 20)}
    response = _post(client, path, body)
    assert response.status_code == 202, response.content
    items = response.json()["deals"]
    assert len(items) == 20
    assert [item["deal"]["number"] for item in items] == list(range(1, 21))
    for item, given in zip(items, body["deals"], strict=True):
        submission = Submission.objects.get(pk=item["submission"]["id"])
        assert submission.deal_id == item["deal"]["id"]
        assert submission.status == "accepted", submission.reasons
        assert submission.payload["results"] == given["results"]
        assert item["submission"]["url"].endswith(f"/submissions/{submission.pk}/")
    assert Deal.objects.filter(status="final").count() == 20


def test_the_same_key_makes_one_batch_and_another_body_answers_422(app):
    client, path, pids = app
    body = {"deals": _deals(pids, 3)}
    first = _post(client, path, body, key="batch-1")
    again = _post(client, path, body, key="batch-1")
    assert first.status_code == again.status_code == 202
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Deal.objects.count() == 3
    other = _post(client, path, {"deals": _deals(pids, 4)}, key="batch-1")
    assert_error(other, 422, "idempotency_key_reused")
    assert Deal.objects.count() == 3


def test_one_refused_deal_refuses_the_batch_naming_its_place(app, standing):
    client, path, pids = app
    deals = _deals(pids, 3)
    deals[1]["dealer"] = 999_999
    response = _post(client, path, {"deals": deals})
    error = assert_error(response, 404, "not_found")
    assert error["message"].startswith("deals[1].dealer:")
    assert Deal.objects.count() == 0 and Submission.objects.count() == 0

    deals = _deals(pids, 3)
    deals[2]["number"] = 1  # the first deal of the batch holds it
    error = assert_error(_post(client, path, {"deals": deals}), 409, "deal_exists")
    assert error["message"].startswith("deals[2]: ") and error["details"]["index"] == 2
    assert Deal.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"deals": []}, "deals"),
        ({"deals": [{"results": []}] * 51}, "deals"),
        ({}, "deals"),
        ({"deals": [{"tiebreaker": "yes"}]}, "deals"),
    ],
)
def test_a_batch_that_cannot_be_read_is_a_400_naming_the_field(app, body, field):
    client, path, _ = app
    response = _post(client, path, body)
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["details"]
    assert Deal.objects.count() == 0


def test_a_closed_night_refuses_the_whole_batch(app, standing):
    client, path, pids = app
    session_close(session=Session.objects.get(), actor=standing.organiser)
    error = assert_error(_post(client, path, {"deals": _deals(pids, 2)}), 409, "session_closed")
    assert error["message"].startswith("deals[0]: ")
    assert Deal.objects.count() == 0
