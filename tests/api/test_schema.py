from __future__ import annotations

import json

from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient


def test_schema_is_a_valid_openapi_document(db):
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    validate_schema(schema)  # raises on an invalid document
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/clubs/" in schema["paths"]
    assert "/api/v1/rules/evaluate/" in schema["paths"]
    assert schema["components"]["securitySchemes"]["TokenAuth"]["name"] == "Authorization"


def test_docs_page_is_served_without_a_cdn(db):
    response = APIClient().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger" in html.lower()
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()


def test_a_time_zone_is_a_string_not_an_enum_of_every_name(db):
    """Generated clients cannot spell 599 zone names as identifiers (GMT0 and GMT-0 collide)."""
    schema = json.loads(APIClient().get("/api/schema/", {"format": "json"}).content)
    components = schema["components"]["schemas"]
    assert "TimezoneEnum" not in components
    for name in ("ClubCreateInputRequest", "ClubUpdateInputRequest"):
        timezone = components[name]["properties"]["timezone"]
        assert timezone["type"] == "string" and "enum" not in timezone, name


def test_every_operation_has_a_summary_and_a_tag_by_subject(db):
    schema = json.loads(APIClient().get("/api/schema/", {"format": "json"}).content)
    declared = [tag["name"] for tag in schema["tags"]]
    tagged: dict[str, list[str]] = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            assert operation["summary"].strip(), where
            assert len(operation["tags"]) == 1 and operation["tags"][0] in declared, where
            tagged.setdefault(operation["tags"][0], []).append(path)
    # "clubs" is the clubs' own operations, not everything under a club.
    assert set(tagged["clubs"]) == {"/api/v1/clubs/", "/api/v1/clubs/{club_slug}/"}
    count = sum(len(paths) for paths in tagged.values())
    assert max(len(paths) for paths in tagged.values()) <= count // 4
    operation = schema["paths"]["/api/v1/clubs/{club_slug}/games/{game_id}/deals/"]["post"]
    assert operation["tags"] == ["deals"]


def test_an_answers_always_present_fields_are_required(db):
    """A generated client need not unwrap what is always there: a field with a default, one that
    may be null and a model's field are required; one the answer may leave out is not."""
    components = json.loads(APIClient().get("/api/schema/", {"format": "json"}).content)[
        "components"
    ]["schemas"]
    for name in ("SessionOutput", "TournamentOutput", "SubmissionOutput", "EntryOutput"):
        assert "status" in components[name]["required"], name
    assert {"count", "next", "previous", "results"} <= set(components["SessionPage"]["required"])
    assert {"player", "seat", "token", "details"} <= set(components["ReasonOutput"]["required"])
    assert "required" not in components["ReasonDetailsOutput"]  # each key only where it says
