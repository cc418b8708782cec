"""Screenshots of the main pages, with the demo club loaded, at phone (390x844), laptop
(1280x800) and big-screen (1920x1080) widths, into test-artifacts/screenshots/ to be looked at.
Each page is also checked for what a phone cannot live with: a page wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.demo import demo_load
from scoring.games import game_create, table_create
from scoring.models import Deal, Game, RulePreset, Session
from tests.browser.conftest import DESKTOP, PHONE, WIDE, shoot
from tests.scoring.helpers import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.slow
def test_main_pages_at_phone_and_desktop_width(new_page: Any):
    demo = demo_load()
    club = demo.club
    tonight = Session.objects.get(club=club, name="Tonight")
    friday = Session.objects.get(club=club, name="Friday points night")
    game = Game.objects.filter(table__session=tonight).first()
    open_deal = Deal.objects.filter(game=game, status="open").first()
    counted = Deal.objects.filter(game=game, status="final").first()
    asha = club.players.get(name="Asha")
    formats = {g.format: g for g in Game.objects.filter(table__session__name="Sunday formats")}
    sabra = formats["rummikub"]
    international, closed_deal = _international_closed_win(demo)
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
        "game-pool": f"/clubs/{club.slug}/games/{formats['pool'].pk}/",
        "game-deals": f"/clubs/{club.slug}/games/{formats['deals'].pk}/",
        "game-rummikub": f"/clubs/{club.slug}/games/{sabra.pk}/",
        "deal-rummikub": f"/clubs/{club.slug}/deals/{sabra.deals.first().pk}/",
        "rummikub-entry": f"/clubs/{club.slug}/games/{sabra.pk}/deals/new/",
        "game-international": f"/clubs/{club.slug}/games/{international.pk}/",
        "international-entry": f"/clubs/{club.slug}/games/{international.pk}/deals/new/",
        "deal-international": f"/clubs/{club.slug}/deals/{closed_deal.pk}/",
        "club-standings": f"/clubs/{club.slug}/standings/",
        "settings": f"/clubs/{club.slug}/settings/",
        "standings": f"/p/{club.slug}/standings/",
        "projector": f"/p/{club.slug}/standings/projector/",
    }
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP), ("wide", WIDE)):
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


def _international_closed_win(demo: Any) -> tuple[Game, Deal]:
    """An International match at ₹0.50 a point of difference with a Closed win (a Royal)."""
    club, organiser = demo.club, demo.organiser
    tonight = Session.objects.get(club=club, name="Tonight")
    table = table_create(session=tonight, actor=organiser, name="Rummikub")
    players = list(club.players.order_by("name")[:3])
    game = game_create(
        table=table, actor=organiser, preset=RulePreset.objects.get(club=None, key="international"),
        players=players, point_value_minor=50,
    )  # fmt: skip
    a, b, c = (str(p.pk) for p in players)
    hands = [
        {"racks": {a: [], b: ["R5", "K12"], c: ["B3"]}, "winner": int(a), "win": "open",
         "melded": {b: True, c: False}},
        {"racks": {a: [], b: ["B9"], c: ["K3", "O4"]}, "winner": int(a), "win": "closed",
         "melded": {b: False, c: True}, "closed_hand": [f"R{n}" for n in range(1, 14)] + ["R1"]},
    ]  # fmt: skip
    deal = None
    for payload in hands:
        deal, _ = enter_deal(game, organiser, payload, source="web")
    assert deal is not None
    return game, deal
