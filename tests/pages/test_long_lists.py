"""A roster or a history never rendered whole: the club's home shows the newest few players,
nights and members with links to paged, searchable lists; every player picker is a type-ahead
over the players API (one page of names), and a name typed without the script is found, or
refused with the reason."""

from __future__ import annotations

import re
from datetime import timedelta

from django.test import Client
from django.utils import timezone

from clubs.models import Player
from clubs.selectors import PLAYER_SEARCH_PAGE
from pages.views import HOME_SHOWN, LIST_PAGE
from scoring.models import Session
from tests.conftest import Standing
from tests.pages.conftest import Pages
from tests.scoring.helpers import new_game
from tests.tournaments.helpers import new_tournament

ROSTER = 130  # more than two pages of a list


def _roster(standing: Standing, count: int = ROSTER) -> None:
    Player.objects.bulk_create(
        Player(club=standing.club, name=f"Ravi {number:03d}") for number in range(count)
    )


def _nights(standing: Standing, count: int) -> None:
    start = timezone.now() - timedelta(days=count + 1)
    Session.objects.bulk_create(
        Session(
            club=standing.club,
            name=f"Night {number:03d}",
            status=Session.Status.CLOSED,
            started_at=start + timedelta(days=number),
        )
        for number in range(count)
    )


def _client(standing: Standing, who: str) -> Client:
    client = Client()
    client.force_login(getattr(standing, who))
    return client


def _player_links(html: str) -> list[str]:
    return re.findall(r'href="/clubs/home/players/(\d+)/"', html)


def _night_links(html: str) -> list[str]:
    return re.findall(r'href="/clubs/home/sessions/(\d+)/"', html)


def test_the_club_home_shows_the_newest_players_and_nights_and_links_to_the_rest(
    standing: Standing,
):
    _roster(standing)
    _nights(standing, 40)
    html = _client(standing, "player").get("/clubs/home/").content.decode()
    assert len(_player_links(html)) == HOME_SHOWN
    assert "Ravi 129" in html and "Ravi 000" not in html  # the newest on the roster
    assert f"All {ROSTER + 3} players" in html and 'href="/clubs/home/players/"' in html
    assert len(_night_links(html)) == HOME_SHOWN
    assert "Night 039" in html and "Night 000" not in html  # the latest nights
    assert "All 40 nights" in html and 'href="/clubs/home/sessions/"' in html
    assert 'action="/clubs/home/players/"' in html  # the search box


def test_a_small_club_home_lists_everyone_without_more_links(standing: Standing):
    html = _client(standing, "player").get("/clubs/home/").content.decode()
    assert {"Asha", "Bilal", "Chitra"} <= set(re.findall(r">(\w+)</a>", html))
    assert "All 3 players" not in html and "Find a player" not in html


def test_all_players_is_paged_and_searched_by_the_start_of_a_name(standing: Standing):
    _roster(standing)
    client = _client(standing, "player")
    first = client.get("/clubs/home/players/").content.decode()
    assert len(_player_links(first)) == LIST_PAGE
    assert f"Page 1 of {-(-(ROSTER + 3) // LIST_PAGE)}" in first and "?page=2" in first
    last = client.get("/clubs/home/players/?page=99").content.decode()  # past the end: the last
    assert len(_player_links(last)) == (ROSTER + 3) % LIST_PAGE
    found = client.get("/clubs/home/players/?q=RAVI 12").content.decode()
    names = re.findall(r">(Ravi \d+)</a>", found)
    assert names == [f"Ravi {n}" for n in range(120, 130)]
    assert "q=RAVI+12" not in found  # one page only: no pager
    paged = client.get("/clubs/home/players/?q=ravi&page=2").content.decode()
    assert "q=ravi&amp;page=3" in paged and "q=ravi&amp;page=1" in paged
    none = client.get("/clubs/home/players/?q=zed").content.decode()
    assert "No player's name or nickname starts with “zed”" in none


def test_all_nights_is_paged_and_searched(standing: Standing):
    _nights(standing, 120)
    client = _client(standing, "player")
    first = client.get("/clubs/home/sessions/").content.decode()
    assert len(_night_links(first)) == LIST_PAGE and "Night 119" in first
    found = client.get("/clubs/home/sessions/?q=night 07&status=closed").content.decode()
    assert re.findall(r">(Night \d+)</a>", found) == [f"Night 07{n}" for n in range(9, -1, -1)]
    assert "No night fits" in client.get("/clubs/home/sessions/?status=open").content.decode()


def test_all_members_is_paged_and_searched(standing: Standing):
    client = _client(standing, "organiser")
    html = client.get("/clubs/home/members/?q=SC").content.decode()
    assert "scorer" in html and "owner</span>" not in html
    assert 'action="/clubs/home/members/' in html or "Set role" in html


# --- the picker's search: the players API ------------------------------------------------------


def test_the_players_api_searches_one_page_by_the_start_of_a_name(standing: Standing):
    _roster(standing)
    Player.objects.create(club=standing.club, name="Old Ravi", active=False)
    api = standing.client("scorer")
    body = api.get(f"/api/v1/clubs/home/players/?search=rAvI&limit={PLAYER_SEARCH_PAGE}").json()
    assert body["count"] == ROSTER and len(body["results"]) == PLAYER_SEARCH_PAGE
    assert [p["name"] for p in body["results"][:2]] == ["Ravi 000", "Ravi 001"]
    assert body["next"] and f"limit={PLAYER_SEARCH_PAGE}" in body["next"]
    narrow = api.get("/api/v1/clubs/home/players/?search=ravi 12").json()
    assert [p["name"] for p in narrow["results"]] == [f"Ravi {n}" for n in range(120, 130)]
    # "contains" is not "starts with": Old Ravi is found by "old" only.
    assert [
        p["name"] for p in api.get("/api/v1/clubs/home/players/?search=old").json()["results"]
    ] == ["Old Ravi"]
    active = api.get("/api/v1/clubs/home/players/?search=old&active=true").json()
    assert active["count"] == 0
    retired = api.get("/api/v1/clubs/home/players/?active=false").json()
    assert [p["name"] for p in retired["results"]] == ["Old Ravi"]
    bad = api.get("/api/v1/clubs/home/players/?active=maybe")
    assert bad.status_code == 400 and "active" in bad.json()["error"]["message"]
    assert api.get("/api/v1/clubs/home/players/?search=a%00b").json()["count"] == 0
    assert api.get("/api/v1/clubs/home/players/?search=%25").json()["count"] == 0  # no wildcard


def test_the_players_search_is_scoped_to_the_club(standing: Standing):
    outsider = standing.client("outsider")
    answer = outsider.get("/api/v1/clubs/home/players/?search=asha")
    assert answer.status_code == 404
    # The outsider's own club answers its own roster: nothing of Home Club's.
    Player.objects.create(club=standing.outsider.memberships.get().club, name="Asif")
    own = outsider.get("/api/v1/clubs/away/players/?search=as").json()
    assert [p["name"] for p in own["results"]] == ["Asif"]
    assert standing.client("anonymous").get("/api/v1/clubs/home/players/?search=a").status_code in (
        401,
        403,
    )


# --- the pickers' pages: no roster on the page, a typed name found or refused ------------------


def test_no_picker_page_lists_the_roster(pages: Pages):
    _roster(pages.s)
    client = pages.client("organiser")
    n = pages.night
    asha = n.pid("Asha")
    for url in (
        f"/clubs/home/players/{asha}/",
        f"/clubs/home/tables/{n.game.table_id}/games/new/",
        f"/clubs/home/games/{n.game.pk}/",
    ):
        html = client.get(url).content.decode()
        assert "Ravi 0" not in html, url
        assert 'data-picker="/api/v1/clubs/home/players/?limit=20' in html, url


def test_a_merge_takes_a_typed_name_and_says_why_not(pages: Pages):
    _roster(pages.s, 3)
    duplicate = Player.objects.create(club=pages.s.club, name="Ravi K.")
    client = pages.client("organiser")
    url = f"/clubs/home/players/{duplicate.pk}/merge/"
    none = client.post(url, {"into_name": "Zed", "confirm": "1"})
    assert none.status_code == 400
    assert "into: no player of Home Club is named &#x27;Zed&#x27;" in none.content.decode()
    several = client.post(url, {"into_name": "ravi 0", "confirm": "1"})
    assert several.status_code == 400
    assert "fits several players (Ravi 000, Ravi 001, Ravi 002)" in several.content.decode()
    assert 'value="ravi 0"' in several.content.decode()  # what was typed stays
    empty = client.post(url, {"into_name": " ", "confirm": "1"})
    assert empty.status_code == 400 and "into: type a player" in empty.content.decode()
    done = client.post(url, {"into_name": "ravi 001", "confirm": "1"})  # the whole name
    kept = Player.objects.get(club=pages.s.club, name="Ravi 001")
    assert done.status_code == 302 and done["Location"].endswith(f"/players/{kept.pk}/")
    assert Player.objects.get(pk=duplicate.pk).merged_into_id == kept.pk


def test_a_seat_is_added_by_a_typed_name(standing: Standing):
    game, _ = new_game(standing, "points", ["Asha", "Bilal"])
    Player.objects.create(club=standing.club, name="Gauri")
    Player.objects.create(club=standing.club, name="Gautam", active=False)
    client = _client(standing, "organiser")
    assert 'id="seat-player"' in client.get(f"/clubs/home/games/{game.pk}/").content.decode()
    url = f"/clubs/home/games/{game.pk}/seats/"
    nobody = client.post(url, {"player_name": "Zed"})
    assert nobody.status_code == 400
    assert "player: no active player of Home Club is named" in nobody.content.decode()
    # Gautam is retired: "gau" fits Gauri alone among the players who can sit.
    assert client.post(url, {"player_name": "gau"}).status_code == 302
    assert game.seats.filter(player__name="Gauri").exists()


def test_the_desk_enters_a_typed_name_without_listing_the_roster(standing: Standing):
    _roster(standing)
    cup = new_tournament(standing)
    client = _client(standing, "organiser")
    desk = client.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    assert "Ravi 0" not in desk and 'id="entry-name"' in desk
    assert 'data-picker="/api/v1/clubs/home/players/?limit=20&amp;active=true"' in desk
    url = f"/clubs/home/tournaments/{cup.pk}/entries/"
    assert client.post(url, {"name": "ravi 007"}).status_code == 302
    assert cup.entries.get().player.name == "Ravi 007"
    # A name nobody has is a new player, as before.
    assert client.post(url, {"name": "Newcomer"}).status_code == 302
    assert Player.objects.filter(club=standing.club, name="Newcomer").exists()


def test_a_new_game_seats_players_by_typed_names(pages: Pages):
    client = pages.client("organiser")
    table = pages.night.game.table
    url = f"/clubs/home/tables/{table.pk}/games/new/"
    preset = pages.night.game.preset_id
    unknown = client.post(url, {"preset": preset, "seat_1_name": "Asha", "seat_2_name": "Nobody"})
    assert unknown.status_code == 400
    html = unknown.content.decode()
    assert "seat_2: no active player of Home Club is named &#x27;Nobody&#x27;" in html
    assert 'id="id_seat_2"' in html and 'value="Nobody"' in html
    twice = client.post(url, {"preset": preset, "seat_1_name": "asha", "seat_2_name": "ASHA"})
    assert twice.status_code == 400 and "listed twice" in twice.content.decode()
    done = client.post(url, {"preset": preset, "seat_1_name": "bil", "seat_2_name": "asha"})
    assert done.status_code == 302
    game = table.games.order_by("-id").first()
    assert [s.player.name for s in game.seats.order_by("position")] == ["Bilal", "Asha"]
