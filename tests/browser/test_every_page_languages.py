"""Every page of a club night and a tournament in every language, in one browser session at
390 px: each says its language, shows no sign of a translation gone wrong (a placeholder or a
template tag left in the text) and scrolls no page sideways (a wide table scrolls in its box).
The club's home, its standings and the night's own pages (the night, a game, its deal entry
form with the card picker open and a hand checked, a deal) leave no English in any other
language, the scripts' words included."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubs.models import Player
from clubs.services import club_update
from config.catalogs import TRANSLATED
from scoring import table_links
from scoring.models import RulePreset
from tests.browser.conftest import PHONE
from tests.pages.conftest import LOSER_GROUPS, Pages
from tests.pages.conftest import text as typed_cards
from tests.pages.test_english_left import english_left
from tests.scoring.conftest import make_night
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.services.setup import tournament_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Signs of a string the translation machinery did not fill in.
BROKEN = ("%(", ")s", "{{", "{%", "%}", "}}")


def _pages(standing: Any) -> tuple[list[str], Pages]:
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
    addresses = [
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
    return addresses, night


def _names(standing: Any, night: Pages) -> list[str]:
    """What a page shows as it was typed: the club's, the night's, its people's and presets'
    names."""
    names = [standing.club.name, night.night.session.name, night.night.game.table.name]
    names += list(RulePreset.objects.values_list("name", flat=True))
    names += list(Player.objects.filter(club=standing.club).values_list("name", flat=True))
    people = (standing.owner, standing.organiser, standing.scorer, standing.player)
    return names + [u.get_username() for u in people]


def _use_the_entry_form(page: Any, night: Pages, language: str, names: list[str]) -> list[str]:
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
    left = english_left(page.content(), language, names)
    picker.locator("[data-tool=done]").click()
    page.locator(f"#id_p{asha}-cards").fill(typed_cards(LOSER_GROUPS))
    page.locator(f"#id_p{asha}-cards").dispatch_event("input")
    page.wait_for_function(
        "id => /\\d/.test(document.getElementById(id).textContent)", arg=f"eval-{asha}"
    )
    page.locator(f"#hand-{asha} .chip").first.click()
    return left


def test_every_page_in_every_language_at_390_px(new_page: Any, standing: Any) -> None:
    addresses, night = _pages(standing)
    # The club home, the night, its game, the deal entry form, a deal and the standings.
    night_pages = {addresses[1], *addresses[2:6], addresses[7]}
    names = _names(standing, night)
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
            if language != "en" and address in night_pages:
                left = []
                if address.endswith("/deals/new/"):
                    left = _use_the_entry_form(page, night, language, names)
                for english in left + english_left(page.content(), language, names):
                    problems.append((language, address, f"English left: {english}"))
    assert problems == [], "\n".join(map(str, problems))
