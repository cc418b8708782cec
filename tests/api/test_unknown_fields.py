"""Every write of the API refuses a body field it does not take: 400 ``unknown_field`` naming it
(in ``details``, as any field error), and nothing stored changes. Table-driven over every write
operation of the served schema: the club's routes with the permission table's bodies (which that
table shows are accepted), the others below."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.test import TestCase
from rest_framework.test import APIClient

from clubs.models import Invitation
from config.api_input import UNKNOWN_FIELD
from tests.api.test_errors import assert_error
from tests.api.test_permissions import ROUTES, World

# Takes any request object (its fields are each game's own) and stores nothing.
OPEN_BODIES = {"rules_evaluate"}
WRITES = {"post", "put", "patch", "delete"}


@dataclass(frozen=True)
class Write:
    name: str
    method: str
    path: Callable[[World], str]
    body: Callable[[World], dict[str, Any]] | None
    who: str = "owner"


def _invitation(w: World) -> int:
    made = w.s.client("owner").post(
        "/api/v1/clubs/home/members/", {"username": "outsider", "role": "player"}, format="json"
    )
    assert made.status_code == 202, made.content
    return Invitation.objects.filter(invitee=w.s.outsider).latest("pk").pk


def _link_token(w: World) -> str:
    made = w.s.client("owner").post(
        f"/api/v1/clubs/home/tables/{w.table}/links/", {"mode": "confirm"}, format="json"
    )
    assert made.status_code == 201, made.content
    return str(made.json()["token"])


def _token_id(w: World) -> int:
    from clubs.signin import services

    token, _ = services.api_token_create(
        user=w.s.owner, name="Scores", scopes=("read",), club_slugs=["home"]
    )
    return int(token.pk)


def _table_deal(w: World) -> dict[str, Any]:
    from tests.api.test_permissions import _results

    return {"seat": 1, **_results(w)}


def _officer_of(w: World) -> str:
    """The federation ``rf`` with the club's owner among its officers."""
    from federation.models import Federation, Officer
    from tests.api.test_permissions import _federation

    slug = _federation(w)
    Officer.objects.get_or_create(federation=Federation.objects.get(slug=slug), user=w.s.owner)
    return f"/api/v1/federations/{slug}"


def _fed_object(w: World, kind: str) -> int:
    from federation.models import Federation, FederationPlayer, PlayerLink, PlayerMerge
    from tests.api.test_permissions import _asha, _sanctioned

    federation = Federation.objects.get(slug="rf")
    if kind == "link":
        return PlayerLink.objects.create(federation=federation, player_id=_asha(w), name="A").pk
    if kind == "event":
        return _sanctioned(w)
    one = FederationPlayer.objects.create(federation=federation, name="One")
    two = FederationPlayer.objects.create(federation=federation, name="Two", merged_into=one)
    if kind == "player":
        return one.pk
    return PlayerMerge.objects.create(federation=federation, source=two, target=one).pk


OTHER_WRITES = [
    Write("federation link decide", "post",
          lambda w: f"{_officer_of(w)}/links/{_fed_object(w, 'link')}/decide/",
          lambda w: {"confirm": True}),
    Write("federation sanction decide", "post",
          lambda w: f"{_officer_of(w)}/events/{_fed_object(w, 'event')}/sanction/",
          lambda w: {"approve": True}),
    Write("federation release", "post",
          lambda w: f"{_officer_of(w)}/events/{_fed_object(w, 'event')}/release/", None),
    Write("federation return", "post",
          lambda w: f"{_officer_of(w)}/events/{_fed_object(w, 'event')}/return/",
          lambda w: {"reason": "names"}),
    Write("federation merge", "post", lambda w: f"{_officer_of(w)}/merges/",
          lambda w: {"source": _fed_object(w, "player"), "target": _fed_object(w, "player")}),
    Write("federation unmerge", "post",
          lambda w: f"{_officer_of(w)}/merges/{_fed_object(w, 'merge')}/undo/", None),
    Write("federation publish", "post", lambda w: f"{_officer_of(w)}/ratings/publish/", None),
    Write("club create", "post", lambda w: "/api/v1/clubs/", lambda w: {"name": "Second"}),
    Write("token create", "post", lambda w: "/api/v1/tokens/", lambda w: {"name": "Scores"}),
    Write("token revoke", "delete", lambda w: f"/api/v1/tokens/{_token_id(w)}/", None),
    Write("invitation accept", "post",
          lambda w: f"/api/v1/invitations/{_invitation(w)}/accept/", None, "outsider"),
    Write("invitation decline", "post",
          lambda w: f"/api/v1/invitations/{_invitation(w)}/decline/", None, "outsider"),
    Write("table deal", "post", lambda w: f"/api/v1/table/{_link_token(w)}/deals/", _table_deal,
          "anonymous"),
    Write("table confirm", "post",
          lambda w: f"/api/v1/table/{_link_token(w)}/entries/{w.awaiting}/confirm/",
          lambda w: {"seat": 2}, "anonymous"),
    Write("table dispute", "post",
          lambda w: f"/api/v1/table/{_link_token(w)}/entries/{w.awaiting}/dispute/",
          lambda w: {"seat": 2, "reason": "wrong"}, "anonymous"),
]  # fmt: skip


def _club_writes() -> list[Write]:
    seen: set[tuple[str, str]] = set()
    writes = []
    for route in ROUTES:
        if route.method in WRITES and (route.url_name, route.method) not in seen:
            seen.add((route.url_name, route.method))
            writes.append(Write(route.name, route.method, route.path, route.body))
    return writes


TABLE = _club_writes() + OTHER_WRITES


def _stored() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table the project keeps (sessions of logins aside)."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in apps.get_models()
        if model._meta.app_label not in {"sessions", "contenttypes"}
    }


@pytest.mark.parametrize("write", TABLE, ids=[write.name for write in TABLE])
def test_an_unknown_field_is_refused_naming_it_and_nothing_changes(world, django_user_model,
                                                                   write: Write):  # fmt: skip
    django_user_model.objects.create(username="newbie")
    client = world.s.client(write.who)
    path = write.path(world)
    body = {**(write.body(world) if write.body else {}), "point_value": 500}
    before = _stored()
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = getattr(client, write.method)(path, body, format="json")
    error = assert_error(response, 400, "unknown_field")
    assert error["details"] == {"point_value": [UNKNOWN_FIELD]}
    assert "'point_value'" in error["message"]
    assert _stored() == before


def test_a_nested_unknown_field_is_named_by_its_place(world):
    """A deal's per-player rows take only their own fields."""
    from tests.api.test_permissions import _results

    body = _results(world)
    body["results"][1]["colour"] = "red"
    before = _stored()
    response = world.s.client("owner").post(
        f"/api/v1/clubs/home/deals/{world.deal}/submissions/", body, format="json"
    )
    error = assert_error(response, 400, "unknown_field")
    assert error["details"] == {"results": {"1": {"colour": [UNKNOWN_FIELD]}}}
    assert "'results.1.colour'" in error["message"]
    assert _stored() == before


def test_a_game_at_a_rate_the_api_does_not_take_is_not_made(world):
    """``point_value`` is not a game's field (``point_value_minor`` is): no game at a rate of 0."""
    from tests.api.test_permissions import _asha

    client = world.s.client("owner")
    path = f"/api/v1/clubs/home/tables/{world.table}/games/"
    body = {"preset": world.preset, "players": [_asha(world), world.spare_player]}
    error = assert_error(client.post(path, {**body, "point_value": 500}, format="json"), 400,
                         "unknown_field")  # fmt: skip
    assert "point_value_minor" in error["message"]  # the fields it takes are listed
    made = client.post(path, {**body, "point_value_minor": 500}, format="json")
    assert made.status_code == 201, made.content


def test_every_write_operation_of_the_schema_is_in_the_table(world):
    schema = json.loads(APIClient().get("/api/schema/", {"format": "json"}).content)
    operations = {
        (method, path): operation["operationId"]
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if method in WRITES and operation["operationId"] not in OPEN_BODIES
    }
    patterns = {key: re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", key[1]) + "$")
                for key in operations}  # fmt: skip
    tabled = set()
    for write in TABLE:
        path = write.path(world)
        tabled |= {key for key, pattern in patterns.items()
                   if key[0] == write.method and pattern.match(path)}  # fmt: skip
    missing = sorted(operations[key] for key in operations.keys() - tabled)
    assert missing == [], "write operations missing from the table"


def test_the_schema_closes_every_request_object(db):
    """A request body's objects declare ``additionalProperties: false``, so a client generated
    from the schema cannot send a field the service refuses."""
    schema = json.loads(APIClient().get("/api/schema/", {"format": "json"}).content)
    components = schema["components"]["schemas"]
    bodies = [name for name in components if name.endswith("Request")]
    assert "GameCreateInputRequest" in bodies
    for name in bodies:
        if "properties" in components[name]:
            assert components[name]["additionalProperties"] is False, name


def test_an_unknown_query_parameter_has_the_details_of_an_unknown_body_field(world):
    """One shape of ``details`` for both: each name mapped to a list of messages."""
    from config.middleware import UNKNOWN_PARAMETER

    client = world.s.client("owner")
    field = assert_error(
        client.post("/api/v1/clubs/home/sessions/", {"name": "Friday", "colour": "red"},
                    format="json"),
        400, "unknown_field",
    )  # fmt: skip
    parameter = assert_error(client.get("/api/v1/clubs/home/sessions/?colour=red"), 400,
                             "unknown_parameter")  # fmt: skip
    assert field["details"] == {"colour": [UNKNOWN_FIELD]}
    assert parameter["details"] == {"colour": [UNKNOWN_PARAMETER]}
    for details in (field["details"], parameter["details"]):
        assert all(isinstance(m, list) and all(isinstance(t, str) for t in m)
                   for m in details.values())  # fmt: skip
