"""Table-driven permissions: every club route, every standing user, the status they get.

Outsiders get 404 (never 403) so a club's existence is not leaked; anonymous callers get 401."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import Standing

WHO = ["owner", "organiser", "scorer", "player", "outsider", "anonymous"]


@dataclass(frozen=True)
class Route:
    name: str
    url_name: str
    method: str
    path: Callable[[Standing], str]
    body: Callable[[Standing], dict[str, Any]] | None
    expect: dict[str, int]


def _player_id(s: Standing) -> int:
    return s.club.players.order_by("name").first().pk  # Asha


def _member_id(s: Standing, username: str = "player") -> int:
    return s.club.memberships.get(user__username=username).pk


def _by_role(owner: int, organiser: int, scorer: int, player: int) -> dict[str, int]:
    return {
        "owner": owner,
        "organiser": organiser,
        "scorer": scorer,
        "player": player,
        "outsider": 404,
        "anonymous": 401,
    }


ROUTES = [
    Route(
        "club read",
        "clubs:club-detail",
        "get",
        lambda s: "/api/v1/clubs/home/",
        None,
        _by_role(200, 200, 200, 200),
    ),
    Route(
        "club update",
        "clubs:club-detail",
        "patch",
        lambda s: "/api/v1/clubs/home/",
        lambda s: {"name": "Renamed"},
        _by_role(200, 403, 403, 403),
    ),
    Route(
        "members list",
        "clubs:member-list",
        "get",
        lambda s: "/api/v1/clubs/home/members/",
        None,
        _by_role(200, 200, 200, 200),
    ),
    Route(
        "member add (player role)",
        "clubs:member-list",
        "post",
        lambda s: "/api/v1/clubs/home/members/",
        lambda s: {"username": "newbie", "role": "player"},
        _by_role(201, 201, 403, 403),
    ),
    Route(
        "member add (organiser role)",
        "clubs:member-list",
        "post",
        lambda s: "/api/v1/clubs/home/members/",
        lambda s: {"username": "newbie", "role": "organiser"},
        _by_role(201, 403, 403, 403),
    ),
    Route(
        "member read",
        "clubs:member-detail",
        "get",
        lambda s: f"/api/v1/clubs/home/members/{_member_id(s)}/",
        None,
        _by_role(200, 200, 200, 200),
    ),
    Route(
        "member change role",
        "clubs:member-detail",
        "patch",
        lambda s: f"/api/v1/clubs/home/members/{_member_id(s)}/",
        lambda s: {"role": "scorer"},
        _by_role(200, 200, 403, 403),
    ),
    Route(
        "member remove",
        "clubs:member-detail",
        "delete",
        lambda s: f"/api/v1/clubs/home/members/{_member_id(s)}/",
        None,
        _by_role(204, 204, 403, 403),
    ),
    Route(
        "players list",
        "clubs:player-list",
        "get",
        lambda s: "/api/v1/clubs/home/players/",
        None,
        _by_role(200, 200, 200, 200),
    ),
    Route(
        "player create",
        "clubs:player-list",
        "post",
        lambda s: "/api/v1/clubs/home/players/",
        lambda s: {"name": "Dev"},
        _by_role(201, 201, 403, 403),
    ),
    Route(
        "player read",
        "clubs:player-detail",
        "get",
        lambda s: f"/api/v1/clubs/home/players/{_player_id(s)}/",
        None,
        _by_role(200, 200, 200, 200),
    ),
    Route(
        "player update",
        "clubs:player-detail",
        "patch",
        lambda s: f"/api/v1/clubs/home/players/{_player_id(s)}/",
        lambda s: {"name": "Asha K"},
        _by_role(200, 200, 403, 403),
    ),
]

CASES = [(route, who) for route in ROUTES for who in WHO]


@pytest.mark.parametrize(
    ("route", "who"), CASES, ids=[f"{route.name}-{who}" for route, who in CASES]
)
def test_route_permissions(standing, django_user_model, route: Route, who: str):
    django_user_model.objects.create(username="newbie")
    client = standing.client(who)
    body = route.body(standing) if route.body else None
    response = getattr(client, route.method)(route.path(standing), body, format="json")
    assert response.status_code == route.expect[who], response.content
    if response.status_code >= 400:
        assert set(response.json()["error"]) == {"code", "message", "details"}


def _club_scoped_endpoints() -> set[tuple[str, str]]:
    """(url name, method) of every API route under a club, from the URL configuration itself."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found: set[tuple[str, str]] = set()

    def walk(patterns: list, prefix: str, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                ns = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, prefix + str(pattern.pattern), ns)
            elif isinstance(pattern, URLPattern) and "club_slug" in prefix + str(pattern.pattern):
                view = getattr(pattern.callback, "view_class", None)
                if view is None or not (prefix + str(pattern.pattern)).startswith("api/"):
                    continue
                for method in ("get", "post", "put", "patch", "delete"):
                    if hasattr(view, method):
                        found.add((f"{namespace}{pattern.name}", method))

    walk(get_resolver().url_patterns, "", "")
    return found


def test_every_club_route_is_in_the_table():
    endpoints = _club_scoped_endpoints()
    assert ("clubs:club-detail", "patch") in endpoints
    tabled = {(route.url_name, route.method) for route in ROUTES}
    assert endpoints - tabled == set(), "routes missing from the permission table"
