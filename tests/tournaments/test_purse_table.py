"""A tournament's purse sits at a table of its own on the night's page. It is an account, not a
game: no game is started there, no table link is made or printed for it, and a link made for it
before links were refused there answers that it enters nothing. No page or API call about a game
answers a server error for it."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client, TestCase
from django.urls import URLPattern, URLResolver, get_resolver

from config.errors import Conflict
from scoring import table_links
from scoring.games import game_create
from scoring.models import Game, RulePreset, TableLink
from tests.tournaments.helpers import enter, new_tournament, roster
from tournaments.services.draws import round_release
from tournaments.services.setup import tournament_start


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()


def _night(standing):
    """A knock-out's first round released (its tables' links made), and the night it is, in a
    club whose nights take entries at the tables."""
    standing.club.table_entry = "confirm"
    standing.club.save(update_fields=["table_entry"])
    cup = new_tournament(
        standing, preset=RulePreset.objects.get(club=None, key="pool-101"), table_max=4,
        advance_per_table=2, table_entry="confirm",
    )  # fmt: skip
    enter(standing, cup, roster(standing, 8))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        round_release(tournament=cup, actor=standing.organiser, number=1)
    cup.refresh_from_db()
    return cup, cup.purse.table.session


def test_the_purse_table_takes_no_game_and_no_link(standing):
    cup, night = _night(standing)
    purse_table = cup.purse.table
    games_before = Game.objects.count()
    links_before = set(TableLink.objects.values_list("pk", flat=True))

    with pytest.raises(Conflict) as no_game:
        game_create(
            table=purse_table, actor=standing.organiser, preset=cup.preset,
            players=list(standing.club.players.all()[:4]),
        )  # fmt: skip
    assert no_game.value.code == "account_table" and purse_table.name in no_game.value.message

    api = standing.client("organiser")
    answer = api.post(f"/api/v1/clubs/home/tables/{purse_table.pk}/links/", {}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "account_table"

    desk = Client()
    desk.force_login(standing.organiser)
    # Every table's link at once: the round's tables have theirs, the purse's gets none.
    made = desk.post(f"/clubs/home/sessions/{night.pk}/table-links/", follow=True)
    assert "2 table links ready." in made.content.decode()
    assert Game.objects.count() == games_before
    assert set(TableLink.objects.values_list("pk", flat=True)) == links_before
    assert not TableLink.objects.filter(table=purse_table).exists()

    cards = desk.get(f"/clubs/home/sessions/{night.pk}/table-cards/").content.decode()
    playing = table_links.tables_taking_entries(session=night)
    assert purse_table not in playing and len(playing) == 2
    assert cards.count('class="qr"') == len(playing)
    assert f">{purse_table.name}<" not in cards


def test_the_night_page_shows_the_purse_as_an_account(standing):
    cup, night = _night(standing)
    desk = Client()
    desk.force_login(standing.organiser)
    page = desk.get(f"/clubs/home/sessions/{night.pk}/").content.decode()
    name = cup.purse.table.name
    start = page.index(f"<h3>{name}</h3>")
    purse = page[start : page.index("<h3>", start + 1)]
    assert "Tournament purse</a>" in purse and "Paid in: " in purse
    assert "enter deals" not in purse and f"New game at {name}" not in purse
    assert "table-link" not in purse
    # The round's tables still offer their games' entry and a new game.
    assert page.count("Open game &amp; enter deals") == 2
    assert page.count("New game at ") == 2


def test_a_link_made_for_the_purse_before_answers_that_it_enters_nothing(standing):
    cup, _night_session = _night(standing)
    # As one made before links were refused at an account's table.
    old = TableLink(table=cup.purse.table, mode="confirm", nonce=secrets.token_hex(16))
    old.digest = table_links._digest(table_links.link_token(old))
    old.save()
    path = table_links.link_path(old)
    phone = Client()
    page = phone.get(path)
    assert page.status_code == 410
    assert "holds the night&#x27;s purse" in page.content.decode()
    api = Client().post(
        f"/api/v1/table/{table_links.link_token(old)}/deals/", {}, content_type="application/json"
    )
    assert api.status_code == 410 and api.json()["error"]["code"] == "table_closed"


def test_the_purse_has_no_entry_pages(standing):
    """The pages that enter a game's deals, and their live part, are not found for the purse
    (it has no deals), as its other game pages are not."""
    cup, _night_session = _night(standing)
    desk = Client()
    desk.force_login(standing.organiser)
    for page in ("deals/new/", "deals/live/"):
        assert desk.get(f"/clubs/home/games/{cup.purse.pk}/{page}").status_code == 404, page


def _routes_naming(name: str, patterns: list, prefix: str = "") -> Iterator[str]:
    """Every route (a path with its ``<...>`` parts to fill) that names ``<int:name>``."""
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _routes_naming(name, entry.url_patterns, route)
        elif isinstance(entry, URLPattern) and f"<int:{name}>" in route:
            yield route


@pytest.mark.parametrize("named", ["game_id", "table_id"])
def test_no_route_of_a_game_or_table_answers_a_server_error_for_the_purse(standing, named):
    cup, _night_session = _night(standing)
    routes = sorted(set(_routes_naming(named, get_resolver().url_patterns)))
    assert len(routes) >= (20 if named == "game_id" else 4)  # the pages and the API
    ids = {
        "game_id": cup.purse.pk, "table_id": cup.purse.table_id,
        "session_id": cup.purse.table.session_id, "player_id": cup.purse.seats.first().player_id,
    }  # fmt: skip
    desk = Client(raise_request_exception=False)
    desk.force_login(standing.organiser)
    for route in routes:
        path = "/" + route.replace("<slug:club_slug>", "home")
        path = re.sub(r"<int:(\w+)>", lambda part: str(ids[part.group(1)]), path)
        for method in (desk.get, desk.post):
            answer = method(path)
            assert answer.status_code < 500, (method.__name__, path, answer.status_code)
