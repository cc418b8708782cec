"""Every page of a club night and a tournament in every language, in one browser session at
390 px: each says its language, shows no sign of a translation gone wrong (a placeholder or a
template tag left in the text) and scrolls no page sideways (a wide table scrolls in its box)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubs.services import club_update
from config.catalogs import TRANSLATED
from scoring import table_links
from tests.browser.conftest import PHONE
from tests.pages.conftest import Pages
from tests.scoring.conftest import make_night
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.services.setup import tournament_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Signs of a string the translation machinery did not fill in.
BROKEN = ("%(", ")s", "{{", "{%", "%}", "}}")


def _pages(standing: Any) -> list[str]:
    """A night with a deal, its table link, a tournament under way: the pages a club uses."""
    club = standing.club
    club.public_standings = True
    club.table_entry = "confirm"
    club.save()
    night = Pages(standing, make_night(standing))
    deal, _submission = night.play_deal()
    game = night.night.game
    link = table_links.table_links_ensure(
        tables=[game.table], actor=standing.organiser, mode="confirm"
    )[0]
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000)
    enter(standing, cup, roster(standing, 8))
    tournament_start(tournament=cup, actor=standing.organiser)
    play_round(standing, cup, random.Random(5))
    slug = club.slug
    return [
        "/",
        f"/clubs/{slug}/",
        f"/clubs/{slug}/sessions/{game.table.session_id}/",
        f"/clubs/{slug}/games/{game.pk}/",
        f"/clubs/{slug}/games/{game.pk}/deals/new/",
        f"/clubs/{slug}/deals/{deal.pk}/",
        f"/clubs/{slug}/players/{game.seats.first().player_id}/",
        f"/clubs/{slug}/standings/",
        f"/clubs/{slug}/tournaments/",
        f"/clubs/{slug}/tournaments/{cup.pk}/",
        f"/p/{slug}/tournaments/{cup.pk}/",
        table_links.link_path(link),
        "/account/",
    ]


def test_every_page_in_every_language_at_390_px(new_page: Any, standing: Any) -> None:
    addresses = _pages(standing)
    page = new_page(PHONE, user=standing.organiser)
    problems = []
    for language in ("en", *TRANSLATED):
        club_update(club=standing.club, actor=standing.owner, language=language)
        page.context.set_extra_http_headers({"Accept-Language": language})
        for address in addresses:
            answer = page.goto(address)
            assert answer is not None and answer.status == 200, (language, address)
            said = page.locator("html").get_attribute("lang")
            text = page.locator("body").inner_text()
            wide = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            if said != language:
                problems.append((language, address, f"says {said}"))
            if any(sign in text for sign in BROKEN):
                problems.append((language, address, "a placeholder left in the text"))
            if wide > 1:
                problems.append((language, address, f"{wide} px of sideways scroll"))
    assert problems == []
