"""A tournament's and a night's report and sharing in a real browser, at phone and desktop size:
the PDFs downloaded (pages counted, their text checked against the places and prizes the desk
shows, and against every line of the night's scoreboard), the result's text shared (copied,
where the browser has no share sheet: every place in it) and the standings image downloaded
(its description the same text)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.pages.conftest import Pages
from tests.reports.helpers import finished_cup, pdf_read
from tests.scoring.conftest import make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport,size", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_a_player_downloads_and_shares_a_finished_tournament(
    standing: Any, new_page: Any, viewport: dict[str, int], size: str
):
    from playwright.sync_api import expect

    cup = finished_cup(Pages(standing, make_night(standing)))
    page = new_page(viewport, user=standing.player)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/clubs/home/tournaments/{cup.pk}/")
    rows = page.locator("#places tbody tr")
    expect(rows).to_have_count(6)
    places = [re.sub(r"\s+", " ", rows.nth(i).inner_text()).strip() for i in range(6)]
    winner = places[0].split(" ")
    assert winner[0] == "1" and "₹" in places[0], places
    shoot(page, f"tournament-share-{size}")

    with page.expect_download() as download:
        page.get_by_role("link", name=re.compile("Download PDF")).click()
    body = Path(download.value.path()).read_bytes()
    count, text = pdf_read(body)
    assert f"Page {count} of {count}" in text
    paid = [place for place in places if "₹" in place]
    assert len(paid) == 2, places  # seventy-thirty
    for place in paid:  # "1 Esther ₹630.00" on the desk; the same row in the PDF
        assert place in text, (place, text)
    for place in places:  # every name placed, "3= Farid" as "3 (tied) Farid"
        number, name = re.match(r"(\d+)=? (\S+)", place).groups()  # type: ignore[union-attr]
        assert re.search(rf"\b{number}( \(tied\))? {name}\b", text), (place, text)

    page.get_by_role("link", name=re.compile("Share result")).click()
    expect(page.locator("[data-share-said]")).to_have_text(re.compile("Copied"))
    shared = page.evaluate("navigator.clipboard.readText()")
    assert shared.startswith(f"Home Club · {cup.name}\nFinished\n")
    for place in places:  # "1 Esther ₹630.00" on the desk is "1. Esther  ₹630.00" in the text
        number, rest = re.match(r"(\d+)=? (.+)", place).groups()  # type: ignore[union-attr]
        rest = rest.removesuffix(" –").replace(" ₹", "  ₹")  # "–": no prize
        assert f"\n{number}. {rest}\n" in shared, (place, shared)

    with page.expect_download() as download:
        page.get_by_role("link", name=re.compile("Standings image")).click()
    image = Image.open(io.BytesIO(Path(download.value.path()).read_bytes()))
    assert image.format == "PNG" and image.size[0] == 960
    # The image's text is the shared text (without the public page's address, where it has one).
    described = image.text["Description"]  # type: ignore[attr-defined]
    assert described.endswith("\n") and shared.startswith(described), (described, shared)
    assert all(f"\n{place.split(' ')[0].rstrip('=')}. " in described for place in places)


@pytest.mark.parametrize("viewport,size", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_the_night_page_offers_its_report_and_sharing(
    standing: Any, new_page: Any, viewport: dict[str, int], size: str
):
    from playwright.sync_api import expect

    pages = Pages(standing, make_night(standing))
    pages.play_deal()
    page = new_page(viewport, user=standing.player)
    page.goto(f"/clubs/home/sessions/{pages.night.session.pk}/")
    report = page.get_by_role("link", name=re.compile("Download PDF"))
    expect(report).to_be_visible()
    with page.expect_download() as download:
        report.click()
    count, text = pdf_read(Path(download.value.path()).read_bytes())
    assert count == 1 and "Page 1 of 1" in text
    lines = page.locator("#scoreboard tbody tr[data-player]")
    expect(lines).to_have_count(6)
    for n in range(6):  # each line as the page shows it: "2 Farid +154 pts 1 (1)"
        shown = re.sub(r"\s+", " ", lines.nth(n).inner_text()).strip()
        assert shown in text, (shown, text)
    report.scroll_into_view_if_needed()
    shoot(page, f"night-share-{size}")
