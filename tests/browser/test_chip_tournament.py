"""A chip-level tournament of 30 run from the pages alone, in a real browser: create it with its
levels and a rebuy, register 30 players, start, release each round, enter every table's deal
on the deal pages and close the tables; after level 1 a player knocked out buys back in from the
desk; those between the thresholds play the level again; on to the final, places and prizes;
the chips on the desk, the public page and the projector, at 390 and 1280 px."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubs.models import Player
from ledger.models import AccountKind, Posting, Quantity
from scoring.models import RulePreset
from tests.browser.conftest import DESKTOP, PHONE, WIDE, shoot
from tests.browser.test_night import expect_text
from tests.browser.test_tournament import play_on_the_pages, seats_of, tables_of
from tournaments.figures import chips_held
from tournaments.models import Entry, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.slow
def test_an_organiser_runs_a_chip_level_tournament_of_30_from_the_pages(
    new_page: Any, standing: Any
):
    standing.club.public_standings = True
    standing.club.save()
    names = [f"Chipper {n:02d}" for n in range(1, 31)]
    for name in names:
        Player.objects.get_or_create(club=standing.club, name=name)
    page = new_page(DESKTOP, user=standing.organiser)

    # Create: the chip-level kind, its levels typed in, one rebuy a player in level 1.
    page.goto("/clubs/home/tournaments/")
    page.locator("#t-name").fill("Chip night")
    page.locator("#t-kind").select_option("chips")
    points = RulePreset.objects.get(club=None, key="points")
    page.locator("#t-preset").select_option(str(points.pk))
    page.locator("#t-fee").fill("10")
    page.locator("#t-levels").fill("5/800/1200 10/1000/1400 15/1200/1600 20/1600/2000")
    page.locator("#t-rebuys").fill("1")
    page.locator("#t-rebuy-price").fill("5")
    page.locator("#t-rebuy-chips").fill("1000")
    page.locator("#t-rebuy-until").fill("1")
    shoot(page, "chip-tournament-create-desktop")
    page.get_by_role("button", name="Open for entries").click()
    expect_text(page.locator("h1"), "Chip night")
    tournament = Tournament.objects.get(name="Chip night")
    assert tournament.kind == Tournament.Kind.CHIPS
    assert tournament.chip_levels["rebuy_price_minor"] == 500

    for name in names:
        page.locator("#entry-name").fill(name)
        page.locator("#entry-form input[name=paid]").check()  # the fee taken at the desk
        page.get_by_role("button", name="Enter", exact=True).click()
        expect_text(page.locator(".messages"), f"{name} is registered, fee paid")
    expect_text(page.locator("[data-figure=fees]"), r"₹300\.00")

    page.locator("#start").click()
    expect_text(page.locator("#draw-h"), "Round 1, level 1")
    expect_text(page.locator("#chips"), "Everyone starts with 1000 chips")
    shoot(page, "chip-tournament-draw-desktop")
    phone = new_page(PHONE, user=standing.organiser)
    phone.goto(f"/clubs/home/tournaments/{tournament.pk}/")
    shoot(phone, "chip-tournament-draw-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    rng = random.Random(4)
    rebuyer: Entry | None = None
    public = projector = None
    for _ in range(30):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        current = tournament.round_set.order_by("-number").first()
        assert current is not None and current.status == Round.Status.DRAFT
        page.goto(f"/clubs/home/tournaments/{tournament.pk}/")
        if rebuyer is None and current.number > 1:
            # After level 1: a player knocked out buys back in from the desk.
            button = page.locator("#chips button.rebuy").first
            row = button.locator("xpath=ancestor::tr")
            entry_id = int(row.get_attribute("data-entry") or 0)
            rebuyer = Entry.objects.get(pk=entry_id)
            before = chips_held(tournament=tournament)[rebuyer.player_id]
            shoot(page, "chip-tournament-rebuy-desktop")
            phone.goto(f"/clubs/home/tournaments/{tournament.pk}/")
            shoot(phone, "chip-tournament-rebuy-phone")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390
            button.click()
            expect_text(page.locator(".messages"), "bought back in")
            rebuyer.refresh_from_db()
            assert rebuyer.status == Entry.Status.ACTIVE and rebuyer.rebuys == 1
            assert chips_held(tournament=tournament)[rebuyer.player_id] == before + 1000
            expect_text(page.locator(f"#chips tr[data-entry='{entry_id}']"), "rebuy")
            current = tournament.round_set.order_by("-number").first()
            assert current is not None
            assert entry_id in {e for t in current.draw["tables"] for e in t}
        page.locator("#release").click()
        expect_text(page.locator(".messages"), f"Round {current.number} is released")
        if public is None:
            public = new_page(PHONE)
            public.goto(f"/p/home/tournaments/{tournament.pk}/")
            projector = new_page(WIDE)
            projector.goto(f"/p/home/tournaments/{tournament.pk}/projector/")
            expect_text(projector.locator("h1"), "level 1")
        for table in tables_of(tournament, current.number):
            seats = seats_of(table.game_id)
            play_on_the_pages(page, table.game_id, {p: rng.randint(1, 80) for p in seats[1:]})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and rebuyer is not None
    rounds = list(tournament.round_set.order_by("number"))
    assert rounds[-1].stage == Round.Stage.FINAL
    assert rounds[1].level == 1  # those between the thresholds played level 1 again
    assert max(r.level or 0 for r in rounds) >= 2
    assert tournament.entries.filter(status=Entry.Status.ELIMINATED).exists()

    # Places, prizes and chips: on the desk, the public page and the projector.
    page.goto(f"/clubs/home/tournaments/{tournament.pk}/")
    expect_text(page.locator("#places"), "Places and prizes")
    pool = 30 * 1000 + 500  # the fees and the rebuy, in minor units
    assert sum(
        Posting.objects.filter(
            book=tournament.purse, account=AccountKind.PLAYER, quantity=Quantity.MONEY,
            entry__kind="payout",
        ).values_list("amount", flat=True)
    ) == pool  # fmt: skip
    assert sum(chips_held(tournament=tournament).values()) == 30 * 1000 + 1000
    shoot(page, "chip-tournament-finished-desktop")
    phone.goto(f"/clubs/home/tournaments/{tournament.pk}/")
    shoot(phone, "chip-tournament-finished-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert public is not None and projector is not None
    # (the live following is the knock-out test's; these are read afresh)
    public.reload()
    projector.reload()
    expect_text(public.locator("#tournament-live"), "Places and prizes")
    expect_text(public.locator("#chips"), "Chips")
    shoot(public, "chip-tournament-public-phone")
    expect_text(projector.locator("#tournament-live"), "Prize pool")
    shoot(projector, "chip-tournament-projector-wide")
    box = projector.locator("main").bounding_box()
    assert box is not None and box["height"] <= 1080
