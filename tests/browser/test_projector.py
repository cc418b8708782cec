"""The projectors at 1920x1080 with 72 players: the boards fill the screen with type readable
from the back of a hall, every page of a table passes within 30 s (measured in the browser with
the cycle shortened, and checked on the real cycle's arithmetic for 72 and 200 players), the
rows the last deal moved are marked and named at the top, a QR code leads to the public
standings, and points of different game formats stand in their own columns."""

from __future__ import annotations

import math
import time
from typing import Any

import pytest

from clubs import services as club_services
from clubs.models import Player
from scoring.games import game_create, table_create
from scoring.models import RulePreset
from scoring.nights import session_create
from standings.views import projector as standings_views
from tests.browser.conftest import PHONE, WIDE, shoot
from tests.scoring.helpers import enter_deal
from tests.tournaments.helpers import enter, new_tournament, play_table, roster
from tournaments.models import RoundTable
from tournaments.services.draws import round_release
from tournaments.services.setup import tournament_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The smallest type the projector may show on 1080p (body text), and its names and figures.
BODY_PX = 28
NAMES_PX = 30


class Clock:
    """The projector's clock, set by the test: the page a screen shows follows it."""

    now = 0.0

    @classmethod
    def time(cls) -> float:
        return cls.now


def _night_of(standing: Any, count: int, *, rummikub: bool = False) -> list[Player]:
    """A public club's night of ``count`` players at tables of six, one deal a table, then a
    second deal at the first table (its second player wins it: the last deal); with
    ``rummikub``, a Rummikub table too (two units of points)."""
    club = standing.club
    club_services.club_update(club=club, actor=standing.owner, public_standings=True)
    session = session_create(club=club, actor=standing.organiser, name="Big night")
    players = [Player.objects.create(club=club, name=f"Player {n:02d}") for n in range(count)]
    points = RulePreset.objects.get(club=None, key="points")
    games = []
    for start in range(0, count, 6):
        table = table_create(session=session, actor=standing.organiser)
        seated = players[start : start + 6]
        game = game_create(table=table, actor=standing.organiser, preset=points, players=seated)
        games.append(game)
        lines = [{"player": p.pk, "outcome": "loser", "points": 2 + 3 * i + start % 7}
                 for i, p in enumerate(seated[1:])]  # fmt: skip
        enter_deal(
            game,
            standing.scorer,
            {"results": [{"player": seated[0].pk, "outcome": "winner"}, *lines]},
        )
    first = players[:6]
    enter_deal(
        games[0],
        standing.scorer,
        {"results": [{"player": first[1].pk, "outcome": "winner"},
                     *({"player": p.pk, "outcome": "loser", "points": 20}
                       for p in first if p != first[1])]},
    )  # fmt: skip
    if rummikub:
        table = table_create(session=session, actor=standing.organiser, name="Rummikub")
        sabra = game_create(
            table=table, actor=standing.organiser, preset=RulePreset.objects.get(key="sabra"),
            players=players[:3],
        )  # fmt: skip
        a, b, c = (str(p.pk) for p in players[:3])
        enter_deal(
            sabra, standing.scorer, {"racks": {a: [], b: ["R5"], c: ["B7"]}, "winner": int(a)}
        )
    return players


def _font_px(page: Any, selector: str) -> float:
    return float(
        page.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    )


def test_every_row_passes_within_30_seconds_on_the_real_cycle():
    """The arithmetic of the real settings: a table of 72 or of 200 players passes whole within
    30 s, each page shown at least 5 s."""
    for players in (72, 200, 204):
        size = standings_views.projector_page_size(players)
        pages = math.ceil(players / size)
        turn = standings_views.projector_turn(pages)
        assert pages * turn <= 30, (players, pages, turn)
        assert turn >= standings_views.PROJECTOR_TURN_MIN
    assert standings_views.projector_page_size(72) == 34  # two columns of 17
    assert standings_views.projector_turn(3) == 10


def test_the_projector_fills_the_screen_and_marks_what_the_last_deal_moved(
    new_page: Any, standing: Any, monkeypatch: Any
):
    players = _night_of(standing, 72)
    club = standing.club
    monkeypatch.setattr(standings_views, "time", Clock)
    page = new_page(WIDE)
    seen: set[str] = set()
    for turn in range(3):
        Clock.now = turn * standings_views.projector_turn(3)
        page.goto(f"/p/{club.slug}/standings/projector/")
        boards = page.locator("section[data-pages]")
        assert boards.count() == 2  # the night beside the season
        shoot(page, f"projector-72-turn-{turn + 1}-wide")
        height = page.evaluate("document.documentElement.scrollHeight")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert height <= WIDE["height"], f"page {turn + 1} is {height}px tall"
        assert width <= WIDE["width"]
        season = boards.nth(1)
        assert season.get_attribute("data-pages") == "3"
        assert season.get_attribute("data-page") == str(turn + 1)
        # 34 rows a page in two columns of 17 (the last page's 4 rows in one)
        assert season.locator("table").count() == (2 if turn < 2 else 1)
        seen |= {name.strip() for name in season.locator("tbody th").all_inner_texts()}
        # Type readable from the back: names and figures, headings and notes.
        assert _font_px(page, "tbody th") >= NAMES_PX
        assert _font_px(page, "tbody td.num") >= NAMES_PX
        for small in ("thead th", ".live-note", "h2 .turn", ".projector-qr p", ".just-now li"):
            assert _font_px(page, small) >= BODY_PX, small
        # The boards use the screen: together they span nearly its whole width.
        first, second = (boards.nth(i).bounding_box() for i in range(2))
        assert second["x"] + second["width"] - first["x"] >= 0.9 * WIDE["width"]
        if turn < 2:  # a full page reaches the bottom of the screen
            last_row = page.locator("section[data-pages] tbody tr").last.bounding_box()
            assert last_row["y"] + last_row["height"] >= 0.85 * WIDE["height"]
    assert seen == {p.name for p in players}

    # The last deal (the first table's second) is named at the top with where its players
    # stand now, and its players' rows are marked on the boards: its winner went up, the
    # others down, as the ledger says.
    just_now = page.locator(".just-now")
    assert "Just now · Table 1, deal 2" in just_now.inner_text()
    assert just_now.locator("li").count() == 6
    named = just_now.inner_text()
    assert all(p.name in named for p in players[:6])
    winner = players[1]
    assert "▲" in just_now.locator("li", has_text=winner.name).inner_text()
    assert "▼" in just_now.locator("li", has_text=players[2].name).inner_text()
    Clock.now = 0.0
    page.goto(f"/p/{club.slug}/standings/projector/")
    row = page.locator(f"section[data-pages] tr[data-player='{winner.pk}']").first
    assert "touched" in (row.get_attribute("class") or "")
    assert "up" in row.locator(".move").inner_text()
    # The QR code leads to the public standings page.
    qr = page.locator(".projector-qr svg")
    assert qr.is_visible() and qr.bounding_box()["width"] >= 110
    page.goto(f"/p/{club.slug}/standings/")
    assert page.locator("h1").count() == 1


@pytest.mark.slow
def test_a_player_finds_their_row_within_the_cycle_measured_in_the_browser(
    new_page: Any, standing: Any, monkeypatch: Any
):
    """With the cycle shortened to 6 s (pages of 2 s, asked for every second: live.js asks at
    most once a second), a screen left running shows a given player's row within one cycle
    (and a little for the answer to arrive), whatever page it started on."""
    players = _night_of(standing, 72)
    club = standing.club
    monkeypatch.setattr(standings_views, "PROJECTOR_CYCLE", 6.0)
    monkeypatch.setattr(standings_views, "PROJECTOR_TURN_MIN", 2.0)
    cycle = 6.0
    page = new_page(WIDE)
    page.goto(f"/p/{club.slug}/standings/projector/")
    season = page.locator("section[data-pages]").nth(1)
    assert season.get_attribute("data-pages") == "3"
    shown = {name.strip() for name in season.locator("tbody th").all_inner_texts()}
    wanted = next(p for p in reversed(players) if p.name not in shown)  # on another page
    started = time.monotonic()
    page.locator(f"section[data-pages]:nth-child(2) tr[data-player='{wanted.pk}']").wait_for(
        state="visible", timeout=int(cycle * 1000 * 3)
    )
    waited = time.monotonic() - started
    assert waited <= cycle + 1.5, f"{wanted.name} appeared after {waited:.1f}s"


def test_formats_stand_in_their_own_columns(new_page: Any, standing: Any, monkeypatch: Any):
    _night_of(standing, 12, rummikub=True)
    page = new_page(WIDE)
    page.goto(f"/p/{standing.club.slug}/standings/projector/")
    heads = page.locator("section[data-pages] thead").first.inner_text()
    assert "Points rummy" in heads and "Rummikub" in heads  # each in its own column
    assert "Points\n" not in heads + "\n"  # no column adding the two units
    shoot(page, "projector-formats-wide")


def test_the_tournament_projector_fills_the_screen_with_the_round_its_clock_and_who_went_on(
    new_page: Any, standing: Any
):
    club_services.club_update(club=standing.club, actor=standing.owner, public_standings=True)
    cup = new_tournament(standing)
    enter(standing, cup, roster(standing, 72))
    tournament_start(tournament=cup, actor=standing.organiser)
    round_release(tournament=cup, actor=standing.organiser, number=1)
    tables = list(RoundTable.objects.filter(round__tournament=cup).order_by("number"))
    assert len(tables) == 12
    for table in (tables[4], tables[1]):  # table 2 settles last
        seats = list(table.game.seats.order_by("position").values_list("player_id", flat=True))
        play_table(standing, table.game, {p: 10 + 5 * i for i, p in enumerate(seats[1:])})
    # The director sets the round clock on the desk (a phone at the desk will do).
    desk = new_page(PHONE, user=standing.organiser)
    desk.goto(f"/clubs/{standing.club.slug}/tournaments/{cup.pk}/")
    desk.locator("#clock-minutes").fill("25")
    desk.get_by_role("button", name="Set the round clock").click()
    assert "Round 1 ends at" in desk.locator(".messages").inner_text()
    assert desk.get_by_role("button", name="Clear the clock").is_visible()
    assert desk.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page = new_page(WIDE)
    page.goto(f"/p/{standing.club.slug}/tournaments/{cup.pk}/projector/")
    shoot(page, "tournament-projector-72-wide")
    assert page.evaluate("document.documentElement.scrollHeight") <= WIDE["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDE["width"]
    cards = page.locator(".projector-tables > li")
    assert cards.count() == 12  # every table of the round on one screen
    # The cards use the screen: their grid spans nearly its whole width.
    first, last = cards.first.bounding_box(), cards.last.bounding_box()
    assert last["x"] + last["width"] - first["x"] >= 0.9 * WIDE["width"]
    assert last["y"] + last["height"] >= 0.85 * WIDE["height"]  # and its height
    assert _font_px(page, ".projector-tables ol li") >= NAMES_PX
    for small in ("h1 .turn", ".projector-tables h2 .turn", ".projector-qr p", ".just-now p"):
        assert _font_px(page, small) >= BODY_PX, small
    # What just changed first: the table that settled last, and who went on from it.
    just_now = page.locator(".just-now")
    assert "Just now · table 2 settled" in just_now.inner_text()
    going = just_now.locator("strong").inner_text().split(", ")
    assert len(going) == 2
    card = page.locator(".projector-tables > li[data-table='2']")
    assert "just" in (card.get_attribute("class") or "")
    marked = [" ".join(t.split()) for t in card.locator("li.went-on").all_inner_texts()]
    assert sorted(marked) == sorted(f"{name} goes on" for name in going)
    # The round clock counts down by itself between updates.
    clock = page.locator(".round-clock .clock-left")
    shown = clock.inner_text()
    assert shown.startswith(("24:", "25:0"))
    page.wait_for_function(
        "shown => document.querySelector('.round-clock .clock-left').textContent !== shown",
        arg=shown,
        timeout=3000,
    )
    assert page.locator(".projector-qr svg").is_visible()


def test_on_a_phone_a_player_finds_their_row_from_the_qr_code(new_page: Any, standing: Any):

    players = _night_of(standing, 72)
    wanted = players[40]
    page = new_page(PHONE)
    page.goto(f"/p/{standing.club.slug}/standings/projector/")
    target = page.locator(".projector-qr svg").evaluate("e => e.outerHTML")
    assert "<path" in target  # a code, not an empty box
    page.goto(f"/p/{standing.club.slug}/standings/#find")  # where the code leads
    page.locator("#st-find").fill("player 40")
    page.get_by_role("button", name="Find").click()
    result = page.locator(".found a")
    assert result.count() == 1 and result.inner_text() == wanted.name
    result.click()
    row = page.locator(f"#p-{wanted.pk}")
    row.wait_for(state="visible")
    assert row.is_visible()
    shoot(page, "standings-find-your-row-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
