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

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_editing_a_preset_makes_a_new_version(new_page: Any, standing: Any):
    page = new_page(DESKTOP, user=standing.organiser)
    page.goto("/clubs/home/settings/")
    for drop in ("20", "25"):
        page.locator("#presets summary").click()
        page.locator("#preset-key").fill("house")
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


def _suggestions(page: Any, picker: str, typed: str) -> list[str]:
    """Type ``typed`` into the picker ``picker`` and return the suggestions once the script has
    filled its datalist with the players API's answer to the whole text in the box (not to a
    prefix of it that was asked on the way)."""
    box = page.locator(picker)
    box.press_sequentially(typed, delay=30)
    whole = box.input_value().strip()
    page.locator(f"{picker}[data-suggested-for='{whole}']").wait_for(state="attached")
    names: list[str] = page.locator(f"{picker}-names option").evaluate_all(
        "os => os.map(o => o.value)"
    )
    return names


def _pick(page: Any, picker: str, typed: str, name: str) -> list[str]:
    """Type ``typed``, wait for the suggestions, and choose ``name`` among them (what picking a
    suggestion does: the input takes its value). Returns the suggestions offered."""
    names = _suggestions(page, picker, typed)
    assert name in names
    page.locator(picker).fill(name)
    return names


def test_a_player_joins_a_game_through_the_type_ahead(new_page: Any, standing: Any):
    from tests.scoring.helpers import new_game

    game, _ = new_game(standing, "points", ["Asha", "Bilal"])
    for number in range(40):  # more than a page of suggestions start with "P"
        Player.objects.create(club=standing.club, name=f"Player {number:02d}")
    for name in ("Gauri", "Gautam", "Hari"):
        Player.objects.create(club=standing.club, name=name)
    page = new_page(PHONE, user=standing.organiser)
    page.goto(f"/clubs/home/games/{game.pk}/")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/v1/" in r.url else None)
    assert _pick(page, "#seat-player", "gau", "Gauri") == ["Gauri", "Gautam"]
    assert any("search=gau" in url and "limit=20" in url for url in asked)
    shoot(page, "seat-picker-phone")
    page.get_by_role("button", name="Seat them").click()
    expect_text(page.locator(".messages"), "Gauri sits at seat 3")
    assert game.seats.filter(player__name="Gauri").exists()
    # A page of suggestions at most, however many names fit.
    page.locator("#seat-player").fill("")
    assert len(_suggestions(page, "#seat-player", "p")) == 20


def test_a_slow_answer_to_an_earlier_prefix_never_replaces_the_newer_suggestions(
    new_page: Any, standing: Any
):
    """The players API answers the first question ("g") last: the list must still be the
    answer to what is typed ("gau"), however the answers cross."""
    from tests.scoring.helpers import new_game

    game, _ = new_game(standing, "points", ["Asha", "Bilal"])
    for name in ("Gauri", "Gautam", "Gopal", "Govind"):
        Player.objects.create(club=standing.club, name=name)
    page = new_page(PHONE, user=standing.organiser)
    page.goto(f"/clubs/home/games/{game.pk}/")
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if "search=g&" in route.request.url or route.request.url.endswith("search=g"):
            held.append(route)  # answered only after the newer question has its answer
        else:
            route.continue_()

    page.route("**/api/v1/**", hold_the_first)
    box = page.locator("#seat-player")
    box.press_sequentially("g", delay=30)
    for _ in range(100):  # the "g" question leaves the page after the script's pause
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the script asked nothing for 'g'"
    assert _suggestions(page, "#seat-player", "au") == ["Gauri", "Gautam"]
    held[0].continue_()
    page.wait_for_timeout(500)
    names = page.locator("#seat-player-names option").evaluate_all("os => os.map(o => o.value)")
    assert names == ["Gauri", "Gautam"]
    assert box.get_attribute("data-suggested-for") == "gau"


def test_the_seat_pickers_of_a_new_game_take_typed_names(new_page: Any, standing: Any):
    for name in ("Dev", "Esther", "Farid", "Gauri", "Hari"):
        Player.objects.get_or_create(club=standing.club, name=name)
    session = session_create(club=standing.club, actor=standing.organiser, name="Fri")
    table = table_create(session=session, actor=standing.organiser)
    page = new_page(DESKTOP, user=standing.organiser)
    page.goto(f"/clubs/home/tables/{table.pk}/games/new/")
    _pick(page, "#id_seat_1", "gau", "Gauri")
    page.get_by_label("Seat 2", exact=True).fill("hari")  # a whole name, typed: no suggestion
    shoot(page, "new-game-pickers-desktop")
    page.get_by_role("button", name="Start the game").click()
    expect_text(page.locator(".messages"), "The game is on")
    game = table.games.get()
    assert [s.player.name for s in game.seats.order_by("position")] == ["Gauri", "Hari"]


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
    _pick(page, "#merge-into", "ash", "Asha")
    page.get_by_label("The two are one person").check()
    page.get_by_role("button", name="Merge").click()
    expect_text(page.locator(".messages"), "Asha K. is merged into Asha")
    expect_text(page.locator("main"), "Also entered as Asha K.")
    shoot(page, "player-merged-phone")
    duplicate.refresh_from_db()
    assert duplicate.merged_into_id == asha.pk and not duplicate.active


def test_the_long_lists_fit_a_phone_and_a_desktop(new_page: Any, standing: Any):
    from datetime import timedelta

    from django.utils import timezone

    from scoring.models import Session

    Player.objects.bulk_create(
        Player(club=standing.club, name=f"Ravi Shankar {n:03d}") for n in range(120)
    )
    start = timezone.now() - timedelta(days=100)
    Session.objects.bulk_create(
        Session(club=standing.club, name=f"Friday night {n:03d}", status="closed",
                started_at=start + timedelta(days=n))
        for n in range(80)
    )  # fmt: skip
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(size, user=standing.organiser)
        for url, shot, heading in (
            ("/clubs/home/", "club-home-long", "Home Club"),
            ("/clubs/home/players/?q=ravi&page=2", "all-players", "Players"),
            ("/clubs/home/sessions/", "all-nights", "Nights"),
            ("/clubs/home/members/", "all-members", "Members"),
        ):
            page.goto(url)
            expect_text(page.locator("h1"), heading)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], url
            shoot(page, f"{shot}-{label}")
        page.goto("/clubs/home/")
        page.get_by_label("Find a player").fill("ravi shankar 11")
        page.get_by_role("button", name="Find").click()
        expect_text(page.locator("h1"), "10 found")
        assert page.locator("#player-list li").count() == 10
