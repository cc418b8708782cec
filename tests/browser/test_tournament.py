"""A knock-out run from the pages alone, in a real browser: create it (the prize preview follows
the payout chosen), register and check in fourteen players, start, swap two players by two
taps, release, enter every table's deal on the deal pages and close the tables, resolve a
tie-breaker, go on to the final, finish and see the prizes; the public page and the projector
follow without a reload; the table cards print one card a page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clubs.models import Player
from ledger.models import AccountKind, Posting
from scoring.models import Game, RulePreset
from tests.browser.conftest import DESKTOP, PHONE, WIDE, shoot
from tests.browser.test_night import expect_text
from tournaments.models import Round, RoundTable, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid", "Gauri", "Hari", "Ines", "Jai",
    "Kavya", "Lior", "Mira", "Nadia",
]  # fmt: skip


def seats_of(game_id: int) -> list[int]:
    return list(
        Game.objects.get(pk=game_id).seats.order_by("position").values_list("player_id", flat=True)
    )


def play_on_the_pages(
    page: Any, game_id: int, points: dict[int, int], *, close: bool = True
) -> None:
    """Enter the table's deal on its deal page (the seat without points wins), then close the
    table from its game page (``close``; a tie-breaker ends with its deal)."""
    page.goto(f"/clubs/home/games/{game_id}/deals/new/")
    for player in seats_of(game_id):
        if player in points:
            page.locator(f"#id_p{player}-outcome").select_option("loser")
            page.locator(f"#id_p{player}-points").fill(str(points[player]))
        else:
            page.locator(f"#id_p{player}-outcome").select_option("winner")
    page.locator(".submit-bar button[type=submit]").click()
    expect_text(page.locator("#result"), "Accepted")
    if not close:
        return
    page.goto(f"/clubs/home/games/{game_id}/")
    page.locator("#finish summary").click()
    page.get_by_role("button", name="Close the table").click()
    expect_text(page.locator(".messages"), ".")


def tables_of(tournament: Tournament, number: int) -> list[RoundTable]:
    return list(
        RoundTable.objects.filter(round__tournament=tournament, round__number=number).order_by(
            "number"
        )
    )


@pytest.mark.slow
def test_an_organiser_runs_a_knockout_from_the_pages(new_page: Any, standing: Any):
    standing.club.public_standings = True
    standing.club.save()
    for name in NAMES:
        Player.objects.get_or_create(club=standing.club, name=name)
    page = new_page(DESKTOP, user=standing.organiser)

    # Create: the prize preview follows the payout and the field.
    page.goto("/clubs/home/")
    page.get_by_role("link", name="Tournaments", exact=True).click()
    page.locator("#t-name").fill("Spring cup")
    points = RulePreset.objects.get(club=None, key="points")
    page.locator("#t-preset").select_option(str(points.pk))
    page.locator("#t-max").fill("4")
    page.locator("#t-min").fill("3")
    page.locator("#t-adv").fill("2")
    page.locator("#t-fee").fill("10")
    page.locator("#t-payout").select_option("seventy_thirty")
    page.locator("#t-field").fill("14")
    expect_text(page.locator("#prize-preview"), r"Pool ₹140\.00 from 14 entries")
    expect_text(page.locator("#prize-preview"), r"₹98\.00")
    shoot(page, "tournament-create-desktop")
    page.get_by_role("button", name="Open for entries").click()
    expect_text(page.locator("h1"), "Spring cup")
    tournament = Tournament.objects.get(name="Spring cup")

    # Registration: type-ahead names, one tap a check-in.
    for name in NAMES:
        page.locator("#entry-name").fill(name)
        page.locator("#entry-form input[name=paid]").check()  # the fee taken at the desk
        page.get_by_role("button", name="Enter", exact=True).click()
        expect_text(page.locator(".messages"), f"{name} is registered, fee paid")
    for name in NAMES:
        page.get_by_role("button", name=f"Check in {name}").click()
        expect_text(page.locator(".messages"), f"{name} is checked in")
    expect_text(page.locator("[data-figure=fees]"), r"₹140\.00")
    phone = new_page(PHONE, user=standing.organiser)
    phone.goto(f"/clubs/home/tournaments/{tournament.pk}/")
    shoot(phone, "tournament-registration-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # Start, look at the draw, swap two players of different tables by two taps, release.
    page.locator("#start").click()
    expect_text(page.locator(".draw-cost"), "No one meets anyone twice")
    draft = tournament.round_set.get(number=1)
    first_table, second_table = draft.draw["tables"][0], draft.draw["tables"][1]
    player_of = dict(tournament.entries.values_list("pk", "player_id"))
    a, b = player_of[first_table[0]], player_of[second_table[0]]
    page.locator(f"button.seat[data-player='{a}']").click()
    page.locator(f"button.seat[data-player='{b}']").click()
    expect_text(page.locator(".messages"), "Swapped")
    draft.refresh_from_db()
    assert first_table[0] in draft.draw["tables"][1] and second_table[0] in draft.draw["tables"][0]
    shoot(page, "tournament-draw-desktop")
    phone.goto(f"/clubs/home/tournaments/{tournament.pk}/")
    shoot(phone, "tournament-draw-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # The table cards print one card a page, then the seat list.
    cards = new_page(DESKTOP, user=standing.organiser)
    cards.goto(f"/clubs/home/tournaments/{tournament.pk}/rounds/1/cards/")
    cards.emulate_media(media="print")
    pdf = cards.pdf(format="A4")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages == len(draft.draw["tables"]) + 1, pages

    page.locator("#release").click()
    expect_text(page.locator(".messages"), "Round 1 is released")

    # The public page and the projector, opened now, follow without a reload.
    public = new_page(PHONE)
    public.goto(f"/p/home/tournaments/{tournament.pk}/?player={a}")
    expect_text(public.locator("#my-seat"), "table 2, seat 1")
    projector = new_page(WIDE)
    projector.goto(f"/p/home/tournaments/{tournament.pk}/projector/")
    expect_text(projector.locator("h1"), "round 1")

    # Round 1: every table plays; at the first, second and third place tie: a tie-breaker.
    for index, table in enumerate(tables_of(tournament, 1)):
        seats = seats_of(table.game_id)
        lost = {p: 10 * n for n, p in enumerate(seats[1:], start=1)}
        if index == 0:
            lost[seats[1]] = lost[seats[2]] = 25
        play_on_the_pages(page, table.game_id, lost)
    page.goto(f"/clubs/home/tournaments/{tournament.pk}/")
    tie = page.locator("td.cell.tiebreaker")
    expect_text(tie, "Needs a tie-breaker")
    tiebreak = RoundTable.objects.get(round__tournament=tournament, round__number=1, number=1)
    tied = seats_of(tiebreak.tiebreaker_id)
    names = dict(Player.objects.filter(pk__in=tied).values_list("pk", "name"))
    expect_text(tie, f"Tied: {names[tied[0]]}, {names[tied[1]]}")
    shoot(page, "tournament-tiebreaker-desktop")
    tie.get_by_role("link", name="Enter the tie-breaker deal").click()
    # Its one deal ends it: nothing to close by hand.
    play_on_the_pages(page, tiebreak.tiebreaker_id, {tied[1]: 5}, close=False)
    assert tournament.round_set.get(number=1).status == Round.Status.COMPLETE

    # Round 2, then the final.
    for number in (2, 3):
        page.goto(f"/clubs/home/tournaments/{tournament.pk}/")
        expect_text(page.locator(".went-on-round").first, "went on")
        page.locator("#release").click()
        for table in tables_of(tournament, number):
            seats = seats_of(table.game_id)
            play_on_the_pages(page, table.game_id, {p: 7 * n for n, p in enumerate(seats[1:], 1)})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.round_set.get(number=3).stage == Round.Stage.FINAL

    # Places and prizes: on the desk, the public page (live) and the projector (live).
    page.goto(f"/clubs/home/tournaments/{tournament.pk}/")
    expect_text(page.locator("#places"), r"₹98\.00")
    expect_text(page.locator("#places"), r"₹42\.00")
    shoot(page, "tournament-finished-desktop")
    expect_text(public.locator("#tournament-live"), "Places and prizes", timeout=20_000)
    place = tournament.entries.get(player_id=a).place
    expect_text(public.locator("#my-seat"), f"place {place}")
    expect_text(projector.locator("#tournament-live"), r"₹98\.00", timeout=20_000)
    shoot(public, "tournament-public-phone")
    shoot(projector, "tournament-projector-wide")
    box = projector.locator("main").bounding_box()
    assert box is not None and box["height"] <= 1080
    winner = tournament.entries.get(place=1)
    purse = Posting.objects.filter(
        book=tournament.purse, account=AccountKind.PLAYER, player=winner.player
    )
    assert sum(p.amount for p in purse) == 9800 - 1000  # the prize less the fee, in the ledger
