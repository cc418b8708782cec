"""A long game's page in a real browser: its newest deals first, the older ones a page away, on a
phone and on a desktop, the page no wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.selectors import GAME_DEALS_PAGE
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text
from tests.scoring.helpers import new_game, play, results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEALS = GAME_DEALS_PAGE + 12


def _numbers(page: Any) -> list[int]:
    return [int(n) for n in page.locator("table.deals tbody th a").evaluate_all(
        "links => links.map(a => a.firstChild.textContent)"
    )]  # fmt: skip


def test_a_long_game_is_paged_through_on_a_phone_and_a_desktop(new_page: Any, standing: Any):
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra", "Dev"])
    for number in range(1, DEALS + 1):
        lost = {"Bilal": 2 + number % 70, "Chitra": 20, "Dev": 40}
        play(standing, game, results(ids, Asha="winner", **lost))
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(size, user=standing.organiser)
        page.goto(f"/clubs/home/games/{game.pk}/")
        expect_text(page.locator(".pager"), "Page 1 of 2")
        assert _numbers(page) == list(range(DEALS, DEALS - GAME_DEALS_PAGE, -1))
        expect_text(page.locator("#next"), f"Enter deal {DEALS + 1}")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        shoot(page, f"game-deals-page-1-{label}")
        page.locator(".pager").get_by_role("link", name="Next").click()
        expect_text(page.locator(".pager"), "Page 2 of 2")
        assert _numbers(page) == list(range(DEALS - GAME_DEALS_PAGE, 0, -1))
        assert page.url.endswith("?page=2#deals-h")
        expect_text(page.locator("#next"), f"Enter deal {DEALS + 1}")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        shoot(page, f"game-deals-page-2-{label}")
        page.locator(".pager").get_by_role("link", name="Previous").click()
        expect_text(page.locator(".pager"), "Page 1 of 2")
        assert _numbers(page)[0] == DEALS
