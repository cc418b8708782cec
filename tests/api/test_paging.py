"""One paging shape on every list: ``{"count", "next", "previous", "results"}`` with absolute
links, no bare arrays, no silent caps; a query parameter an operation does not take is a 400."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from scoring.games import table_create
from scoring.nights import session_create
from tests.tournaments.helpers import enter, new_tournament, roster


@pytest.fixture
def schema(db) -> dict:
    return json.loads(APIClient().get("/api/schema/", {"format": "json"}).content)


def _response_schema(schema: dict, operation: dict) -> dict:
    answer = operation["responses"].get("200", {})
    found = answer.get("content", {}).get("application/json", {}).get("schema", {})
    if "$ref" in found:
        found = schema["components"]["schemas"][found["$ref"].rsplit("/", 1)[1]]
    return found


def test_no_operation_answers_a_bare_array_and_every_paged_one_has_the_one_shape(schema):
    paged = []
    for path, item in schema["paths"].items():
        operation = item.get("get")
        if operation is None:
            continue
        body = _response_schema(schema, operation)
        assert body.get("type") != "array", f"GET {path} answers a bare array"
        names = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        if "limit" in names:
            paged.append(path)
            assert {"count", "next", "previous", "results"} <= set(body["properties"]), path
            assert body["properties"]["results"]["type"] == "array", path
    assert len(paged) >= 15  # every list of the API


def test_a_page_links_its_neighbours_with_absolute_urls(standing):
    for name in ("Monday", "Tuesday", "Wednesday"):
        session_create(club=standing.club, actor=standing.organiser, name=name)
    client = standing.client("player")
    first = client.get("/api/v1/clubs/home/sessions/?limit=1").json()
    assert first["count"] == 3 and len(first["results"]) == 1 and first["previous"] is None
    assert first["next"] == "http://testserver/api/v1/clubs/home/sessions/?limit=1&offset=1"
    second = client.get(first["next"]).json()
    assert second["previous"] == "http://testserver/api/v1/clubs/home/sessions/?limit=1"
    last = client.get("/api/v1/clubs/home/sessions/?limit=1&offset=2").json()
    assert last["next"] is None
    seen = [page["results"][0]["name"] for page in (first, second, last)]
    assert sorted(seen) == ["Monday", "Tuesday", "Wednesday"]  # each once, none missed


def test_a_nights_tables_and_a_tournaments_entries_are_lists_in_the_one_shape(standing):
    session = session_create(club=standing.club, actor=standing.organiser, name="Friday")
    made = [table_create(session=session, actor=standing.organiser) for _ in range(3)]
    client = standing.client("player")
    tables = f"/api/v1/clubs/home/sessions/{session.pk}/tables/"
    first = client.get(tables, {"limit": 2}).json()
    assert first["count"] == 3 and first["next"].endswith("?limit=2&offset=2")
    rest = client.get(first["next"]).json()
    assert [t["id"] for t in first["results"] + rest["results"]] == [t.pk for t in made]
    assert all(t["games"] == [] for t in first["results"])
    tournament = new_tournament(standing)
    enter(standing, tournament, roster(standing, 5))
    entries = f"/api/v1/clubs/home/tournaments/{tournament.pk}/entries/"
    page = client.get(entries, {"limit": 4}).json()
    assert page["count"] == 5 and len(page["results"]) == 4 and page["next"]
    assert {"id", "player", "name", "status", "seed", "prize_minor"} <= set(page["results"][0])


@pytest.mark.parametrize(
    ("url", "unknown"),
    [
        ("/api/v1/clubs/home/sessions/?statsu=open", "statsu"),
        ("/api/v1/clubs/home/players/?serach=As&limit=5", "serach"),
        ("/api/v1/clubs/home/", "page"),
        ("/api/v1/clubs/home/standings/?scope=season&pages=2", "pages"),
    ],
)
def test_an_unknown_query_parameter_is_refused_naming_it(standing, url, unknown):
    if url.endswith("/home/"):
        url += f"?{unknown}=2"
    response = standing.client("player").get(url)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "unknown_parameter" and unknown in error["message"]
    assert error["details"] == {unknown: ["unknown query parameter"]}


def test_the_parameters_an_operation_takes_are_said_with_the_refusal(standing):
    response = standing.client("player").get("/api/v1/clubs/home/sessions/?statsu=open")
    assert response.json()["error"]["message"] == (
        "unknown query parameter 'statsu'; this operation takes: limit, offset, season, status, "
        "updated_since"
    )


def test_a_filter_still_filters_and_pages(standing):
    from scoring.nights import session_close

    open_one = session_create(club=standing.club, actor=standing.organiser, name="Open")
    closed = session_create(club=standing.club, actor=standing.organiser, name="Closed")
    session_close(session=closed, actor=standing.organiser)
    body = standing.client("player").get("/api/v1/clubs/home/sessions/?status=open").json()
    assert [s["id"] for s in body["results"]] == [open_one.pk] and body["count"] == 1
