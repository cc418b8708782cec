"""The tournament desk in a real browser: withdrawing asks first (a page of its own, no script
needed) and is undone by Reinstate; the live desk follows a round's end (no round clock offered
for a complete round) and the final's (finished, its places shown) without a reload by hand."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.models import Entry, Round, Tournament
from tournaments.services.draws import round_release
from tournaments.services.setup import tournament_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_withdraw_asks_first_and_reinstate_undoes_it(new_page: Any, standing: Any):
    cup = new_tournament(standing, table_max=4)
    enter(standing, cup, roster(standing, 6))
    entry = cup.entries.order_by("id").first()
    assert entry is not None
    name = entry.player.name
    page = new_page(DESKTOP, user=standing.organiser)
    page.goto(f"/clubs/home/tournaments/{cup.pk}/")
    row = page.locator(f"li[data-entry='{entry.pk}']")
    # Apart from Check in: a gap between the two.
    check_in = row.locator("button.check-in").bounding_box()
    leave = row.locator("a.leave").bounding_box()
    assert check_in and leave and leave["x"] - (check_in["x"] + check_in["width"]) >= 20
    shoot(page, "desk-entries-desktop")
    row.locator("a.leave").click()
    expect_text(page.locator("h1"), f"Withdraw {name}?")
    shoot(page, "desk-withdraw-ask-desktop")
    page.get_by_role("link", name=f"Keep {name} in").click()
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    row.locator("a.leave").click()
    page.locator("#withdraw-confirm").click()
    expect_text(page.locator(".messages"), f"{name}: withdrawn")
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.WITHDRAWN
    row.get_by_role("button", name=f"Reinstate {name}").click()
    expect_text(page.locator(".messages"), f"{name} is reinstated")
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED

    phone = new_page(PHONE, user=standing.organiser)
    phone.goto(f"/clubs/home/tournaments/{cup.pk}/entries/{entry.pk}/withdraw/")
    expect_text(phone.locator("h1"), f"Withdraw {name}?")
    shoot(phone, "desk-withdraw-ask-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.goto(f"/clubs/home/tournaments/{cup.pk}/")
    shoot(phone, "desk-entries-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_live_desk_follows_a_round_and_the_final_to_their_end(new_page: Any, standing: Any):
    cup = new_tournament(standing, table_max=4)
    enter(standing, cup, roster(standing, 8))
    tournament_start(tournament=cup, actor=standing.organiser)
    round_release(tournament=cup, actor=standing.organiser, number=1)
    page = new_page(DESKTOP, user=standing.organiser)
    page.goto(f"/clubs/home/tournaments/{cup.pk}/")
    expect_text(page.locator("#clock"), "Round 1 ends in")
    rng = random.Random(8)
    assert play_round(standing, cup, rng).status == Round.Status.COMPLETE
    # Round 1 complete, the final drawn: no clock for round 1, the draw to release.
    expect_text(page.locator("#draw"), "Round 2", timeout=20_000)
    assert page.locator("#clock").count() == 0
    page.locator("#release").click()
    expect_text(page.locator("#clock"), "Round 2 ends in")
    play_round(standing, cup, rng)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    expect_text(page.locator("[data-status]").first, "Finished", timeout=20_000)
    expect_text(page.locator("#places"), "Places and prizes")
    assert page.locator("#clock").count() == 0
    shoot(page, "desk-finished-live-desktop")
