"""The settle-up's payment links in a real browser, at phone and desktop size: a payer taps Pay
on their line and sees the payee's UPI QR code and link, which stay open while the live
scoreboard updates."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from clubs.services import player_update
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.pages.conftest import LOSER_GROUPS, WILD, WINNER_GROUPS
from tests.scoring.conftest import make_night
from tests.scoring.helpers import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport,size", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_a_payer_opens_the_payees_upi_qr_code_on_the_settle_up(
    standing: Any, new_page: Any, viewport: dict[str, int], size: str
):
    from playwright.sync_api import expect

    night = make_night(standing)
    _deal, submission = enter_deal(
        night.game, standing.organiser,
        {"wild": WILD, "results": night.results(
            Asha={"outcome": "loser", "groups": LOSER_GROUPS},
            Bilal={"outcome": "loser", "points": 23}, Chitra={"outcome": "first_drop"},
            Dev={"outcome": "middle_drop"}, Esther={"outcome": "missed_turns"},
            Farid={"outcome": "winner", "groups": WINNER_GROUPS},
        )},
        wild=WILD, source="web",
    )  # fmt: skip
    assert submission is not None
    player_update(
        player=night.players["Farid"], actor=standing.organiser, actor_role="organiser",
        upi_id="farid.k@okhdfc",
    )  # fmt: skip

    page = new_page(viewport, user=standing.player)
    page.goto(f"/clubs/home/sessions/{night.session.pk}/#settle-up")
    asha = page.locator(".transfers li", has_text="Asha")
    expect(asha).to_contain_text(re.compile(r"Asha\s+pays\s+Farid\s+₹124\.00"))
    qr = asha.locator("svg.qr")
    expect(qr).to_be_hidden()
    asha.locator("summary", has_text="Pay").click()
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 120  # big enough for a phone camera
    pay = asha.get_by_role("link", name=re.compile(r"Pay ₹124\.00 by UPI"))
    query = parse_qs(urlsplit(pay.get_attribute("href") or "").query)
    assert query == {
        "pa": ["farid.k@okhdfc"], "pn": ["Farid"], "am": ["124.00"], "cu": ["INR"],
        "tn": ["Home Club: Friday"],
    }  # fmt: skip
    # The live scoreboard redraws itself (its "updated" time changes); the QR code stays open.
    board = page.locator("#scoreboard")
    before = board.get_attribute("data-live-updated")
    page.wait_for_function(
        "b => document.querySelector('#scoreboard').dataset.liveUpdated !== b",
        arg=before,
        timeout=15_000,
    )
    expect(asha.locator("svg.qr")).to_be_visible()
    asha.scroll_into_view_if_needed()
    shoot(page, f"settle-up-pay-{size}")
