"""Every page of a club night and a tournament in every language, in one browser session at
390 px: each says its language, shows no sign of a translation gone wrong (a placeholder or a
template tag left in the text), scrolls no page sideways (a wide table scrolls in its box) and
leaves no English in any other language, the scripts' words included (every visible string read
against the English catalogue, tests/pages/test_english_left.py).

Three people use the club of tests/browser/club_site.py: its organiser (the club's pages, the
night, a game, its deal entry form with the card picker open and a hand checked, a deal, the
tournament desk of a cup under way and of one taking entries), a player at the table (its link
on a phone: the table, the next deal entered through it, the entry waiting) and another player
(confirming that entry on their own phone, then the public standings, the public tournament
pages and the projectors, not signed in).

With ``HEBREW_SHOTS=1`` the main pages are also shot in Hebrew at 390 and 1280 px and the
projectors at 1920 px, into test-artifacts/screenshots/ to be looked at."""

from __future__ import annotations

import os
from typing import Any

import pytest

from clubs.models import Player
from clubs.services import club_update
from config.catalogs import TRANSLATED
from scoring.models import RulePreset, Session, Table
from series.models import Series
from tests.browser.club_site import Site, club_site
from tests.browser.conftest import DESKTOP, PHONE, WIDE, shoot
from tests.browser.test_night import expect_text
from tests.pages.conftest import LOSER_GROUPS, WILD, WINNER_GROUPS, Pages
from tests.pages.conftest import text as typed_cards
from tests.pages.test_english_left import english_left
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Signs of a string the translation machinery did not fill in.
BROKEN = ("%(", ")s", "{{", "{%", "%}", "}}")
SHOTS = os.environ.get("HEBREW_SHOTS") == "1"
# The organiser's pages (by their name in club_site), then the visitor's public ones.
MEMBER = ["home", "club", "night", "game", "entry", "deal", "player", "club-standings",
          "tournaments", "desk", "open-desk", "account"]  # fmt: skip
PUBLIC = ["standings", "standings-projector", "public-cup", "public-open-cup", "projector"]
# Shot in Hebrew at a phone's and a laptop's width; the projectors at a big screen's.
SHOT = {"night", "game", "entry", "desk", "standings", "table-link", "table-waiting"}
PROJECTORS = {"standings-projector", "projector"}


def _names(standing: Any) -> list[str]:
    """What a page shows as it was typed: the club's, its nights', tables', tournaments',
    series', people's and presets' names."""
    club = standing.club
    names = [club.name]
    names += list(Session.objects.filter(club=club).values_list("name", flat=True))
    names += list(Table.objects.filter(session__club=club).values_list("name", flat=True))
    names += list(Tournament.objects.filter(club=club).values_list("name", flat=True))
    names += list(Series.objects.filter(club=club).values_list("name", flat=True))
    names += list(RulePreset.objects.values_list("name", flat=True))
    names += list(Player.objects.filter(club=club).values_list("name", flat=True))
    people = (standing.owner, standing.organiser, standing.scorer, standing.player)
    return names + [u.get_username() for u in people]


class Reader:
    """Reads each page shown in one language and keeps what is wrong with it."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.language = "en"
        self.problems: list[tuple[str, str, str]] = []

    def read(self, page: Any, what: str, left: list[str] | None = None) -> None:
        said = page.locator("html").get_attribute("lang")
        text = page.locator("body").inner_text()
        wide = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        found = [f"says {said}"] if said != self.language else []
        found += ["a placeholder left in the text"] if any(s in text for s in BROKEN) else []
        found += [f"{wide} px of sideways scroll"] if wide > 1 else []
        if self.language != "en":
            english = (left or []) + english_left(page.content(), self.language, self.names)
            found += [f"English left: {e}" for e in english]
        self.problems += [(self.language, what, problem) for problem in found]
        if SHOTS and self.language == "he":
            _shoot(page, what)

    def go(self, page: Any, site: Site, what: str) -> None:
        answer = page.goto(site.named[what])
        assert answer is not None and answer.status == 200, (self.language, what)
        self.read(page, what)


def _shoot(page: Any, what: str) -> None:
    """The page in Hebrew at each width it is looked at, then back at a phone's."""
    sizes = (WIDE,) if what in PROJECTORS else (PHONE, DESKTOP) if what in SHOT else ()
    for size in sizes:
        page.set_viewport_size(size)
        page.wait_for_timeout(300)  # the sticky submit bar settles at its new width
        shoot(page, f"languages-he-{size['width']}-{what}")
    page.set_viewport_size(PHONE)


def _use_the_entry_form(page: Any, night: Pages, reader: Reader) -> list[str]:
    """The entry form as a scorer uses it, so that the script's words show: the wild joker, the
    card picker opened with a group started and a card taken back, a hand typed and checked,
    and a card of it selected to move. The English left while the picker was open."""
    asha, bilal = night.night.pid("Asha"), night.night.pid("Bilal")
    page.locator("#id_wild").fill("QD")
    page.locator(f"#line-{bilal} .pick-btn").click()
    picker = page.locator("#picker")
    for card in ("2S", "3S", "4S"):
        picker.locator(f'[data-card="{card}"]').click()
    picker.locator("[data-tool=group]").click()
    picker.locator('[data-card="9H"]').click()
    picker.locator("[data-tool=undo]").click()
    # What the picker says of itself is read while it is open.
    left = []
    if reader.language != "en":
        left = english_left(page.content(), reader.language, reader.names)
    picker.locator("[data-tool=done]").click()
    page.locator(f"#id_p{asha}-cards").fill(typed_cards(LOSER_GROUPS))
    page.locator(f"#id_p{asha}-cards").dispatch_event("input")
    page.wait_for_function(
        "id => /\\d/.test(document.getElementById(id).textContent)", arg=f"eval-{asha}"
    )
    page.locator(f"#hand-{asha} .chip").first.click()
    return left


def _at_the_table(phone: Any, other: Any, site: Site, reader: Reader) -> None:
    """The table's link on a phone: the table, its next deal entered as seat 1 (Farid wins with
    his cards, two lose with points, the rest drop or miss turns), the entry waiting; then on
    another phone, seat 2 confirms it."""
    night = site.night.night
    reader.go(phone, site, "table-home")
    phone.locator("#enter").click()
    phone.locator("#id_seat").select_option("1")
    phone.locator("#id_wild").fill(WILD)
    outcomes = {"Asha": "loser", "Bilal": "loser", "Chitra": "first_drop",
                "Dev": "middle_drop", "Esther": "missed_turns", "Farid": "winner"}  # fmt: skip
    for name, outcome in outcomes.items():
        phone.locator(f"#id_p{night.pid(name)}-outcome").select_option(outcome)
    phone.locator(f"#id_p{night.pid('Asha')}-points").fill("40")
    phone.locator(f"#id_p{night.pid('Bilal')}-points").fill("23")
    phone.locator(f"#id_p{night.pid('Farid')}-cards").fill(typed_cards(WINNER_GROUPS))
    reader.read(phone, "table-link")
    phone.locator(".submit-bar button[type=submit]").click()
    phone.locator("#waiting").wait_for()
    reader.read(phone, "table-waiting")
    reader.go(other, site, "table-home")
    other.locator("#confirm-seat").select_option("2")
    other.locator("#confirm").click()
    expect_text(other.locator("#table-live"), r"\d")
    other.locator(".messages").wait_for()
    reader.read(other, "table-confirmed")


def test_every_page_in_every_language_at_390_px(
    new_page: Any, standing: Any, live_server: Any
) -> None:
    site = club_site(standing)
    c = f"/clubs/{standing.club.slug}"
    asha = site.night.night.pid("Asha")
    site.named |= {"player": f"{c}/players/{asha}/", "club-standings": f"{c}/standings/",
                   "tournaments": f"{c}/tournaments/", "account": "/account/"}  # fmt: skip
    # The check-in page's address, shown on the desk to be copied, is not words.
    check_in = live_server.url + site.named["public-open-cup"] + "check-in/"
    reader = Reader([*_names(standing), check_in])
    organiser = new_page(PHONE, user=standing.organiser)
    at_table, visitor = new_page(PHONE), new_page(PHONE)
    for language in ("en", *TRANSLATED):
        reader.language = language
        club_update(club=standing.club, actor=standing.owner, language=language)
        for page in (organiser, at_table, visitor):
            page.context.set_extra_http_headers({"Accept-Language": language})
        for what in MEMBER:
            answer = organiser.goto(site.named[what])
            assert answer is not None and answer.status == 200, (language, what)
            left = _use_the_entry_form(organiser, site.night, reader) if what == "entry" else []
            reader.read(organiser, what, left)
        _at_the_table(at_table, visitor, site, reader)
        for what in PUBLIC:
            reader.go(visitor, site, what)
    assert reader.problems == [], "\n".join(map(str, reader.problems))
