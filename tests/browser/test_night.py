"""A club night in a real browser, at phone size: log in, open the session, enter a six-player
deal with cards through the picker (the rules engine's verdict shown before submitting), see the
session's scoreboard update without a reload; a wrong declaration names its group; a correction
shows the history; anyone opens the public standings."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.pages.conftest import WRONG_GROUPS, text
from tests.scoring.conftest import Night, make_night
from tests.scoring.helpers import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WINNER = ["2H", "3H", "4H", "5H", "|", "5C", "6C", "7C", "8C", "|", "5D", "5C", "JK", "QH", "QS"]
LOSER = ["9S", "10S", "JS", "|", "2D", "3D", "4D", "|", "KH", "KD", "KC", "|", "7H", "8H", "AS",
         "6D"]  # fmt: skip


@pytest.fixture
def night(standing: Any) -> Night:
    return make_night(standing)


def expect_text(locator: Any, pattern: str, timeout: int = 10_000) -> None:
    from playwright.sync_api import expect

    expect(locator).to_contain_text(re.compile(pattern), timeout=timeout)


def pick(page: Any, player_id: int, cards: list[str]) -> None:
    page.locator(f"#line-{player_id} .pick-btn").click()
    picker = page.locator("#picker")
    for card in cards:
        if card == "|":
            picker.locator("[data-tool=group]").click()
        else:
            picker.locator(f'[data-card="{card}"]').click()
    picker.locator("[data-tool=done]").click()


def outcome(page: Any, player_id: int, value: str) -> None:
    page.locator(f"#id_p{player_id}-outcome").select_option(value)


@pytest.mark.slow
def test_organiser_enters_a_deal_with_the_picker_and_the_scoreboard_updates(
    night: Night, new_page: Any
):
    page = new_page(PHONE)
    page.goto("/login/")
    page.get_by_label("Username").fill("org")
    page.get_by_label("Password").fill("pw-for-tests")
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Home Club").click()
    page.get_by_role("link", name=re.compile("Friday")).first.click()
    expect_text(page.locator("#scoreboard"), "No deal counted yet")
    page.evaluate("window.__notReloaded = true")

    entry = page.context.new_page()
    entry.goto(page.url)
    entry.get_by_role("link", name="Open game & enter deals").click()
    entry.get_by_role("link", name="Enter deal 1").click()
    entry.get_by_label("Wild joker").fill("qd")
    expect_text(entry.locator("#wild-show"), "Every Q is a joker")

    farid, asha = night.pid("Farid"), night.pid("Asha")
    outcome(entry, farid, "winner")
    pick(entry, farid, WINNER)
    expect_text(entry.locator(f"#eval-{farid}"), r"✓ Valid declaration · 0 points")
    expect_text(entry.locator(f"#hand-{farid}"), "Pure sequence")
    expect_text(entry.locator(f"#hand-{farid}"), "Set")
    assert entry.locator(f"#id_p{farid}-cards").input_value() == text(
        [["2H", "3H", "4H", "5H"], ["5C", "6C", "7C", "8C"], ["5D", "5C", "JK", "QH", "QS"]]
    )
    pick(entry, asha, LOSER)
    expect_text(entry.locator(f"#eval-{asha}"), r"31 points · no valid declaration")
    entry.get_by_label("Points of Bilal").fill("23")
    outcome(entry, night.pid("Chitra"), "first_drop")
    outcome(entry, night.pid("Dev"), "middle_drop")
    outcome(entry, night.pid("Esther"), "missed_turns")
    expect_text(entry.locator("#summary"), "Farid wins and collects 154 points")
    shoot(entry, "deal-entry-phone")
    entry.get_by_role("button", name="Submit deal 1").click()
    expect_text(entry.locator("#result"), "Accepted")
    expect_text(entry.locator("#result"), "31")
    shoot(entry, "deal-accepted-phone")

    # The session page, never reloaded, picks the deal up by itself.
    expect_text(page.locator("#scoreboard"), r"\+₹616\.00", timeout=15_000)
    expect_text(page.locator("#scoreboard"), "pays")
    assert page.evaluate("window.__notReloaded") is True
    shoot(page, "session-live-phone")


def test_wrong_declaration_names_the_group(night: Night, new_page: Any, standing: Any):
    page = new_page(PHONE, user=standing.organiser)
    page.goto(f"/clubs/home/games/{night.game.pk}/deals/new/")
    farid = night.pid("Farid")
    # The picker by keyboard: one tab stop, arrows move, Enter adds.
    page.locator(f"#line-{farid} .pick-btn").click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert page.locator(f"#id_p{farid}-cards").input_value() == "2S"
    page.keyboard.press("Escape")
    # Typed cards show their suit symbols as you type.
    cards = page.locator(f"#id_p{farid}-cards")
    cards.fill("2♥ 3h 4H 5H | 5C 6C 7C 9C | 5D 5C JK QH QS")
    expect_text(page.locator(f"#hand-{farid}"), "2♥")
    expect_text(page.locator(f"#hand-{farid}"), "5♣")
    page.get_by_label("Wild joker").fill("QD")
    outcome(page, farid, "winner")
    expect_text(page.locator(f"#hand-{farid}"), r"Group 2: ✗ Not a valid group")
    expect_text(page.locator(f"#eval-{farid}"), "Not a valid declaration")
    expect_text(page.locator("#summary"), "not a valid declaration")
    for name in ["Asha", "Bilal", "Chitra", "Dev", "Esther"]:
        page.get_by_label(f"Points of {name}").fill("10")
    # The server's check of the whole deal, as typed: its reason names the player and the group.
    expect_text(page.locator("#summary .problems"), "Farid is entered as the winner")
    expect_text(page.locator("#summary .problems"), re.escape("group 2 (5C 6C 7C 9C)"))
    shoot(page, "deal-entry-wrong-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    shoot(page, "deal-entry-wrong-desktop")
    # Submit waits while the check shows the problem; sent anyway, the server names it too.
    submit = page.get_by_role("button", name="Submit deal 1")
    assert submit.is_disabled()
    submit.evaluate("button => button.form.submit()")
    expect_text(page.locator("#result"), "Rejected")
    expect_text(
        page.locator("#result"), re.escape("group 2 (5C 6C 7C 9C) is not a valid sequence or set")
    )
    assert page.locator("#result .group.bad").count() == 1
    expect_text(page.locator("#result .group.bad"), "9♣")
    shoot(page, "deal-rejected-phone")


def test_correction_shows_the_history(night: Night, new_page: Any, standing: Any):
    payload = {
        "wild": "QD",
        "results": night.results(
            Asha={"outcome": "loser", "points": 10},
            Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "first_drop"},
            Dev={"outcome": "middle_drop"},
            Esther={"outcome": "missed_turns"},
            Farid={"outcome": "winner", "groups": WRONG_GROUPS},
        ),
    }
    deal, _ = enter_deal(night.game, standing.organiser, payload, wild="QD", source="web")
    page = new_page(PHONE, user=standing.organiser)
    page.goto(f"/clubs/home/deals/{deal.pk}/")
    expect_text(page.locator("#result"), "Rejected")
    page.get_by_role("link", name="Correct this deal").click()
    cards = page.get_by_label("Cards of Farid")
    assert cards.input_value() == text(WRONG_GROUPS)
    cards.fill(cards.input_value().replace("9C", "8C"))
    expect_text(page.locator(f"#eval-{night.pid('Farid')}"), "✓ Valid declaration")
    page.get_by_role("button", name="Submit correction").click()
    expect_text(page.locator("#result"), "Accepted")
    history = page.locator("#history")
    expect_text(history, "v2")
    expect_text(history, "Accepted")
    expect_text(history, "v1")
    expect_text(history, "Rejected")
    shoot(page, "deal-history-phone")


def test_anyone_opens_the_public_standings(night: Night, new_page: Any, standing: Any):
    standing.club.public_standings = True
    standing.club.save()
    page = new_page(PHONE)
    page.goto("/p/home/standings/")
    expect_text(page.locator("main"), "Season")
    shoot(page, "standings-phone")
    projector = new_page(DESKTOP)
    projector.goto("/p/home/standings/projector/")
    expect_text(projector.locator("h1"), "Home Club")
    assert projector.locator(".topbar").count() == 0
    shoot(projector, "projector-desktop")


def test_a_whole_night_from_the_pages_on_a_phone(new_page: Any, standing: Any):
    """Start a session, a table and a game, enter a deal (typed cards), close the night and see
    the settle-up, and download the CSV: the pages alone, at phone size."""
    from clubs.models import Player

    for name in ["Dev", "Esther", "Farid"]:
        Player.objects.create(club=standing.club, name=name)
    page = new_page(PHONE, user=standing.organiser)
    page.goto("/clubs/home/")
    page.get_by_label("New session").fill("Saturday")
    page.get_by_role("button", name="Start session").click()
    expect_text(page.locator("h1"), "Saturday")
    page.get_by_role("button", name="Add table").click()
    expect_text(page.locator("h1"), "New game at Table 1")
    page.get_by_label("Rules").select_option(label="Points rummy (20/40/80) · Points rummy (v1)")
    for seat, name in enumerate(["Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("Money per point").fill("1")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter deal 1").click()
    page.get_by_label("Wild joker").fill("QD")
    page.get_by_label("Outcome of Farid").select_option("winner")
    page.get_by_label("Cards of Farid").fill("2H 3H 4H 5H | 5C 6C 7C 8C | 5D 5C JK QH QS")
    for name in ["Asha", "Bilal", "Chitra", "Dev", "Esther"]:
        page.get_by_label(f"Points of {name}").fill("10")
    expect_text(page.locator("#summary"), "Farid wins and collects 50 points")
    page.get_by_role("button", name="Submit deal 1").click()
    expect_text(page.locator("#result"), "Accepted")
    page.get_by_role("link", name="Saturday").click()
    expect_text(page.locator("#scoreboard"), r"\+₹50\.00")
    page.get_by_text("Close the night…").click()
    page.get_by_role("button", name="Close “Saturday”").click()
    expect_text(page.locator(".messages"), "is closed")
    expect_text(page.locator("#scoreboard"), r"Asha pays Farid ₹10\.00")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download CSV").click()
    content = Path(download.value.path()).read_text(encoding="utf-8")
    assert "Farid" in content and "settle-up" in content
    shoot(page, "night-closed-phone")
