"""Bad input answers 400 (or 404/413) in the one error shape, never 500 and never a wrapped value:
integers past their column's range, paging parameters, ids past 64 bits."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.db import connection

from clubs.models import Club
from scoring.models import Game, RulePreset
from tests.scoring.conftest import make_night


def assert_error(response, status: int, field: str | None = None) -> dict:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details"}
    if field:
        assert field in error["message"] and field in str(error["details"])
    return error


@pytest.mark.parametrize("value", [2**31, 2**32 + 100, 2**63, -1])
def test_point_value_past_its_column_answers_400_and_stores_nothing(postgres, standing, value):
    # Server-side binding on, as in production: the case where a value was wrapped.
    assert settings.DATABASES["default"]["OPTIONS"].get("server_side_binding") is True
    night = make_night(standing)
    games = Game.objects.count()
    preset = RulePreset.objects.get(club=None, key="points")
    response = standing.client("organiser").post(
        f"/api/v1/clubs/home/tables/{night.game.table_id}/games/",
        {
            "preset": preset.pk,
            "players": [night.pid("Asha"), night.pid("Bilal")],
            "point_value_minor": value,
        },
        format="json",
    )
    assert_error(response, 400, "point_value_minor")
    assert Game.objects.count() == games
    assert connection.vendor == "postgresql"


def test_ids_and_points_past_64_and_32_bits_answer_400(postgres, standing):
    night = make_night(standing)
    client = standing.client("organiser")
    path = f"/api/v1/clubs/home/games/{night.game.pk}/deals/"
    too_big_player = {"results": [{"player": 2**63, "outcome": "winner"}]}
    assert_error(client.post(path, too_big_player, format="json"), 400, "player")
    too_many_points = {
        "results": night.results(Asha={"outcome": "loser", "points": 2**31}),
    }
    assert_error(client.post(path, too_many_points, format="json"), 400, "points")
    assert not night.game.deals.exists()


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=0", "limit"),
        ("limit=501", "limit"),
        ("limit=true", "limit"),
        ("limit=1e3", "limit"),
        ("offset=-1", "offset"),
        ("offset=99999999999999999999999", "offset"),
    ],
)
def test_paging_parameters_out_of_range_answer_400_naming_them(db, standing, query, field):
    night = make_night(standing)
    client = standing.client("organiser")
    standings = f"/api/v1/clubs/home/standings/?scope=session&id={night.session.pk}&"
    for path in ("/api/v1/clubs/?", "/api/v1/clubs/home/players/?", standings):
        assert_error(client.get(f"{path}{query}"), 400, field)


def test_paging_within_range_is_accepted(db, standing):
    night = make_night(standing)
    client = standing.client("organiser")
    assert client.get("/api/v1/clubs/home/players/?limit=500&offset=0").status_code == 200
    standings = f"/api/v1/clubs/home/standings/?scope=session&id={night.session.pk}&limit=1"
    assert client.get(standings).status_code == 200


def test_an_id_past_64_bits_in_a_query_or_path_is_refused_not_a_500(db, standing):
    client = standing.client("organiser")
    response = client.get("/api/v1/clubs/home/standings/?scope=session&id=99999999999999999999")
    assert_error(response, 400, "id")
    response = client.get("/api/v1/clubs/home/deals/99999999999999999999/")
    assert_error(response, 404)


def test_a_body_over_1_mib_answers_413_in_the_error_shape(db, standing):
    client = standing.client("organiser")
    body = b'{"name": "' + b"x" * (1024 * 1024) + b'"}'
    response = client.post("/api/v1/clubs/", body, content_type="application/json")
    error = assert_error(response, 413)
    assert error["code"] == "request_too_large"


@pytest.mark.parametrize("depth", [33, 1000, 100_000])
def test_json_nested_deeper_than_32_answers_400(client, db, depth):
    body = "[" * depth + "]" * depth
    response = client.post("/api/v1/rules/evaluate/", body, content_type="application/json")
    assert assert_error(response, 400)["code"] == "too_deep"


def test_json_32_deep_is_read(client, db):
    body = '{"a": ' * 31 + '"[[[[{{{{"' + "}" * 31
    response = client.post("/api/v1/rules/evaluate/", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] != "too_deep"


def test_errors_outside_the_api_handler_keep_the_shape(client, db, settings):
    settings.DEBUG = True  # even the debug 404 page is rewritten under /api/
    assert_error(client.get("/api/v1/no/such/thing/"), 404)
    assert_error(client.get("/api/nothing"), 404)
    page = client.get("/no/such/page/")
    assert page.status_code == 404 and not page["Content-Type"].startswith("application/json")


def test_a_nul_character_in_what_would_be_stored_answers_400_and_stores_nothing(standing):
    # PostgreSQL keeps no NUL in text or jsonb: a key of a deal's "melded" reached the database
    # as a 500 (found by the schema check).
    night = make_night(standing)
    client = standing.client("scorer")
    path = f"/api/v1/clubs/home/games/{night.game.pk}/deals/"
    deals = night.game.deals.count()
    results = night.results(
        Asha={"outcome": "winner"}, Bilal={"outcome": "loser", "points": 20},
        Chitra={"outcome": "loser", "points": 30}, Dev={"outcome": "first_drop"},
        Esther={"outcome": "middle_drop"}, Farid={"outcome": "loser", "points": 10},
    )  # fmt: skip
    body = json.dumps({"wild": "QH", "results": results, "melded": {"R\x00": True}})
    error = assert_error(client.post(path, body, content_type="application/json"), 400)
    assert error["details"] == {"melded": ["melded.R\\u0000: a NUL character cannot be stored"]}
    assert night.game.deals.count() == deals
    owner = standing.client("owner")
    made = owner.post("/api/v1/clubs/", '{"name": "Nul", "x\\u0000": "\\u0000"}',
                      content_type="application/json")  # fmt: skip
    # An unknown field is refused by its name, NUL and all, never stored nor a 500.
    error = assert_error(made, 400)
    assert error["code"] == "unknown_field" and list(error["details"]) == ["x\x00"]
    assert not Club.objects.filter(name="Nul").exists()
