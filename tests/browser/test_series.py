"""The public page of a season series on a phone (390 px) and a laptop (1280 px): the table, the
awards and the events readable, nothing wider than the screen but the table's own scroller; and
its projector at 1920x1080."""

from __future__ import annotations

from typing import Any

import pytest

from clubs import services as club_services
from series import services
from tests.browser.conftest import DESKTOP, PHONE, WIDE, shoot
from tests.scoring.helpers import new_game, play, results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid"]


def _series(standing: Any) -> int:
    club_services.club_update(club=standing.club, actor=standing.owner, public_standings=True)
    series = services.series_create(
        club=standing.club, actor=standing.organiser, name="Grand Prix 2026",
        points_table=[25, 18, 15, 12, 10, 8], tiers={"regular": "1", "major": "2"}, best_n=4,
        min_events=3, awards=[{"kind": "most_wins", "name": "Golden Joker"},
                              {"kind": "best_average", "name": "Steady Hand"}],
    )  # fmt: skip
    for night in range(6):
        seated = PLAYERS[night % 2 :] if night % 3 else PLAYERS
        game, ids = new_game(standing, "points", seated)
        winner = seated[night % len(seated)]
        lines = {name: 10 + 7 * i for i, name in enumerate(seated) if name != winner}
        play(standing, game, results(ids, **{winner: "winner"}, **lines))
        services.series_event_add(
            series=series, actor=standing.organiser, tier="major" if night == 5 else "regular",
            session_id=game.table.session_id,
        )  # fmt: skip
    return series.pk


@pytest.mark.parametrize(("viewport", "label"), [(PHONE, "390"), (DESKTOP, "1280")])
def test_the_public_series_page_fits_the_screen(new_page: Any, standing: Any, viewport, label):
    series_id = _series(standing)
    page = new_page(viewport)
    page.goto(f"/p/{standing.club.slug}/series/{series_id}/")
    assert page.locator("h1").inner_text().endswith("Grand Prix 2026")
    rows = page.locator("table.series-table tbody tr")
    assert rows.count() == len(PLAYERS)
    assert "Golden Joker" in page.locator(".series-awards").inner_text()
    assert page.locator("ol.series-events li").count() == 6
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide at {label} px"
    # The name column stays on screen; the events' columns scroll within the table's wrapper.
    name = page.locator("table.series-table tbody th").first.bounding_box()
    assert name is not None and name["x"] + name["width"] <= viewport["width"]
    shoot(page, f"series-public-{label}")


def test_the_series_projector_fills_a_wide_screen(new_page: Any, standing: Any):
    series_id = _series(standing)
    page = new_page(WIDE)
    page.goto(f"/p/{standing.club.slug}/series/{series_id}/projector/")
    assert page.locator("tbody tr").count() == len(PLAYERS)
    assert page.locator(".projector-qr svg").count() == 1
    shoot(page, "series-projector-wide")
