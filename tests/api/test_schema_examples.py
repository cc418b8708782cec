"""Every operation's request and response bodies (and every webhook's) carry an example, and
each example is valid against its own schema (JSON Schema 2020-12, formats checked)."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from rest_framework.test import APIClient


@pytest.fixture(scope="module")
def document(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        answer = APIClient().get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    return answer.json()


def _bodies(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for section in ("paths", "webhooks"):
        for path, item in document.get(section, {}).items():
            for method, operation in item.items():
                where = f"{method.upper()} {path}"
                for kind, media in operation.get("requestBody", {}).get("content", {}).items():
                    found.append((f"{where} request {kind}", media))
                for status, response in operation.get("responses", {}).items():
                    for kind, media in response.get("content", {}).items():
                        found.append((f"{where} {status} {kind}", media))
    return found


def test_every_body_has_an_example_valid_against_its_schema(document):
    bodies = _bodies(document)
    assert len(bodies) > 200
    missing, invalid = [], []
    for where, media in bodies:
        examples = [e["value"] for e in media.get("examples", {}).values()]
        examples += [media["example"]] if "example" in media else []
        if not examples:
            missing.append(where)
            continue
        schema = {**media["schema"], "components": document["components"]}
        validator = Draft202012Validator(schema, format_checker=FormatChecker())
        for example in examples:
            errors = [
                f"{where}: {e.json_path}: {e.message}" for e in validator.iter_errors(example)
            ]
            invalid += errors[:1]
    assert not missing, missing
    assert not invalid, "\n".join(invalid)


def assert_answers_as_declared(body: Any, component: str) -> None:
    """``body`` (a real answer) is valid against the served schema's ``component``."""
    document = APIClient().get("/api/schema/", {"format": "json"}).json()
    schema = {"$ref": f"#/components/schemas/{component}", "components": document["components"]}
    errors = list(Draft202012Validator(schema, format_checker=FormatChecker()).iter_errors(body))
    assert not errors, [f"{e.json_path}: {e.message}" for e in errors]


def test_an_example_shows_what_a_request_takes(document):
    replay = document["paths"]["/api/v1/clubs/{club_slug}/webhooks/{endpoint_id}/replay/"]
    body = replay["post"]["requestBody"]["content"]["application/json"]["examples"]
    assert body["example"]["value"] == {"since": "2026-11-25T20:14:03Z"}
    answer = replay["post"]["responses"]["202"]["content"]["application/json"]["examples"]
    assert set(answer["example"]["value"]) == {"since", "until", "events", "pending", "status"}
