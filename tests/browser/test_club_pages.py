"""Running the club from the pages in a real browser: a preset edited (a new version, the old
games keeping theirs), a member's role changed, the type-ahead of the seat pickers, and a
duplicate player merged into the one they duplicate."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Membership, Player
from scoring.games import table_create
from scoring.models import RulePreset
from scoring.nights import session_create
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text
from tests.conftest import ensure_builtin_presets

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_editing_a_preset_makes_a_new_version(new_page: Any, standing: Any):
    ensure_builtin_presets()
    page = new_page(DESKTOP, user=standing.organiser)
    page.goto("/clubs/home/settings/")
    for drop in ("20", "25"):
        page.locator("#presets summary").click()
        page.get_by_label("Key").fill("house")
        page.get_by_label("Name", exact=True).fill("House points")
        page.locator("#preset-format").select_option("points")
        page.locator("#preset-params").fill(f'{{"indian": {{"first_drop": {drop}}}}}')
        expect_text(page.locator("#preset-preview"), f"First drop: {drop}")  # previewed live
        page.get_by_role("button", name="Save the preset").click()
        expect_text(page.locator(".messages"), "House points")
    versions = RulePreset.objects.filter(club=standing.club, key="house").order_by("version")
    assert [p.params["indian"]["first_drop"] for p in versions] == [20, 25]
    expect_text(page.locator("#presets"), "version 2")
    shoot(page, "settings-presets-desktop")


def test_a_member_s_role_is_changed_from_the_club_home(new_page: Any, standing: Any):
    page = new_page(PHONE, user=standing.organiser)
    page.goto("/clubs/home/")
    scorer = Membership.objects.get(club=standing.club, user=standing.scorer)
    row = page.locator(f"li[data-member='{scorer.pk}']")
    row.locator("summary").click()
    row.locator("select").select_option("player")
    row.get_by_role("button", name="Set role").click()
    expect_text(page.locator(".messages"), "scorer is now player")
    scorer.refresh_from_db()
    assert scorer.role == "player"


def test_the_seat_pickers_find_a_player_by_typing(new_page: Any, standing: Any):
    ensure_builtin_presets()
    for name in ("Dev", "Esther", "Farid", "Gauri", "Hari"):
        Player.objects.get_or_create(club=standing.club, name=name)
    session = session_create(club=standing.club, actor=standing.organiser, name="Fri")
    table = table_create(session=session, actor=standing.organiser)
    page = new_page(PHONE, user=standing.organiser)
    page.goto(f"/clubs/home/tables/{table.pk}/games/new/")
    page.locator("input.find").first.fill("gau")
    gauri = Player.objects.get(club=standing.club, name="Gauri")
    assert page.locator("select[data-find]").first.input_value() == str(gauri.pk)


def test_inviting_a_member_who_accepts_with_a_new_account(new_page: Any, standing: Any):
    page = new_page(DESKTOP, user=standing.organiser)
    page.goto("/clubs/home/")
    page.locator("#invite-role").select_option("scorer")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect_text(page.locator(".messages"), "invitation link is below")
    link = page.locator("#invite-link").inner_text().strip()
    shoot(page, "invitation-link-desktop")
    guest = new_page(PHONE)
    guest.goto(link)
    expect_text(guest.locator("h1"), "Join Home Club")
    guest.get_by_label("Username").fill("newcomer")
    guest.get_by_label("Password").fill("a-long-pass-77")
    guest.get_by_role("button", name="Make the account and join").click()
    expect_text(guest.locator(".messages"), "Welcome to Home Club")
    assert Membership.objects.get(club=standing.club, user__username="newcomer").role == "scorer"
    shoot(guest, "invitation-accepted-phone")


def test_the_card_picker_buttons_are_a_thumb_wide_on_a_phone(new_page: Any, standing: Any):
    from tests.scoring.helpers import new_game

    ensure_builtin_presets()
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    page = new_page(PHONE, user=standing.scorer)
    page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
    page.locator(f"#line-{ids['Asha']} .pick-btn").click()
    for card in ("AS", "KS", "AH", "JK"):
        box = page.locator(f'#picker [data-card="{card}"]').bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (card, box)
    ace, king = (page.locator(f'#picker [data-card="{c}"]').bounding_box() for c in ("AS", "AH"))
    assert ace is not None and king is not None and ace["x"] == king["x"]  # each suit starts a row
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, "picker-phone")


def test_a_duplicate_player_is_merged_from_their_page(new_page: Any, standing: Any):
    duplicate = Player.objects.create(club=standing.club, name="Asha K.")
    asha = Player.objects.get(club=standing.club, name="Asha")
    page = new_page(PHONE, user=standing.organiser)
    page.goto(f"/clubs/home/players/{duplicate.pk}/")
    page.locator("#merge summary").click()
    page.locator("#merge input.find").fill("asha")
    assert page.locator("#merge-into").input_value() == str(asha.pk)
    page.get_by_label("The two are one person").check()
    page.get_by_role("button", name="Merge").click()
    expect_text(page.locator(".messages"), "Asha K. is merged into Asha")
    expect_text(page.locator("main"), "Also entered as Asha K.")
    shoot(page, "player-merged-phone")
    duplicate.refresh_from_db()
    assert duplicate.merged_into_id == asha.pk and not duplicate.active
