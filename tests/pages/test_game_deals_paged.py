"""The game page lists a page of the game's deals, newest first: a long game costs the page what
a short one does, every deal is on one page and one only, with the figures its deal page and the
API give, and a bad page number shows a page rather than an error."""

from __future__ import annotations

import re

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.page_kit.display import club_money, signed_number
from scoring.models import Deal, Game
from scoring.selectors import GAME_DEALS_PAGE
from tests.conftest import Standing
from tests.scoring.helpers import new_game, play, results

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]
ROW = re.compile(r'<tr(?: class="voided")?>\s*<th scope="row".*?</tr>', re.S)


def _lost(number: int) -> tuple[int, int, int]:
    """What Bilal, Chitra and Dev count against Asha in deal ``number``: a different figure in
    every deal, so that a row shown under the wrong number is seen."""
    return 2 + number % 78, 2 + (number * 7) % 78, 2 + (number * 13) % 78


def _played(standing: Standing, deals: int) -> tuple[Game, dict[str, int]]:
    game, ids = new_game(standing, "points", FOUR, point_value_minor=100)
    for number in range(1, deals + 1):
        bilal, chitra, dev = _lost(number)
        play(standing, game, results(ids, Asha="winner", Bilal=bilal, Chitra=chitra, Dev=dev))
    return game, ids


def _client(standing: Standing) -> Client:
    client = Client()
    client.force_login(standing.organiser)
    return client


def _rows(html: str) -> dict[int, list[tuple[str, str]]]:
    """The deals a game page lists, in its order: deal number -> each seat's points and money."""
    rows = {}
    for row in ROW.findall(html):
        number = re.search(r'<a href="[^"]+">(\d+)<span', row)
        assert number is not None
        rows[int(number.group(1))] = re.findall(
            r'<td class="pts num"><span(?: class="won")?>([^<]+)</span>.*?'
            r'<span class="outcome"><bdi class="ltr">([^<]+)</bdi></span></td>',
            row,
        )
    return rows


def _page(client: Client, game: Game, query: str = "") -> str:
    response = client.get(f"/clubs/home/games/{game.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_a_long_game_shows_its_newest_deals_first_and_the_rest_on_the_next_page(
    standing: Standing,
):
    deals = GAME_DEALS_PAGE + 20
    game, ids = _played(standing, deals)
    club, client = standing.club, _client(standing)
    first, second = _page(client, game), _page(client, game, "?page=2")
    assert list(_rows(first)) == list(range(deals, 20, -1))  # 70 down to 21
    assert list(_rows(second)) == list(range(20, 0, -1))
    assert "Page 1 of 2" in first and 'href="?page=2#deals-h" rel="next"' in first
    assert "Page 2 of 2" in second and 'href="?page=1#deals-h" rel="prev"' in second
    # Every deal once across the pages, each with the figures it was entered with.
    shown = {**_rows(first), **_rows(second)}
    assert len(shown) == deals
    for number, cells in shown.items():
        counts = [0, *_lost(number)]
        money = [sum(counts) * 100, *(-count * 100 for count in counts[1:])]
        assert cells == [
            (str(c), club_money(club, m, signed=True)) for c, m in zip(counts, money, strict=True)
        ], number
    # The same figures as the API's counted version of the deals either side of the page break.
    for number in (deals, GAME_DEALS_PAGE // 2, 21, 20, 1):
        deal = Deal.objects.get(game=game, number=number)
        versions = client.get(f"/api/v1/clubs/home/deals/{deal.pk}/submissions/").json()
        counted = versions["results"][-1]["result"]
        counts = {line["player"]: line["against"] for line in counted["players"]}
        money = {int(pid): amount for pid, amount in counted["money"]["by_player"].items()}
        assert shown[number] == [
            (str(counts[ids[name]]), club_money(club, money[ids[name]], signed=True))
            for name in FOUR
        ], number
    # The page's totals are the whole game's, on every page.
    won = sum(sum(_lost(n)) for n in range(1, deals + 1))
    for html in (first, second):
        assert f"{signed_number(won)}</td>" in html
    # The next deal to enter is the game's, whatever the page.
    for html in (first, second):
        assert f"Enter deal {deals + 1}" in html


def test_a_bad_page_number_shows_the_first_page_and_one_past_the_end_the_last(
    standing: Standing,
):
    game, _ = _played(standing, GAME_DEALS_PAGE + 1)
    client = _client(standing)
    bad = ["0", "-1", "x", "", "1.5", "²", "9" * 5000]
    for query in bad:
        html = _page(client, game, f"?page={query}")
        assert next(iter(_rows(html))) == GAME_DEALS_PAGE + 1 and "Page 1 of 2" in html, query
    for query in ("3", "99999999999999999999"):
        html = _page(client, game, f"?page={query}")
        assert list(_rows(html)) == [1] and "Page 2 of 2" in html, query


def test_a_game_of_a_few_deals_has_no_pager(standing: Standing):
    game, _ = _played(standing, 3)
    html = _page(_client(standing), game)
    assert list(_rows(html)) == [3, 2, 1] and 'class="pager"' not in html


def test_the_game_page_reads_as_many_queries_however_long_the_game(
    standing: Standing, django_assert_num_queries
):
    game, ids = _played(standing, 5)
    client = _client(standing)
    with CaptureQueriesContext(connection) as short:
        _page(client, game)
    for number in range(6, 121):
        bilal, chitra, dev = _lost(number)
        play(standing, game, results(ids, Asha="winner", Bilal=bilal, Chitra=chitra, Dev=dev))
    with django_assert_num_queries(len(short.captured_queries)):
        html = _page(client, game)
    assert len(_rows(html)) == GAME_DEALS_PAGE


def test_back_to_the_game_returns_to_the_page_listing_the_deal(standing):
    """From a deal's page, "back to the game" and the redirect after a void land on the page of
    the game's deals that lists it."""
    game, _ = _played(standing, 60)
    client = _client(standing)
    base = f"/clubs/home/games/{game.pk}/"
    for number, page in ((60, ""), (11, ""), (10, "?page=2#deals-h"), (1, "?page=2#deals-h")):
        deal = Deal.objects.get(game=game, number=number)
        body = client.get(f"/clubs/home/deals/{deal.pk}/").content.decode()
        assert f'href="{base}{page}">Back to the game</a>' in body, number
        if page:
            assert f">{number}<span" in _page(client, game, page.split("#")[0])
    voided = Deal.objects.get(game=game, number=3)
    response = client.post(f"/clubs/home/deals/{voided.pk}/void/")
    assert response.status_code == 302 and response["Location"] == f"{base}?page=2#deals-h"
