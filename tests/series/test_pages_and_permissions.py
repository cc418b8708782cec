"""Every series route (pages and API) for the owner, the organiser, a member, an outsider, an
anonymous caller and a token; and the same figures on the public page, the club's page, the
projector, the API and the CSV (one selector)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from clubs.signin import services as signin_services
from series import selectors, services
from series.models import Series
from tests.conftest import Standing
from tests.scoring.helpers import new_game, play, results

pytestmark = pytest.mark.django_db

WHO = ["owner", "organiser", "player", "outsider", "anonymous", "token"]


@dataclass
class World:
    s: Standing
    series: Series
    session: int
    event: int


@pytest.fixture
def world(standing: Standing) -> World:
    standing.club.public_standings = True
    standing.club.save()
    series = services.series_create(
        club=standing.club, actor=standing.organiser, name="Grand Prix",
        points_table=[10, 7, 5], tiers={"regular": "1", "major": "2"},
        awards=[{"kind": "most_wins", "name": "Golden Joker"}],
    )  # fmt: skip
    first, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    play(standing, first, results(ids, Asha="winner", Bilal=20, Chitra=35))
    second, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    play(standing, second, results(ids, Bilal="winner", Asha=20, Chitra=35))
    event = services.series_event_add(
        series=series, actor=standing.organiser, tier="major", session_id=first.table.session_id
    )
    return World(standing, series, second.table.session_id, event.pk)


@dataclass(frozen=True)
class PageRoute:
    name: str
    method: str
    url: Any
    body: Any
    expect: dict[str, int]


def _club_page(read: int, write: int) -> dict[str, int]:
    """A club page: members read, organisers write; an outsider 404; signed out (a bearer
    token signs no one in on a page) to the sign-in page."""
    return {"owner": write, "organiser": write, "player": read, "outsider": 404,
            "anonymous": 302, "token": 302}  # fmt: skip


PUBLIC = dict.fromkeys(WHO, 200)
PAGES = [
    PageRoute("club series list", "get", lambda w: reverse("club-series-list", args=["home"]),
              None, _club_page(200, 200)),
    PageRoute("club series create", "post", lambda w: reverse("club-series-list", args=["home"]),
              lambda w: {"name": "Autumn", "points_by": "place", "points_table": "5, 3",
                         "tiers": "regular=1", "min_events": 1}, _club_page(403, 302)),
    PageRoute("club series", "get", lambda w: reverse("club-series", args=["home", w.series.pk]),
              None, _club_page(200, 200)),
    PageRoute("club series edit", "post",
              lambda w: reverse("club-series-edit", args=["home", w.series.pk]),
              lambda w: {"name": "Grand Prix", "points_by": "place", "points_table": "10, 7, 5",
                         "tiers": "regular=1, major=2", "min_events": 2}, _club_page(403, 302)),
    PageRoute("club series event add", "post",
              lambda w: reverse("club-series-event-add", args=["home", w.series.pk]),
              lambda w: {"event": f"session:{w.session}", "tier": "regular"},
              _club_page(403, 302)),
    PageRoute("club series event remove", "post",
              lambda w: reverse("club-series-event-remove", args=["home", w.series.pk, w.event]),
              None, _club_page(403, 302)),
    PageRoute("club series csv", "get",
              lambda w: reverse("club-series-csv", args=["home", w.series.pk]), None,
              _club_page(200, 200)),
    PageRoute("public series", "get",
              lambda w: reverse("public-series", args=["home", w.series.pk]), None, PUBLIC),
    PageRoute("public series projector", "get",
              lambda w: reverse("public-series-projector", args=["home", w.series.pk]), None,
              PUBLIC),
]  # fmt: skip
CASES = [(route, who) for route in PAGES for who in WHO]


def _page_client(world: World, who: str) -> Client:
    client = Client()
    if who == "token":
        _, key = signin_services.api_token_create(
            user=world.s.organiser, name="t", scopes=("read", "manage"), club_slugs=["home"]
        )
        client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {key}"
    elif who != "anonymous":
        client.force_login(getattr(world.s, who))
    return client


@pytest.mark.parametrize(("route", "who"), CASES, ids=[f"{r.name}-{w}" for r, w in CASES])
def test_page_permissions(world: World, route: PageRoute, who: str):
    client = _page_client(world, who)
    body = route.body(world) if route.body else None
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = getattr(client, route.method)(route.url(world), body)
    assert response.status_code == route.expect[who], response.content[:500]


def test_every_series_page_is_in_the_table():
    from series import page_urls

    tabled = {reverse_name for reverse_name in (p.name for p in page_urls.urlpatterns)}
    covered = {
        "club-series-list", "club-series", "club-series-edit", "club-series-event-add",
        "club-series-event-remove", "club-series-csv", "public-series", "public-series-projector",
    }  # fmt: skip
    assert tabled == covered


def test_a_club_that_publishes_nothing_has_no_public_series(world: World):
    world.s.club.public_standings = False
    world.s.club.save()
    response = Client().get(reverse("public-series", args=["home", world.series.pk]))
    assert response.status_code == 404


def test_bad_settings_are_a_400_naming_the_field_and_change_nothing(world: World):
    client = world.s.client("organiser")
    url = f"/api/v1/clubs/home/series/{world.series.pk}/"
    for body, code in [
        ({"points_table": [5, 10]}, "bad_points_table"),
        ({"tiers": {"major": "0"}}, "bad_tier"),
        ({"tiers": {"regular": "1"}}, "bad_tier"),  # "major" is used by an event
        ({"awards": [{"kind": "most_wins", "name": " "}]}, "invalid"),
        ({"awards": [{"kind": "most_wins", "name": "A"}] * 2}, "bad_award"),
        ({"best_n": 0}, "invalid"),
    ]:
        response = client.patch(url, body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert response.json()["error"]["code"] == code, (body, response.json())
    events = f"{url}events/"
    response = client.post(events, {"session": world.session, "tier": "minor"}, format="json")
    assert response.json()["error"]["code"] == "bad_tier"
    response = client.post(events, {"tier": "regular"}, format="json")
    assert response.status_code == 400
    world.series.refresh_from_db()
    assert world.series.points_table == [10, 7, 5]
    assert world.series.tiers == {"regular": "1", "major": "2"}


def test_the_page_the_api_the_projector_and_the_csv_show_the_same_figures(world: World):
    services.series_event_add(
        series=world.series, actor=world.s.organiser, tier="regular", session_id=world.session
    )
    table = selectors.series_table(series=world.series)
    expected = {row["name"]: row["total"] for row in table.rows()}
    # Night 1 (major x2): Asha 20, Bilal 14, Chitra 10; night 2: Bilal 10, Asha 7, Chitra 5.
    assert expected == {"Asha": Decimal("27"), "Bilal": Decimal("24"), "Chitra": Decimal("15")}
    api = world.s.client("player").get(f"/api/v1/clubs/home/series/{world.series.pk}/table/")
    assert {line["name"]: Decimal(line["total"]) for line in api.json()["lines"]} == expected
    assert api.json()["awards"][0]["players"] == ["Asha", "Bilal"]
    client = Client()
    client.force_login(world.s.player)
    body = client.get(reverse("club-series-csv", args=["home", world.series.pk])).content
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    assert {row["player"]: Decimal(row["total"]) for row in rows} == expected
    for name in ("public-series", "public-series-projector"):
        page = Client().get(reverse(name, args=["home", world.series.pk])).content.decode()
        for player, total in expected.items():
            assert f'<th scope="row">{player}</th>' in page
            assert f"{total:.2f}" in page, (name, player)
