"""Undo from the pages, in a real browser: voiding a counted deal (struck through, its money
gone from the scoreboard), a player leaving a points table between deals, closing and reopening
a night, marking a settle-up transfer paid (and the CSV saying so), and printing the session."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Deal, Seat, Session
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text
from tests.scoring.helpers import new_game, play, results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIVE = ["Asha", "Bilal", "Chitra", "Dev", "Esther"]


def test_an_organiser_voids_a_deal_removes_a_seat_reopens_and_marks_paid(
    new_page: Any, standing: Any
):
    game, ids = new_game(standing, "points", FIVE, point_value_minor=100)
    first = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40,
                                         Esther=10))  # fmt: skip
    play(standing, game, results(ids, Bilal="winner", Asha=10, Chitra=5, Dev=15, Esther=20))
    session = game.table.session
    page = new_page(PHONE, user=standing.organiser)

    # Void the first deal: its row is struck through and Asha's winnings are gone.
    page.goto(f"/clubs/home/deals/{first.deal_id}/")
    page.locator("details#void summary").click()
    page.locator("#void-deal").click()
    expect_text(page.locator(".messages"), "reversed in the ledger")
    assert Deal.objects.get(pk=first.deal_id).status == Deal.Status.VOID
    page.goto(f"/clubs/home/games/{game.pk}/")
    assert page.locator("tr.voided").count() == 1
    shoot(page, "undo-voided-deal-phone")

    # Dev leaves between deals: the next deal's form has no line for him.
    page.locator("#leave-player").select_option(str(ids["Dev"]))
    page.get_by_role("button", name="Leaves the table").click()
    expect_text(page.locator(".messages"), "Dev left the table")
    assert Seat.objects.get(game=game, player_id=ids["Dev"]).left_after_deal == 2
    page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
    assert page.locator(f"#id_p{ids['Dev']}-outcome").count() == 0
    assert page.locator(f"#id_p{ids['Asha']}-outcome").count() == 1

    # Settle-up: mark the first transfer paid; the CSV says who marked it.
    desk = new_page(DESKTOP, user=standing.organiser)
    desk.goto(f"/clubs/home/sessions/{session.pk}/")
    desk.locator(".transfers button", has_text="Mark paid").first.click()
    expect_text(desk.locator(".messages"), "Marked paid")
    expect_text(desk.locator(".transfers li.paid"), "Paid")
    csv = desk.request.get(f"/clubs/home/sessions/{session.pk}/export.csv").text()
    assert f",{standing.organiser.username}," in csv

    # Close the night, then reopen it.
    desk.goto(f"/clubs/home/sessions/{session.pk}/")
    desk.locator("#close summary").click()
    desk.get_by_role("button", name=f"Close “{session.name}”").click()
    expect_text(desk.locator(".badge").first, "Closed")
    desk.get_by_role("button", name=f"Reopen “{session.name}”").click()
    expect_text(desk.locator(".messages"), "open again")
    assert Session.objects.get(pk=session.pk).status == Session.Status.OPEN
    shoot(desk, "undo-reopened-session-desktop")

    # The session prints: the scoreboard and the settle-up, without the page's controls.
    desk.emulate_media(media="print")
    pdf = desk.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 5_000
    assert desk.locator("header.topbar").is_hidden()
