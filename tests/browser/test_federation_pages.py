"""The federation's pages in Chromium, one browser session for all: an organiser asks for a night
to be sanctioned from the club's page on a phone, the officer sanctions it from the queue; then
every page (the ranking list, a player's page, the queue, the club's pages, the projector) at
390 and 1280 px, nothing wider than the screen, each shot for looking at; the projector at
1920 px; the club's page, the ranking list and the queue in Hebrew at 390 px. The shots go to
test-artifacts/screenshots/federation-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from clubs import services as club_services
from federation.models import SanctionedEvent
from tests.browser.conftest import DESKTOP, PHONE, WIDE, shoot
from tests.browser.federation_site import federation_site

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = "document.documentElement.scrollWidth"


def test_the_federation_pages_at_phone_and_laptop_widths(new_page: Any, standing: Any):
    site = federation_site(standing)
    page = new_page(PHONE, user=standing.organiser)

    # The club's side: ask for the open night, in the open tier.
    page.goto(site.pages["club-federations"])
    page.get_by_role("link", name="Rummy Federation").click()
    page.locator("#id_event").select_option(f"session:{site.night}")
    page.locator("#id_tier").select_option("open")
    page.get_by_role("button", name="Ask", exact=True).click()
    row = page.locator("#events tr", has_text="Next Friday")
    assert "Asked: the officer decides" in row.inner_text()
    returned = page.locator("#events tr", has_text="February night").inner_text()
    assert "Returned" in returned and "correct table 2" in returned

    # The officer's side: sanction it from the queue.
    page.goto(site.pages["queue"])
    page.locator("#requests form", has_text="Next Friday").get_by_role(
        "button", name="Sanction"
    ).click()
    page.wait_for_url(f"**{site.pages['queue']}")
    assert SanctionedEvent.objects.get(session_id=site.night).status == "sanctioned"
    assert "Next Friday" not in page.locator("#requests").inner_text()

    wide: list[str] = []
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        for name, address in site.pages.items():
            page.goto(address)
            width = page.evaluate(WIDTH)
            if width > viewport["width"]:
                wide.append(f"{name} is {width} px wide at {viewport['width']} px")
            shoot(page, f"federation-{name}-{viewport['width']}")

    # Right to left: the club's page (in the club's language) and the lists (in the reader's).
    club_services.club_update(club=standing.club, actor=standing.owner, language="he")
    page.context.set_extra_http_headers({"Accept-Language": "he"})
    page.set_viewport_size(PHONE)
    for name in ("club-federation", "ranking", "queue"):
        page.goto(site.pages[name])
        assert page.locator("html").get_attribute("dir") == "rtl"
        width = page.evaluate(WIDTH)
        if width > PHONE["width"]:
            wide.append(f"{name} in Hebrew is {width} px wide")
        shoot(page, f"federation-{name}-he-390")
    assert not wide, wide
    page.context.set_extra_http_headers({"Accept-Language": "en"})

    page.set_viewport_size(WIDE)
    page.goto(site.pages["projector"])
    ranking = page.locator("#projector-ranking tbody tr")
    assert ranking.first.locator("th").inner_text() == "Asha"
    assert page.locator("#projector-ratings tbody tr").count() == 4
    assert page.evaluate(WIDTH) <= WIDE["width"]
    shoot(page, "federation-projector-1920")
