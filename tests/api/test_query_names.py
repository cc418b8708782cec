"""No query parameter makes a server error: every list of the club's API, asked with each
parameter name any operation of the schema takes (its own and every other's), with the names
the error helpers use for their own arguments, and a nonsense value, answers below 500 (a
parameter named ``status``, ``code`` or ``message`` once collided with the refusal's helper)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.test_permissions import ROUTES, World

# Names an error helper or a response might take as its own argument.
COLLIDING = ("status", "code", "message", "details", "detail", "headers", "self", "request")
NONSENSE = "accepted'--\u202e"


def _query_names() -> list[str]:
    schema = json.loads(APIClient().get("/api/schema/", {"format": "json"}).content)
    names = {
        parameter["name"]
        for operations in schema["paths"].values()
        for operation in operations.values()
        if isinstance(operation, dict)
        for parameter in operation.get("parameters", [])
        if parameter.get("in") == "query"
    }
    return sorted(names | set(COLLIDING))


# The club's reads that answer a list (a page of ``results``), each once; the stream holds its
# connection open and is asked in tests/live_screens.
LISTS = list(
    {
        route.url_name: route
        for route in ROUTES
        if route.method == "get" and route.url_name.endswith("-list") and "stream" not in route.name
    }.values()
)


@pytest.mark.parametrize("route", LISTS, ids=[route.name for route in LISTS])
def test_no_query_parameter_makes_a_server_error(world: World, route: Any) -> None:
    client = world.s.client("owner")
    path = route.path(world)
    names = _query_names()
    assert {"status", "limit", "offset"} <= set(names)
    failures = []
    for name in names:
        answer = client.get(path, {name: NONSENSE})
        if answer.status_code >= 500:
            failures.append(f"?{name}=: {answer.status_code}")
        elif answer.status_code == 400:
            assert answer.json()["error"]["code"], answer.content
    assert not failures, f"{path}: " + ", ".join(failures)
    assert len(LISTS) >= 10
