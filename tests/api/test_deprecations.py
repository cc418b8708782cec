"""Deprecation and Sunset headers (RFC 9745, RFC 8594): an answer that used something deprecated
says since when and until when, and one that did not says nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import pytest
from django.test import TestCase

from config.deprecations import REGISTRY, deprecated_use
from tests.scoring.helpers import new_game

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]


def _dates(response) -> tuple[datetime, datetime]:
    assert response["Deprecation"].startswith("@")
    since = datetime.fromtimestamp(int(response["Deprecation"][1:]), tz=UTC)
    return since, parsedate_to_datetime(response["Sunset"])


def _deal(standing, line: dict) -> object:
    game, ids = new_game(standing, "points", FOUR)
    lines = [{"player": ids["Asha"], "outcome": "winner"}]
    lines += [{"player": ids[n], "outcome": "loser", **line} for n in FOUR[1:]]
    with TestCase.captureOnCommitCallbacks(execute=True):
        return standing.client("scorer").post(
            f"/api/v1/clubs/home/games/{game.pk}/deals/", {"results": lines}, format="json"
        )


def test_a_result_given_as_points_is_answered_with_the_deprecation_and_its_sunset(standing):
    response = _deal(standing, {"points": 20})
    assert response.status_code == 202, response.content
    deprecation = REGISTRY["results.points"]
    assert _dates(response) == (deprecation.since, deprecation.sunset)
    assert response["Link"] == '</api/docs/>; rel="deprecation"'


def test_a_result_given_as_against_is_answered_without_them(standing):
    response = _deal(standing, {"against": 20})
    assert response.status_code == 202, response.content
    assert "Deprecation" not in response and "Sunset" not in response


def test_a_deprecated_answer_field_marks_every_answer_of_its_route(client, db):
    groups = [["2S", "3S", "4S", "5S"], ["6D", "7D", "8D"], ["9C", "10C", "JC"], ["KH", "KC", "KD"]]
    hand = {"game": "indian", "wild": "QD", "groups": groups}
    response = client.post("/api/v1/rules/evaluate/", hand, content_type="application/json")
    assert response.status_code == 200, response.content
    assert "points" in response.json()
    deprecation = REGISTRY["evaluate.points"]
    assert _dates(response) == (deprecation.since, deprecation.sunset)
    other = client.get("/api/v1/clubs/")
    assert "Deprecation" not in other


def test_the_registry_is_consistent_and_names_only_what_it_holds():
    for deprecation in REGISTRY.values():
        assert deprecation.since < deprecation.sunset
    with pytest.raises(KeyError):
        deprecated_use("no.such.field")
