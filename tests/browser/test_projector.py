"""The projector at 1920x1080: two boards fit the screen whole, a table longer than a screen
turns its pages by itself until every player has been shown, and points of different game
formats stand in their own columns."""

from __future__ import annotations

from typing import Any

import pytest

from clubs import services as club_services
from clubs.models import Player
from scoring.games import game_create, table_create
from scoring.models import RulePreset
from scoring.nights import session_create
from scoring.views import standings as standings_views
from tests.browser.conftest import WIDE, shoot
from tests.conftest import ensure_builtin_presets
from tests.scoring.helpers import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Clock:
    """The projector's clock, set by the test: the page a screen shows follows it."""

    now = 0.0

    @classmethod
    def time(cls) -> float:
        return cls.now


def test_the_projector_fits_the_screen_and_turns_through_every_player(
    new_page: Any, standing: Any, monkeypatch: Any
):
    ensure_builtin_presets()
    club = standing.club
    club_services.club_update(club=club, actor=standing.owner, public_standings=True)
    session = session_create(club=club, actor=standing.organiser, name="Big night")
    names = [f"Player {n:02d}" for n in range(30)]
    players = [Player.objects.create(club=club, name=name) for name in names]
    points = RulePreset.objects.get(club=None, key="points")
    for start in range(0, 30, 6):
        table = table_create(session=session, actor=standing.organiser)
        seated = players[start : start + 6]
        game = game_create(table=table, actor=standing.organiser, preset=points, players=seated)
        lines = [{"player": p.pk, "outcome": "loser", "points": 5 + i} for i, p in
                 enumerate(seated[1:])]  # fmt: skip
        enter_deal(
            game,
            standing.scorer,
            {"results": [{"player": seated[0].pk, "outcome": "winner"}, *lines]},
        )
    table = table_create(session=session, actor=standing.organiser, name="Rummikub")
    sabra = game_create(
        table=table, actor=standing.organiser, preset=RulePreset.objects.get(key="sabra"),
        players=players[:3],
    )  # fmt: skip
    a, b, c = (str(p.pk) for p in players[:3])
    enter_deal(sabra, standing.scorer, {"racks": {a: [], b: ["R5"], c: ["B7"]}, "winner": int(a)})

    monkeypatch.setattr(standings_views, "time", Clock)
    page = new_page(WIDE)
    seen: set[str] = set()
    for turn in range(3):
        Clock.now = turn * standings_views.PROJECTOR_TURN
        page.goto(f"/p/{club.slug}/standings/projector/")
        boards = page.locator("section[data-pages]")
        assert boards.count() == 2  # the night beside the season
        shoot(page, f"projector-turn-{turn + 1}-wide")
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= WIDE["height"], f"page {turn + 1} is {height}px tall"
        heads = page.locator("section[data-pages] thead").first.inner_text()
        assert "Points rummy" in heads and "Rummikub" in heads  # each in its own column
        assert "Points\n" not in heads + "\n"  # no column adding the two units
        season = boards.nth(1)
        assert season.get_attribute("data-pages") == "3"
        assert season.get_attribute("data-page") == str(turn + 1)
        seen |= {name.strip() for name in season.locator("tbody th").all_inner_texts()}
    assert seen == set(names)
