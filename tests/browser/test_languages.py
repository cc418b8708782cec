"""The same pages in all five languages, in one browser session: each chosen with the switcher
at the page's foot, each page saying its language and direction, its heading in that language,
and in Hebrew (right to left) the cards and seat numbers still reading left to right.
Screenshots of the Hebrew table page and deal page at 390 px."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from clubs.models import LanguageChoice
from scoring import table_links
from tests.browser.conftest import PHONE, shoot
from tests.browser.test_night import expect_text
from tests.pages.conftest import Pages
from tests.scoring.conftest import make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each language's code, direction, and the headings its pages show (home; the table's deals).
LANGUAGES = [
    ("en", "ltr", "Your clubs", "This table's deals"),
    ("hi", "ltr", "आपके क्लब", "इस टेबल की डील"),
    ("he", "rtl", "המועדונים שלך", "הידיים של השולחן הזה"),
    ("de", "ltr", "Deine Clubs", "Die Runden dieses Tisches"),
    ("nl", "ltr", "Jouw clubs", "De rondes van deze tafel"),
]
# What the entry page's script says of a blank form (the JavaScript catalog's words).
BLANK_FORM = {
    "en": "Enter each player's outcome and cards or points",
    "hi": "हर खिलाड़ी का नतीजा और पत्ते या अंक दर्ज करें",
    "he": "הזינו לכל שחקן את התוצאה ואת הקלפים או הנקודות",
    "de": "Trag für jeden Spieler das Ergebnis und Karten oder Punkte ein",
    "nl": "Voer voor elke speler de uitslag en kaarten of punten in",
}
SCREENSHOTS = Path("/tmp/rummyclub-languages")


def _switch(page: Any, language: str) -> None:
    """The switcher at the foot of the page: back on the same page, in ``language``."""
    address = page.url
    page.locator("#language-choice").select_option(language)
    page.locator(".language-switch button[type=submit]").click()
    page.wait_for_url(address)
    assert page.locator("html").get_attribute("lang") == language


def _direction(page: Any, selector: str) -> str:
    return str(page.locator(selector).first.evaluate("e => getComputedStyle(e).direction"))


def test_the_same_pages_in_five_languages_in_one_session(new_page: Any, standing: Any) -> None:
    club = standing.club
    club.table_entry = "confirm"
    club.save()
    night = Pages(standing, make_night(standing))
    deal, _submission = night.play_deal()
    link = table_links.table_links_ensure(
        tables=[night.night.game.table], actor=standing.organiser, mode="confirm"
    )[0]
    table_page = table_links.link_path(link)
    deal_page = f"/clubs/home/deals/{deal.pk}/"
    entry_page = f"/clubs/home/games/{night.night.game.pk}/deals/new/"

    page = new_page(PHONE, user=standing.organiser)
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "en"
    if SCREENSHOTS.exists():
        shutil.rmtree(SCREENSHOTS)
    SCREENSHOTS.mkdir(parents=True)
    for language, direction, home_heading, deals_heading in LANGUAGES:
        page.goto("/")
        _switch(page, language)
        assert page.locator("html").get_attribute("dir") == direction
        assert page.locator("main h1").inner_text() == home_heading
        page.goto(table_page)
        assert page.locator("html").get_attribute("lang") == language
        assert page.locator("#deals-h").inner_text() == deals_heading
        assert _direction(page, "body") == direction
        # Seat numbers stay left to right in every language.
        assert _direction(page, ".table-players .seat-no") == "ltr"
        page.goto(deal_page)
        assert page.locator("html").get_attribute("dir") == direction
        # A card reads rank then suit, left to right, inside right-to-left text.
        assert _direction(page, ".card") == "ltr"
        if direction == "rtl":
            _check_mirrored(page)
        page.goto(entry_page)
        expect_text(page.locator("#summary"), BLANK_FORM[language])
        if direction == "rtl":
            page.goto(table_page)
            page.screenshot(path=str(SCREENSHOTS / f"table-{language}-390.png"), full_page=True)
            shoot(page, f"languages-table-{language}-390")
            page.goto(entry_page)
            expect_text(page.locator("#summary"), BLANK_FORM[language])
            page.screenshot(path=str(SCREENSHOTS / f"entry-{language}-390.png"), full_page=True)
            page.goto(deal_page)
            page.screenshot(path=str(SCREENSHOTS / f"deal-{language}-390.png"), full_page=True)
            shoot(page, f"languages-deal-{language}-390")
    # The last choice is the account's: it comes back at the next login anywhere.
    assert LanguageChoice.objects.get(user=standing.organiser).language == "nl"


def _check_mirrored(page: Any) -> None:
    """Right to left: the brand at the top is at the right of the bar, and a card's rank is
    left of its suit."""
    bar = page.locator(".topbar").bounding_box()
    brand = page.locator(".brand").bounding_box()
    assert brand["x"] + brand["width"] > bar["x"] + bar["width"] * 0.6, (brand, bar)
    card = page.locator(".card").first
    text = card.locator("[aria-hidden=true]").inner_text()
    assert text[-1] in "♠♥♦♣" and text[0] not in "♠♥♦♣", text
