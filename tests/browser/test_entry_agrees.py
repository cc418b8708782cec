"""The deal entry page and the server agree: the form offers exactly the outcomes the game's
format declares (for every built-in preset), the page's own check finds no problem in a deal the
server accepts and names the problem of one it refuses, a blank form does not open red, and the
same form sent twice (back and resubmit) makes one deal."""

from __future__ import annotations

from typing import Any

import pytest

from rules.indian.deal import outcome_options
from scoring.models import Deal, RulePreset
from scoring.preset_rules import game_rules
from tests.browser.conftest import PHONE, shoot
from tests.browser.test_night import expect_text, outcome
from tests.scoring.helpers import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Asha", "Bilal", "Chitra"]
HANDS = ["points", "points-10-30", "pool-101", "pool-201", "pool-61", "deals-2", "deals-3",
         "deals-6"]  # fmt: skip


def test_the_form_offers_what_the_format_declares_for_every_builtin_preset(
    new_page: Any, standing: Any
):
    page = new_page(PHONE, user=standing.scorer)
    for key in HANDS:
        game, ids = new_game(standing, key, NAMES)
        page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
        offered = page.locator(f"#id_p{ids['Asha']}-outcome option").evaluate_all(
            "options => options.map(o => o.value)"
        )
        declared = [o.code for o in outcome_options(game_rules(game.preset).indian)]
        assert offered == declared, key
        if not game_rules(game.preset).indian.drops_allowed:
            assert "first_drop" not in offered and "middle_drop" not in offered, key
        # A blank form is no mistake: nothing red until something is entered.
        assert page.locator("#summary .problems").count() == 0, key
        assert page.locator("#summary-line .no").count() == 0, key


def _fill(page: Any, ids: dict[str, int], code: str, points: str) -> None:
    outcome(page, ids["Asha"], "winner")
    outcome(page, ids["Bilal"], code)
    page.get_by_label("Points of Bilal").fill(points)
    outcome(page, ids["Chitra"], "loser")
    page.get_by_label("Points of Chitra").fill("12")


@pytest.mark.parametrize("key", ["points", "deals-3"])
@pytest.mark.slow
def test_every_offered_outcome_checks_alike_on_the_page_and_the_server(
    new_page: Any, standing: Any, key: str
):
    """Each outcome the form offers, entered without cards with the points it allows, passes
    the page's check and the server counts it; points the outcome cannot score are named by the
    page and refused by the server alike."""
    page = new_page(PHONE, user=standing.scorer)
    preset = game_rules(RulePreset.objects.get(club=None, key=key))
    for option in outcome_options(preset.indian):  # type: ignore[arg-type]
        if option.code == "winner":
            continue
        game, ids = new_game(standing, key, NAMES)  # a deals game has only so many deals
        page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
        _fill(page, ids, option.code, "" if option.low == option.high else str(option.low))
        expect_text(page.locator("#summary"), "Asha wins")
        assert page.locator("#summary .problems").count() == 0, option.code
        page.get_by_role("button", name="Submit deal").click()
        expect_text(page.locator("#result"), "Accepted")
        if option.high < 80:  # points it cannot score: both sides say so
            page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
            _fill(page, ids, option.code, str(option.high + 1))
            expect_text(page.locator("#summary .problems"), "Bilal")
            # Submit waits while the check shows a problem; sent anyway, the server refuses too.
            submit = page.locator(".submit-bar button[type=submit]")
            assert submit.is_disabled(), option.code
            submit.evaluate("button => button.form.submit()")
            expect_text(page.locator("#result"), "Rejected")
            shoot(page, f"entry-refused-{option.code}-phone")
            Deal.objects.filter(game=game, status="open").delete()  # a deal never played


def test_a_form_sent_again_after_going_back_makes_one_deal(new_page: Any, standing: Any):
    game, ids = new_game(standing, "points", NAMES)
    page = new_page(PHONE, user=standing.scorer)
    page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
    _fill(page, ids, "loser", "20")
    page.get_by_role("button", name="Submit deal 1").click()
    expect_text(page.locator("#result"), "Accepted")
    first = page.url
    page.go_back()  # the browser restores what was typed, the form's token included
    assert page.locator(f"#id_p{ids['Bilal']}-points").input_value() == "20"
    page.locator(".submit-bar button[type=submit]").click()
    expect_text(page.locator("#result"), "Accepted")
    assert page.url == first
    assert Deal.objects.filter(game=game).count() == 1
    assert RulePreset.objects.filter(club=None, key="points").exists()


def test_submit_waits_while_the_check_shows_problems_and_no_win_is_announced(
    new_page: Any, standing: Any
):
    """An untouched form cannot be sent; −20 points is said to be negative, with no "wins" line
    beside it; once fixed, the win shows and Submit is back. Without the script (the form alone)
    the button is never disabled."""
    game, ids = new_game(standing, "points", NAMES)
    page = new_page(PHONE, user=standing.scorer)
    page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
    submit = page.locator(".submit-bar button[type=submit]")
    expect_text(page.locator("#summary-line"), "Enter the deal to submit it.")
    assert submit.is_disabled()
    _fill(page, ids, "loser", "-20")
    expect_text(page.locator("#summary .problems"), "Bilal's points: cannot be negative")
    expect_text(page.locator("#summary"), "Not ready to submit")
    assert "wins" not in page.locator("#summary").inner_text()
    assert "wins" not in page.locator("#summary-line").inner_text()
    assert submit.is_disabled()
    shoot(page, "entry-negative-points-phone")
    page.get_by_label("Points of Bilal").fill("20")
    expect_text(page.locator("#summary"), "Asha wins and collects 32 points")
    assert submit.is_enabled()
    submit.click()
    expect_text(page.locator("#result"), "Accepted")
    assert Deal.objects.get(game=game).number == 1
    bare = new_page(PHONE, user=standing.scorer)
    bare.context.route("**/*.js", lambda route: route.abort())
    bare.goto(f"/clubs/home/games/{game.pk}/deals/new/")
    assert bare.locator(".submit-bar button[type=submit]").is_enabled()
