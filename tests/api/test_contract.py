"""What the schema promises and the service holds to, checked without a live server: JSON types
are never guessed, a blank query parameter is one left out, the errors an operation can answer
are declared on it, and deleting what a tournament holds is a 409 naming it."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from clubs.models import Player
from config.openapi import SEAT_CHECKED
from scoring.models import Session
from tests.api.test_errors import assert_error
from tests.scoring.conftest import make_night
from tests.tournaments.helpers import new_tournament


@pytest.mark.parametrize(
    ("path", "body", "field", "message"),
    [
        ("sessions/", {"name": 0}, "name", "must be a string, not a number"),
        ("sessions/", {"name": ["Friday"]}, "name", "must be a string, not a list"),
        ("players/", {"name": True}, "name", "must be a string, not true or false"),
        ("presets/", {"key": "p", "name": "P", "format": 1, "params": {}}, "format",
         "must be a string, not a number"),
    ],
)  # fmt: skip
def test_a_value_of_the_wrong_json_type_is_refused_naming_the_field(
    standing, path, body, field, message
):
    before = Session.objects.count()
    response = standing.client("owner").post(f"/api/v1/clubs/home/{path}", body, format="json")
    error = assert_error(response, 400, "invalid")
    assert error["details"] == {field: [message]}
    assert error["message"] == f"{field}: {message}"
    assert Session.objects.count() == before


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"public_standings": "yes"}, "public_standings", "must be true or false, not a string"),
        ({"public_standings": 1}, "public_standings", "must be true or false, not a number"),
        ({"currency": 0}, "currency", "must be a string, not a number"),
    ],
)
def test_booleans_and_choices_are_not_guessed_from_other_types(standing, body, field, message):
    client = standing.client("owner")
    error = assert_error(client.patch("/api/v1/clubs/home/", body, format="json"), 400, "invalid")
    assert error["details"] == {field: [message]}
    assert client.get("/api/v1/clubs/home/").json()["public_standings"] is False


def test_a_whole_number_given_as_text_is_refused(standing):
    response = standing.client("owner").post(
        "/api/v1/clubs/home/tournaments/",
        {"name": "Cup", "preset": "1"},
        format="json",
    )
    error = assert_error(response, 400, "invalid")
    assert error["details"] == {"preset": ["must be a whole number, not a string"]}


def test_a_whole_number_with_a_zero_fraction_is_that_number_and_a_fraction_is_refused(standing):
    """JSON Schema's integer is a number with no fraction: 1.0 is 1 (as a generated client or a
    JavaScript app may send it); 1.5 is refused naming the field, and nothing is stored."""
    from scoring.models import RulePreset

    client = standing.client("owner")
    preset = RulePreset.objects.get(club=None, key="points").pk
    made = client.post(
        "/api/v1/clubs/home/tournaments/", {"name": "Cup", "preset": float(preset)}, format="json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["preset"] == preset
    refused = client.post(
        "/api/v1/clubs/home/tournaments/", {"name": "Cup 2", "preset": preset + 0.5},
        format="json",
    )  # fmt: skip
    error = assert_error(refused, 400, "invalid")
    assert error["details"] == {"preset": [f"must be a whole number, not {preset + 0.5!r}"]}
    assert [t["name"] for t in client.get("/api/v1/clubs/home/tournaments/").json()["results"]] == [
        "Cup"
    ]


def test_a_blank_query_parameter_is_one_left_out(standing):
    client = standing.client("player")
    everything = client.get("/api/v1/clubs/home/sessions/").json()
    assert client.get("/api/v1/clubs/home/sessions/?status=").json() == everything
    assert client.get("/api/v1/clubs/home/ratings/?as_of_session=&provisional=").status_code == 200
    error = assert_error(client.get("/api/v1/clubs/home/sessions/?status=AAA"), 400, "invalid")
    assert error["message"] == "status: use open, closed, not 'AAA'"
    assert error["details"] == {"status": ["use open, closed, not 'AAA'"]}
    error = assert_error(client.get("/api/v1/clubs/home/ratings/?provisional=yes"), 400, "invalid")
    assert error["message"] == "provisional: use true or false, not 'yes'"


def test_deleting_a_tournaments_night_is_a_409_naming_the_tournament(standing):
    tournament = new_tournament(standing)
    response = standing.client("organiser").delete(
        f"/api/v1/clubs/home/sessions/{tournament.session_id}/"
    )
    error = assert_error(response, 409, "held")
    assert error["details"] == {"held_by": ["tournament"]}
    assert Session.objects.filter(pk=tournament.session_id).exists()


@pytest.fixture
def schema(db):
    return json.loads(APIClient().get("/api/schema/", {"format": "json"}).content)


def _operations(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            yield path, method, operation


def test_every_operation_declares_the_errors_it_can_answer(schema):
    error = {"$ref": "#/components/schemas/Error"}
    for path, method, operation in _operations(schema):
        responses = operation["responses"]
        where = f"{method.upper()} {path}"
        for status in ("401", "503"):
            assert responses[status]["content"]["application/json"]["schema"] == error, where
        if method in ("post", "put", "patch", "delete"):
            assert {"400", "409", "413", "422"} <= responses.keys(), where
            keys = [p for p in operation["parameters"] if p["name"] == "Idempotency-Key"]
            assert keys and keys[0]["schema"]["maxLength"] == 200, where
        if "{" in path:
            assert "404" in responses, where
        if any(p["in"] == "query" for p in operation.get("parameters", [])):
            assert "400" in responses, where
        open_to_anyone = {} in operation.get("security", [])
        # Every caller has its rate limit (and a few writes are limited per club besides).
        assert "429" in responses, where
        # A table link's confirm and dispute refuse the seat that entered the entry.
        refuses_a_seat = operation["operationId"] in SEAT_CHECKED
        assert ("403" in responses) != (open_to_anyone and not refuses_a_seat), where


def test_query_parameters_carry_their_ranges(schema):
    players = schema["paths"]["/api/v1/clubs/{club_slug}/players/"]["get"]["parameters"]
    limit = next(p for p in players if p["name"] == "limit")
    assert limit["schema"]["minimum"] == 1 and limit["schema"]["maximum"] == 500
    assert limit["allowEmptyValue"] is True
    standings = schema["paths"]["/api/v1/clubs/{club_slug}/standings/"]["get"]["parameters"]
    metrics = next(p for p in standings if p["name"] == "metrics")
    assert metrics["explode"] is False and metrics["schema"]["uniqueItems"] is True
    assert "points" in metrics["schema"]["items"]["enum"]


def test_a_player_the_body_names_is_404_when_not_on_the_roster_and_409_when_retired(standing):
    night = make_night(standing)
    client = standing.client("organiser")
    path = f"/api/v1/clubs/home/games/{night.game.pk}/seats/"
    error = assert_error(client.post(path, {"player": 987654}, format="json"), 404, "not_found")
    assert error["details"] == {"player": 987654}
    retired = Player.objects.create(club=standing.club, name="Gone", active=False)
    error = assert_error(client.post(path, {"player": retired.pk}, format="json"), 409,
                         "player_retired")  # fmt: skip
    assert "Gone" in error["message"]
    assert not night.game.seats.filter(player=retired).exists()


def test_a_repeated_query_parameter_is_refused_naming_it(standing):
    """Each query parameter takes one value: ``?status=open&status=closed`` is not answered for
    one of them."""
    client = standing.client("player")
    sessions = "/api/v1/clubs/home/sessions/"
    error = assert_error(client.get(f"{sessions}?status=open&status=closed&limit=5"), 400,
                         "repeated_parameter")  # fmt: skip
    assert error["details"] == {"status": ["given 2 times"]}
    assert "'status'" in error["message"]
    error = assert_error(client.get(f"{sessions}?limit=5&limit=6&limit=7"), 400,
                         "repeated_parameter")  # fmt: skip
    assert error["details"] == {"limit": ["given 3 times"]}
    assert client.get(f"{sessions}?status=open&limit=5").status_code == 200


@pytest.mark.parametrize("path", ["sessions/", "", "standings/metrics/"])
def test_an_unknown_format_is_refused_naming_the_formats_offered(standing, path):
    client = standing.client("player")
    url = f"/api/v1/clubs/home/{path}"
    error = assert_error(client.get(f"{url}?format=xml"), 400, "unknown_format")
    assert error["details"] == {"format": ["use json, not 'xml'"]}
    assert error["message"] == "unknown format 'xml'; this operation answers in: json"
    assert client.get(f"{url}?format=json").status_code == 200
    assert client.get(f"{url}?format=").status_code == 200


def test_an_unknown_query_parameter_called_status_is_refused_naming_it(standing):
    """The name of a parameter is never taken for an argument of the answer (it was a 500)."""
    error = assert_error(standing.client("player").get("/api/v1/clubs/home/?status=open"), 400,
                         "unknown_parameter")  # fmt: skip
    assert error["details"] == {"status": ["unknown query parameter"]}
