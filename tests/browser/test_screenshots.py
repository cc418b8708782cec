"""Screenshots of the main pages, with the demo club loaded, at phone (390x844) and desktop
(1366x900) widths, into test-artifacts/screenshots/ to be looked at. Each page is also checked
for what a phone cannot live with: a page wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.demo import demo_load
from scoring.models import Deal, Game, Session
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.conftest import ensure_builtin_presets

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_main_pages_at_phone_and_desktop_width(new_page: Any):
    ensure_builtin_presets()
    demo = demo_load()
    club = demo.club
    tonight = Session.objects.get(club=club, name="Tonight")
    friday = Session.objects.get(club=club, name="Friday points night")
    game = Game.objects.filter(table__session=tonight).first()
    open_deal = Deal.objects.filter(game=game, status="open").first()
    counted = Deal.objects.filter(game=game, status="final").first()
    asha = club.players.get(name="Asha")
    pages = {
        "home": "/",
        "club": f"/clubs/{club.slug}/",
        "session": f"/clubs/{club.slug}/sessions/{tonight.pk}/",
        "session-closed": f"/clubs/{club.slug}/sessions/{friday.pk}/",
        "game": f"/clubs/{club.slug}/games/{game.pk}/",
        "deal-entry": f"/clubs/{club.slug}/deals/{open_deal.pk}/result/",
        "deal": f"/clubs/{club.slug}/deals/{counted.pk}/",
        "new-game": f"/clubs/{club.slug}/tables/{game.table_id}/games/new/",
        "player": f"/clubs/{club.slug}/players/{asha.pk}/",
        "standings": f"/p/{club.slug}/standings/",
        "projector": f"/p/{club.slug}/standings/projector/",
    }
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(size, user=demo.organiser)
        for name, path in pages.items():
            response = page.goto(path)
            assert response is not None and response.status == 200, (name, path)
            if name == "deal-entry":
                page.locator(".pick-btn").first.click()
                page.locator("#picker [data-card='AS']").click()
                page.locator("#picker [data-card='2S']").click()
                page.screenshot(
                    path=str(shoot(page, f"{name}-{size_name}")).replace(".png", "-view.png")
                )
            else:
                shoot(page, f"{name}-{size_name}")
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{name} is {overflow}px wider than a {size_name} screen"
