"""The formats in a real browser: a pool game where a player is eliminated, rejoins and the
remaining players split; a best-of-2 deals game ending level and its tie-breaker deal; a Sabra
game entered from the racks; the standings ordered by a changed metric order. The deals that only
set the scene are entered through the services; what the organiser or scorer does is clicked."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text
from tests.scoring.helpers import new_game, play, results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def presets(standing: Any) -> Any:
    return standing


def seq(*parts: str) -> str:
    """A pattern for these words in this order, however the page spaces them."""
    return r"\s*".join(re.escape(part) for part in parts)


def no_overflow(page: Any, name: str) -> None:
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{name} is {overflow}px wider than the screen"


def test_pool_elimination_rejoin_and_split(presets: Any, new_page: Any):
    standing = presets
    game, ids = new_game(standing, "pool-101", ["Asha", "Bilal", "Chitra", "Dev"],
                         entry_fee_minor=2500)  # fmt: skip
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=20, Dev=80))
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=20, Dev=30))
    page = new_page(PHONE, user=standing.organiser)
    page.goto(f"/clubs/home/games/{game.pk}/")
    pool = page.locator("#pool")
    expect_text(pool, seq("Dev", "✗ Out", "−110", "of −101"))
    expect_text(pool, seq("Entries", "4 × ₹25.00"))
    shoot(page, "pool-out-phone")
    # The first tap asks, naming the fee and where Dev comes back in; the second pays.
    page.locator("#pool summary", has_text="Rejoin Dev…").click()
    expect_text(pool.locator("details.rejoin"), r"Dev pays the entry fee of ₹25\.00 again")
    shoot(page, "pool-rejoin-asks-phone")
    page.get_by_role("button", name="Yes: Dev pays ₹25.00 and rejoins").click()
    expect_text(page.locator(".messages"), r"Dev is back in at −41, paying ₹25\.00 again")
    expect_text(pool, seq("Dev", "● In, rejoined once", "−41", "of −101"))
    expect_text(pool, seq("Prize pool", "₹125.00"))
    # Dev goes out again; three remain of four: the split by drops is offered.
    play(standing, game, results(ids, Asha="winner", Bilal=40, Chitra=40, Dev=80))
    page.reload()
    split = page.locator("#split-drops")
    expect_text(split, r"Split by drops remaining")
    expect_text(split, seq("Asha", "at 0 · 5 drops left", "₹108.34"))
    expect_text(split, seq("Bilal", "at −80 · 1 drop left", "₹8.33"))
    shoot(page, "pool-split-phone")
    desktop = new_page(DESKTOP, user=standing.organiser)
    desktop.goto(f"/clubs/home/games/{game.pk}/")
    no_overflow(desktop, "pool game")
    shoot(desktop, "pool-split-desktop")
    # Not everyone agreed yet: refused with the name.
    split.get_by_label(re.compile("Asha")).check()
    split.get_by_label(re.compile("Bilal")).check()
    split.get_by_role("button", name="Record the split by drops remaining").click()
    expect_text(page.locator("#form-error"), "not agreed: Chitra")
    split = page.locator("#split-drops")
    for name in ["Asha", "Bilal", "Chitra"]:
        split.get_by_label(re.compile(name)).check()
    split.get_by_role("button", name="Record the split by drops remaining").click()
    expect_text(page.locator(".messages"), r"the game is over: Asha ₹108\.34, Bilal ₹8\.33")
    expect_text(page.locator("main > .row.between .badge").first, "Finished")
    expect_text(pool, seq("Paid out", "Asha", "+₹108.34"))
    assert page.locator("#split-drops").count() == 0
    no_overflow(page, "pool game")
    shoot(page, "pool-finished-phone")


def test_deals_ending_level_and_the_tiebreaker_deal(presets: Any, new_page: Any):
    standing = presets
    game, ids = new_game(
        standing, "deals-2", ["Asha", "Bilal", "Chitra"], entry_fee_minor=1000,
        params={"deals": {"deals": 2}, "fee": {"kind": "flat", "flat_minor": 300}},
    )  # fmt: skip
    play(standing, game, results(ids, Asha="winner", Bilal=30, Chitra=10))
    play(standing, game, results(ids, Bilal="winner", Asha=30, Chitra=10))
    page = new_page(PHONE, user=standing.scorer)
    page.goto(f"/clubs/home/games/{game.pk}/")
    expect_text(page.locator("#chips"), seq("Level at the top after the last deal:", "Asha, Bilal"))
    expect_text(page.locator("#chips"), seq("Deals counted", "2 of 2"))
    shoot(page, "deals-tie-phone")
    page.locator("#next").get_by_role("link", name="Play the tie-breaker deal").click()
    expect_text(page.locator("h1"), "Tie-breaker deal")
    assert page.locator("fieldset.player").count() == 2  # Chitra does not play it
    page.get_by_label("Outcome of Bilal").select_option("winner")
    page.get_by_label("Points of Asha").fill("12")
    expect_text(page.locator("#summary"), "Bilal wins")
    shoot(page, "tiebreaker-entry-phone")
    page.get_by_role("button", name="Submit the tie-breaker deal").click()
    expect_text(page.locator("#result"), "Accepted")
    page.get_by_role("link", name="Back to the game").click()
    expect_text(page.locator("#chips"), "★ Bilal won")
    expect_text(page.locator("#chips"), seq("Paid out", "Bilal", "+₹27.00"))
    shoot(page, "deals-won-phone")


def test_sabra_game_entered_from_the_racks(presets: Any, new_page: Any):
    standing = presets
    game, ids = new_game(standing, "sabra", ["Asha", "Bilal", "Chitra", "Dev"])
    page = new_page(PHONE, user=standing.scorer)
    page.goto(f"/clubs/home/games/{game.pk}/")
    page.get_by_role("link", name="Enter game 1").click()
    page.get_by_label("Who went out").select_option(label="Asha")
    # Who moved last matters only when the pool ran out (the page's script hides it, so wait).
    from playwright.sync_api import expect

    expect(page.get_by_label("Who moved last")).to_be_hidden(timeout=10_000)
    page.get_by_label("Tiles left on the rack of Bilal").fill("r5 jk")
    page.get_by_label("Tiles left on the rack of Chitra").fill("K13 K12")
    page.get_by_label("Tiles left on the rack of Dev").fill("B1 x9")
    expect_text(page.locator("#tiles-" + str(ids["Bilal"])), "2 tiles · counts 35")
    expect_text(page.locator("#tiles-" + str(ids["Dev"])), "Not a tile: X9")
    page.get_by_label("Tiles left on the rack of Dev").fill("B1")
    expect_text(page.locator("#tiles-" + str(ids["Dev"])), "1 tile · counts 1")
    # The colour is a letter on the tile, and a word for screen readers.
    bilal_tiles = page.locator(f"#tiles-{ids['Bilal']} .rtile")
    assert bilal_tiles.first.inner_text().replace("\n", "").startswith("R5")
    assert "red 5" in bilal_tiles.first.text_content()
    expect_text(page.locator("#summary-line"), "Asha went out")
    shoot(page, "rummikub-entry-phone")
    page.get_by_role("button", name="Submit game 1").click()
    result = page.locator("#result")
    expect_text(result, "Accepted")
    expect_text(result, r"Asha\s*\(went out\)[\s\S]*\+61")
    expect_text(result, r"Bilal[\s\S]*−35")
    no_overflow(page, "rummikub game result")
    shoot(page, "rummikub-result-phone")
    page.get_by_role("link", name="Back to the game").click()
    expect_text(page.locator("#match"), r"Asha\s*\(leading\)\s*\+61")
    expect_text(page.locator("#match"), "1 game played")
    shoot(page, "rummikub-game-phone")


def test_standings_follow_a_changed_metric_order(presets: Any, new_page: Any):
    standing = presets
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra", "Dev"],
                         point_value_minor=100)  # fmt: skip
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=80, Dev=20))
    play(standing, game, results(ids, Bilal="winner", Asha=80, Chitra=2, Dev="first_drop"))
    page = new_page(PHONE, user=standing.organiser)
    page.goto("/clubs/home/standings/")
    names = page.locator("table.standings tbody th")
    assert names.all_inner_texts() == ["Bilal", "Asha", "Dev", "Chitra"]  # by points
    page.goto("/clubs/home/settings/")
    page.get_by_label("Rank by").select_option(label="Drops")
    page.get_by_label("Then by (2)").select_option(label="Points conceded")
    page.get_by_label("Then by (3)").select_option("")
    shoot(page, "settings-phone")
    page.get_by_role("button", name="Save the order").click()
    expect_text(page.locator(".messages"), "ranked by Drops, then Points conceded")
    page.goto("/clubs/home/standings/")
    expect_text(page.locator("#standings"), "ranked by Drops, then Points conceded")
    header = page.locator("table.standings thead th").all_inner_texts()
    assert header == ["#", "Player", "Drops", "Points conceded"]
    # Fewest drops, then fewest points conceded: Bilal 0/20, Asha 0/80, Chitra 0/82, Dev 1/40.
    assert names.all_inner_texts() == ["Bilal", "Asha", "Chitra", "Dev"]
    no_overflow(page, "standings")
    shoot(page, "club-standings-phone")
    desktop = new_page(DESKTOP, user=standing.organiser)
    desktop.goto("/clubs/home/standings/")
    desktop.get_by_label("Standings of").select_option(f"game:{game.pk}")
    desktop.get_by_role("button", name="Show").click()
    expect_text(desktop.locator("#standings h2"), "Points rummy at Table 1")
    shoot(desktop, "club-standings-desktop")


def test_a_night_of_okey_entered_through_the_pages(presets: Any, new_page: Any):
    """Okey's deals typed on the entry page (the indicator, who finished and how, the
    finisher's tiles shown as tiles and checked by the rules) give the same totals as the same
    deals sent through the API, and the game's ledger sums to zero."""
    from playwright.sync_api import expect

    from tests.api.test_okey_games import MELDS, PAIRS, okey_deal
    from tests.scoring.helpers import by_name, ledger_balanced, state

    standing = presets
    names = ["Asha", "Bilal", "Chitra"]
    game, _ = new_game(standing, "okey", names)
    page = new_page(PHONE, user=standing.scorer)
    page.goto(f"/clubs/home/games/{game.pk}/")
    page.get_by_role("link", name="Enter deal 1").click()
    page.get_by_role("textbox", name="Indicator").fill("r7")
    page.get_by_label("Who finished").select_option(label="Asha")
    expect_text(page.locator("#summary-line"), "Asha finished.")
    hand = page.get_by_label("The finisher's 14 tiles")
    hand.fill(" ".join([*MELDS[:13], "x4"]))
    expect_text(page.locator("#tiles-hand"), "Not a tile: X4")
    hand.fill(" ".join(MELDS).lower())
    expect_text(page.locator("#tiles-hand"), "14 of 14 tiles")
    first = page.locator("#tiles-hand .rtile").first
    assert "red 1" in first.text_content()
    shoot(page, "okey-entry-phone")
    page.get_by_role("button", name="Submit deal 1").click()
    result = page.locator("#result")
    expect_text(result, "Accepted")
    expect_text(result, r"Bilal[\s\S]*−2")
    expect(page.locator("#okey-hand .rtile")).to_have_count(14)
    no_overflow(page, "okey deal result")
    shoot(page, "okey-result-phone")
    page.get_by_role("link", name="Back to the game").click()

    page.get_by_role("link", name="Enter deal 2").click()
    page.get_by_role("textbox", name="Indicator").fill("R7")
    page.get_by_label("Who finished").select_option(label="Bilal")
    page.get_by_label("How the hand finished").select_option(label="Seven pairs")
    page.get_by_label("Finished by discarding the okey").check()
    page.get_by_label("The finisher's 14 tiles").fill(" ".join(PAIRS))
    page.get_by_label("Showed the indicator's twin (Asha)").check()
    page.get_by_role("button", name="Submit deal 2").click()
    expect_text(page.locator("#result"), r"Chitra[\s\S]*−9")
    page.get_by_role("link", name="Back to the game").click()

    page.get_by_role("link", name="Enter deal 3").click()
    page.get_by_role("textbox", name="Indicator").fill("R7")
    page.get_by_label("Who finished").select_option(label="Nobody: the tiles ran out")
    expect(page.get_by_label("The finisher's 14 tiles")).to_be_hidden()
    page.get_by_role("button", name="Submit deal 3").click()
    expect_text(page.locator("#result"), "Nobody finished: the tiles ran out")
    page.get_by_role("link", name="Back to the game").click()
    expect_text(page.locator("#okey"), r"Bilal\s*\(leading\)\s*−3")
    expect_text(page.locator("#okey"), "3 deals played")
    shoot(page, "okey-game-phone")

    by_api, api_ids = new_game(standing, "okey", names)
    for deal in (
        okey_deal(api_ids, "Asha", hand=MELDS),
        okey_deal(api_ids, "Bilal", finish="pairs", okey_discard=True, hand=PAIRS, shown=["Asha"]),
        okey_deal(api_ids, None),
    ):
        play(standing, by_api, deal)
    assert by_name(state(game), "total") == by_name(state(by_api), "total")
    assert by_name(state(game), "total") == {"Asha": -8, "Bilal": -3, "Chitra": -11}
    assert ledger_balanced(game) and ledger_balanced(by_api)
