"""Every federation route, table-driven: who may call it (the club's owner, organiser and
member, the federation's rating officer, another club's member, anonymous) and what a token may
do (a read token reads, a manage token acts as its person, a revoked one is refused). The lists
and a player's page are public; the officer's routes are the officers' only; a club's routes are
its own (an outsider is told the club does not exist)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from clubs.models import Player, Role
from clubs.signin import services as signin
from federation.models import FederationPlayer, PlayerLink, PlayerMerge, SanctionedEvent
from scoring.nights import session_create
from tests.factories import ClubFactory, MembershipFactory

pytestmark = pytest.mark.django_db

WHO = ["owner", "organiser", "member", "officer", "outsider", "anonymous"]
F = "/api/v1/federations/rf"
C = "/api/v1/clubs/home/federations/rf"


def public() -> dict[str, int]:
    return dict.fromkeys(WHO, 200)


def officer(ok: int) -> dict[str, int]:
    return {**dict.fromkeys(WHO, 403), "officer": ok, "anonymous": 401}


def club(owner: int, organiser: int, member: int) -> dict[str, int]:
    return {
        "owner": owner,
        "organiser": organiser,
        "member": member,
        "officer": 404,
        "outsider": 404,
        "anonymous": 401,
    }


def _player(w: Any, name: str = "Asha") -> FederationPlayer:
    return FederationPlayer.objects.get_or_create(federation=w.federation, name=name)[0]


def _proposal(w: Any) -> int:
    asha = Player.objects.get(club=w.standing.club, name="Asha")
    return PlayerLink.objects.create(federation=w.federation, player=asha, name="Asha").pk


def _event(w: Any, status: str) -> int:
    night = session_create(club=w.standing.club, actor=w.standing.owner, name=f"N {status}")
    results = {"places": {"1": 1, "2": 2}, "games": [{"1": 1, "2": 2}]}
    return SanctionedEvent.objects.create(
        federation=w.federation,
        club=w.standing.club,
        session=night,
        name="N",
        tier="club",
        status=status,
        submitted_results=results,
        played_on="2026-01-10",
    ).pk


def _night(w: Any) -> int:
    return session_create(club=w.standing.club, actor=w.standing.owner, name="Away night").pk


def _merge(w: Any) -> int:
    source, target = _player(w, "A. Rao"), _player(w, "Asha Rao")
    source.merged_into = target
    source.save()
    return PlayerMerge.objects.create(federation=w.federation, source=source, target=target).pk


@dataclass(frozen=True)
class Route:
    name: str
    method: str
    path: Callable[[Any], str]
    body: Callable[[Any], dict[str, Any]] | None
    expect: dict[str, int]


ROUTES = [
    Route("ranking", "get", lambda w: f"{F}/ranking/", None, public()),
    Route("ratings", "get", lambda w: f"{F}/ratings/", None, public()),
    Route("ratings preview", "get", lambda w: f"{F}/ratings/preview/", None, public()),
    Route("player", "get", lambda w: f"{F}/players/{_player(w).pk}/", None, public()),
    Route("queue", "get", lambda w: f"{F}/queue/", None, officer(200)),
    Route(
        "link decide",
        "post",
        lambda w: f"{F}/links/{_proposal(w)}/decide/",
        lambda w: {"confirm": True},
        officer(200),
    ),
    Route(
        "sanction decide",
        "post",
        lambda w: f"{F}/events/{_event(w, 'requested')}/sanction/",
        lambda w: {"approve": True},
        officer(200),
    ),
    Route(
        "release",
        "post",
        lambda w: f"{F}/events/{_event(w, 'submitted')}/release/",
        None,
        officer(200),
    ),
    Route(
        "return",
        "post",
        lambda w: f"{F}/events/{_event(w, 'submitted')}/return/",
        lambda w: {"reason": "Dev's name"},
        officer(200),
    ),
    Route(
        "merge",
        "post",
        lambda w: f"{F}/merges/",
        lambda w: {"source": _player(w, "B").pk, "target": _player(w, "C").pk},
        officer(201),
    ),
    Route("unmerge", "post", lambda w: f"{F}/merges/{_merge(w)}/undo/", None, officer(200)),
    # The first period (January 2026) has ended: the officer may publish it.
    Route("publish", "post", lambda w: f"{F}/ratings/publish/", None, officer(201)),
    # The club is a member already: there is no invitation left to answer.
    Route(
        "invitation answer",
        "post",
        lambda w: f"{C}/answer/",
        lambda w: {"accept": True},
        club(404, 403, 403),
    ),
    Route(
        "link propose",
        "post",
        lambda w: f"{C}/players/",
        lambda w: {"player": w.standing.club.players.get(name="Asha").pk},
        club(201, 201, 403),
    ),
    Route(
        "sanction request",
        "post",
        lambda w: f"{C}/events/",
        lambda w: {
            "tier": "club",
            "session_id": session_create(
                club=w.standing.club, actor=w.standing.owner, name="Next"
            ).pk,
        },
        club(201, 201, 403),
    ),
    # Sanctioned, no game played yet: a club may submit it, and is told it is not finished.
    Route(
        "submit",
        "post",
        lambda w: f"{C}/events/{_event(w, 'sanctioned')}/submit/",
        None,
        club(409, 409, 403),
    ),
    # The event exchange: a key for the owner, an import checked (an empty body is no export),
    # an export on the club's own instance once its key is installed (none here).
    Route("export key", "post", lambda w: f"{C}/export-key/", None, club(201, 403, 403)),
    Route(
        "import",
        "post",
        lambda w: f"{C}/events/{_event(w, 'sanctioned')}/import/",
        lambda w: {},
        club(400, 400, 403),
    ),
    Route(
        "export",
        "get",
        lambda w: (
            "/api/v1/clubs/home/federation-export/?federation=rf&event=1&tier=club"
            f"&session_id={_night(w)}"
        ),
        None,
        club(404, 404, 403),
    ),
]


def _client(world: Any, who: str) -> APIClient:
    client = APIClient()
    user = {
        "owner": world.standing.owner,
        "organiser": world.standing.organiser,
        "member": world.standing.player,
        "officer": world.officer,
        "outsider": world.standing.outsider,
    }.get(who)
    if user is not None:
        client.force_authenticate(user)
    return client


def _call(world: Any, client: APIClient, route: Route) -> Any:
    body = route.body(world) if route.body else None
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = getattr(client, route.method)(route.path(world), body, format="json")
    if response.status_code >= 400:
        assert set(response.json()["error"]) == {"code", "message", "details"}
    return response


CASES = [(route, who) for route in ROUTES for who in WHO]


@pytest.mark.parametrize(("route", "who"), CASES, ids=[f"{r.name}-{w}" for r, w in CASES])
def test_route_permissions(world, route: Route, who: str):
    response = _call(world, _client(world, who), route)
    assert response.status_code == route.expect[who], response.content


TOKENS = [
    ("read", ("read",), False),
    ("manage", ("read", "manage"), False),
    ("revoked", ("read", "manage"), True),
]
TOKEN_CASES = [
    (route, token)
    for route in ROUTES
    if route.name in {"ranking", "queue", "release", "publish"}
    for token in TOKENS
]


@pytest.mark.parametrize(
    ("route", "token"), TOKEN_CASES, ids=[f"{r.name}-{t[0]}" for r, t in TOKEN_CASES]
)
def test_officer_tokens(world, route: Route, token: tuple[str, tuple[str, ...], bool]):
    """The officer's token (bound to the officer's own club): reads with ``read``, acts with
    ``manage``; a revoked token is refused everywhere."""
    name, scopes, revoked = token
    MembershipFactory(
        user=world.officer, club=ClubFactory(name="Officer's", slug="own"), role=Role.OWNER
    )
    made, key = signin.api_token_create(
        user=world.officer, name=name, scopes=scopes, club_slugs=["own"]
    )
    if revoked:
        signin.api_token_revoke(token=made, actor=world.officer)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    response = _call(world, client, route)
    if revoked:
        assert response.status_code == 401
    elif route.method == "post" and "manage" not in scopes:
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "insufficient_scope"
    else:
        assert response.status_code == route.expect["officer"], response.content
