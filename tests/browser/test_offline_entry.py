"""Deal entry that survives bad wifi (static/js/offline-entry.js, offline-queue.js, sw.js): deals
entered with the browser offline wait on the device, survive the tab being closed, and arrive
once each when the connection returns; a deal answered 503 is sent again and counted once; a
deal refused or in conflict when it is finally sent says why and what to do."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings

from ledger.models import LedgerEntry
from scoring.models import Deal, PlayerResult, Submission
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text, outcome
from tests.pages.conftest import WRONG_GROUPS, text
from tests.scoring.helpers import new_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Asha", "Bilal", "Chitra"]


def _fill(page: Any, ids: dict[str, int], bilal: str, chitra: str = "12") -> None:
    outcome(page, ids["Asha"], "winner")
    outcome(page, ids["Bilal"], "loser")
    page.get_by_label("Points of Bilal").fill(bilal)
    outcome(page, ids["Chitra"], "loser")
    page.get_by_label("Points of Chitra").fill(chitra)


def _until(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > end:
            return value
        time.sleep(0.2)


def _kept_offline(page: Any) -> None:
    """Wait until the worker controls the page and keeps it and its scripts."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10_000)
    page.wait_for_function(
        """() => caches.open("entry-pages-v1")
             .then(c => c.match(location.origin + location.pathname)).then(r => !!r)
             .then(found => found && caches.open("entry-assets-v1"))
             .then(c => c && c.keys()).then(keys => !!keys && keys.some(
               r => r.url.includes("deal-entry.js")))""",
        timeout=10_000,
    )


def _bilal_points(game: Any, ids: dict[str, int]) -> list[int]:
    """Bilal's points per counted deal, in deal order (what each deal was entered with)."""
    rows = PlayerResult.objects.filter(
        submission__deal__game=game,
        submission__status=Submission.Status.ACCEPTED,
        player_id=ids["Bilal"],
    ).order_by("submission__deal__number")
    return [row.points for row in rows]


def test_deals_entered_offline_wait_through_a_closed_tab_and_arrive_once(
    new_page: Any, standing: Any
):
    game, ids = new_game(standing, "points", NAMES)
    entry = f"/clubs/home/games/{game.pk}/deals/new/"
    page = new_page(PHONE, user=standing.scorer)
    context = page.context
    page.goto(entry)
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)").endswith("/")
    _kept_offline(page)
    expect_text(page.locator(".conn-line"), "^Online$")
    assert page.locator("#connection.conn-ok").count() == 1

    context.set_offline(True)
    expect_text(page.locator("#connection"), "Offline")
    shoot(page, "offline-entry-offline-phone")
    for number, points in ((1, "20"), (2, "30"), (3, "40")):
        expect_text(page.locator("h1"), f"Deal {number}")
        _fill(page, ids, points)
        page.locator(".submit-bar button[type=submit]").click()
        expect_text(page.locator("#connection"), f"{number} deals? waiting to send")
        # The form is cleared for the next deal, which the page now calls by its number.
        expect_text(page.locator(".submit-bar button[type=submit]"), f"Submit deal {number + 1}")
    assert page.locator("#waiting-deals li[data-state=waiting]").count() == 3
    expect_text(page.locator("#waiting-deals"), "Deal 1 · Table")
    shoot(page, "offline-entry-waiting-phone")
    assert Deal.objects.filter(game=game).count() == 0

    page.close()  # the tab closed with the three deals on the device
    page = context.new_page()
    page.goto(entry)  # still offline: the page comes from the worker's cache
    expect_text(page.locator("#connection"), "3 deals waiting to send")
    expect_text(page.locator(".submit-bar button[type=submit]"), "Submit deal 4")
    assert Deal.objects.filter(game=game).count() == 0

    back = time.monotonic()
    context.set_offline(False)
    expect_text(page.locator(".conn-line"), "^Online$", timeout=20_000)
    print(f"FIGURES {{'three deals sent once online (s)': {time.monotonic() - back:.2f}}}")
    assert page.locator("#waiting-deals li[data-state=sent]").count() == 3
    shoot(page, "offline-entry-sent-phone")
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert [deal.number for deal in deals] == [1, 2, 3]
    assert Submission.objects.filter(deal__game=game).count() == 3
    assert LedgerEntry.objects.filter(book__game=game, kind=LedgerEntry.Kind.DEAL).count() == 3
    assert _bilal_points(game, ids) == [20, 30, 40]


@pytest.mark.parametrize("lost", ["503", "connection-reset"])
@pytest.mark.slow
def test_a_deal_answered_503_is_sent_again_and_counted_once(
    new_page: Any, standing: Any, lost: str
):
    """The first answer is lost after the server stored the deal (a proxy answering 503 in its
    place, or the connection reset as a server restarts), the next two tries get a 503 without
    reaching it; the fourth is answered as the first."""
    game, ids = new_game(standing, "points", NAMES)
    entry = f"/clubs/home/games/{game.pk}/deals/new/"
    page = new_page(PHONE, user=standing.scorer)
    tries: list[int] = []

    def busy(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        tries.append(1)
        if len(tries) == 1:
            route.fetch()  # reaches the server, which stores the deal
            if lost == "503":
                route.fulfill(status=503, body="Service Unavailable", headers={"Retry-After": "1"})
            else:
                route.abort("connectionreset")
        elif len(tries) <= 3:
            route.fulfill(status=503, body="Service Unavailable")
        else:
            route.continue_()

    page.context.route(f"**{entry}", busy)
    page.goto(entry)
    _fill(page, ids, "25")
    submitted = time.monotonic()
    page.locator(".submit-bar button[type=submit]").click()
    expect_text(page.locator("#connection"), "1 deal waiting to send")
    expect_text(page.locator("#waiting-deals"), "answered 503")
    shoot(page, f"offline-entry-{lost}-phone")
    expect_text(page.locator("#waiting-deals li[data-state=sent]"), "Deal 1", timeout=20_000)
    print(f"FIGURES {{'{lost}, 503 x2, then sent (s)': {time.monotonic() - submitted:.2f}}}")
    expect_text(page.locator(".conn-line"), "^Online$")
    assert len(tries) == 4
    assert Deal.objects.filter(game=game).count() == 1
    assert Submission.objects.filter(deal__game=game).count() == 1
    assert LedgerEntry.objects.filter(book__game=game, kind=LedgerEntry.Kind.DEAL).count() == 1
    assert _bilal_points(game, ids) == [25]


def test_a_queued_deal_refused_or_in_conflict_says_why_and_what_to_do(new_page: Any, standing: Any):
    game, ids = new_game(standing, "points", NAMES)
    entry = f"/clubs/home/games/{game.pk}/deals/new/"
    page = new_page(PHONE, user=standing.scorer)
    page.goto(entry)
    _kept_offline(page)
    page.context.set_offline(True)
    _fill(page, ids, "20")
    page.locator(".submit-bar button[type=submit]").click()
    expect_text(page.locator("#connection"), "1 deal waiting")
    _fill(page, ids, "-5")  # the server refuses negative points
    page.locator(".submit-bar button[type=submit]").click()
    expect_text(page.locator("#connection"), "2 deals waiting")

    # Meanwhile deal 1 is entered at the desk, online.
    desk = new_page(DESKTOP, user=standing.organiser)
    desk.goto(entry)
    _fill(desk, ids, "33")
    desk.get_by_role("button", name="Submit deal 1").click()
    expect_text(desk.locator("#result"), "Accepted")

    page.context.set_offline(False)
    conflict = page.locator("#waiting-deals li[data-state=conflict]")
    expect_text(conflict, "typed as deal 1, but deal 2 is the game's next deal", timeout=20_000)
    # The deal after it waits behind it, so it cannot take deal 1's number.
    assert page.locator("#waiting-deals li[data-state=waiting]").count() == 1
    expect_text(page.locator("#connection"), "1 to look at")
    shoot(page, "offline-entry-conflict-phone")
    assert Deal.objects.filter(game=game).count() == 1

    conflict.get_by_role("button", name="Send it as the next deal").click()
    refused = page.locator("#waiting-deals li[data-state=refused]")
    expect_text(refused, "Bilal", timeout=20_000)
    expect_text(refused, "negative")
    shoot(page, "offline-entry-refused-phone")
    assert _bilal_points(game, ids) == [33, 20]

    refused.get_by_role("button", name="Correct it").click()
    assert page.get_by_label("Points of Bilal").input_value() == "-5"
    page.get_by_label("Points of Bilal").fill("5")
    expect_text(page.locator("#summary"), "Asha wins")
    page.locator(".submit-bar button[type=submit]").click()
    expect_text(page.locator("#result"), "Accepted")
    assert _bilal_points(game, ids) == [33, 20, 5]
    assert Submission.objects.filter(deal__game=game).count() == 3


def test_a_waiting_deal_can_be_discarded(new_page: Any, standing: Any):
    game, ids = new_game(standing, "points", NAMES)
    page = new_page(DESKTOP, user=standing.scorer)
    page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
    _kept_offline(page)
    page.context.set_offline(True)
    _fill(page, ids, "20")
    page.locator(".submit-bar button[type=submit]").click()
    waiting = page.locator("#waiting-deals li[data-state=waiting]")
    expect_text(waiting, "No connection to the server; trying again")
    shoot(page, "offline-entry-waiting-desktop")
    page.once("dialog", lambda dialog: dialog.accept())
    waiting.get_by_role("button", name="Discard").click()
    expect_text(page.locator(".conn-line"), "^Offline · a deal you submit is kept")
    assert page.locator("#waiting-deals li").count() == 0
    page.context.set_offline(False)
    expect_text(page.locator(".conn-line"), "^Online$")
    page.reload()
    expect_text(page.locator(".conn-line"), "^Online$")
    assert Deal.objects.filter(game=game).count() == 0


def test_a_kept_deal_the_rules_reject_once_stored_shows_the_reasons(new_page: Any, standing: Any):
    game, ids = new_game(standing, "points", NAMES)
    page = new_page(PHONE, user=standing.scorer)
    page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
    _kept_offline(page)
    page.context.set_offline(True)
    page.get_by_label("Wild joker").fill("QD")
    _fill(page, ids, "20")
    page.locator(f"#id_p{ids['Asha']}-cards").fill(text(WRONG_GROUPS))
    page.locator(".submit-bar button[type=submit]").click()
    expect_text(page.locator("#connection"), "1 deal waiting")
    page.context.set_offline(False)
    rejected = page.locator("#waiting-deals li[data-state=rejected]")
    expect_text(rejected, re.escape("group 2 (5C 6C 7C 9C) is not a valid sequence or set"))
    expect_text(page.locator(".conn-line"), "^Online · 1 to look at$")
    # The rejected deal keeps its number (the next entry is its next version); the cleared
    # form shows no problem before anything is typed.
    expect_text(page.locator(".submit-bar button[type=submit]"), "Submit deal 1")
    assert page.locator("#summary .problems").count() == 0
    shoot(page, "offline-entry-rejected-phone")
    rejected.get_by_role("link", name="Open the deal to correct it").click()
    expect_text(page.locator("#result"), "Rejected")
    assert Submission.objects.get(deal__game=game).status == Submission.Status.REJECTED


def _left_to_the_worker(new_page: Any, standing: Any) -> tuple[Any, dict, str, Any]:
    """A deal entered offline on a phone and waiting, its Background Sync registered: the game,
    its players' ids, the entry page's path and the page (still open)."""
    game, ids = new_game(standing, "points", NAMES)
    entry = f"/clubs/home/games/{game.pk}/deals/new/"
    page = new_page(PHONE, user=standing.scorer)
    context = page.context
    page.goto(entry)
    _kept_offline(page)
    context.set_offline(True)
    _fill(page, ids, "20")
    page.locator(".submit-bar button[type=submit]").click()
    expect_text(page.locator("#connection"), "1 deal waiting")
    page.wait_for_function(
        "() => navigator.serviceWorker.ready.then(r => r.sync.getTags())"
        ".then(tags => tags.includes('rummyclub-deals'))"
    )
    return game, ids, entry, page


def test_background_sync_sends_a_waiting_deal_with_no_page_open(new_page: Any, standing: Any):
    game, ids, entry, page = _left_to_the_worker(new_page, standing)
    context = page.context
    page.close()  # no page of the site open: only the worker can send it
    context.set_offline(False)
    assert _until(lambda: Deal.objects.filter(game=game).exists())
    page = context.new_page()
    page.goto(entry)
    expect_text(page.locator(".conn-line"), "^Online$")
    expect_text(page.locator(".submit-bar button[type=submit]"), "Submit deal 2")
    assert Submission.objects.filter(deal__game=game).count() == 1
    assert _bilal_points(game, ids) == [20]


def test_the_form_cleared_after_an_offline_submit_queues_no_empty_deal(
    new_page: Any, standing: Any
):
    game, ids = new_game(standing, "points", NAMES)
    page = new_page(PHONE, user=standing.scorer)
    page.goto(f"/clubs/home/games/{game.pk}/deals/new/")
    _kept_offline(page)
    page.context.set_offline(True)
    _fill(page, ids, "20")
    submit = page.locator(".submit-bar button[type=submit]")
    submit.click()
    expect_text(page.locator("#connection"), "1 deal waiting")
    expect_text(submit, "Submit deal 2")
    # The cleared form is no deal: its submit waits for something typed, and a second tap (or
    # the form sent by any other means) queues nothing.
    page.wait_for_timeout(1500)  # the cleared form's check (offline) has had its answer
    assert submit.is_disabled()
    submit.click(force=True)
    page.evaluate("document.getElementById('deal-form').requestSubmit()")
    page.wait_for_timeout(1000)
    expect_text(page.locator("#connection"), "1 deal waiting")
    assert page.locator("#waiting-deals li").count() == 1
    shoot(page, "offline-entry-cleared-phone")

    # Typing the next deal makes it a deal again.
    _fill(page, ids, "30")
    expect_text(page.locator("#summary"), "Asha wins")
    assert submit.is_enabled()
    submit.click()
    expect_text(page.locator("#connection"), "2 deals waiting")
    page.context.set_offline(False)
    expect_text(page.locator(".conn-line"), "^Online$", timeout=20_000)
    assert _bilal_points(game, ids) == [20, 30]


def _kept_deals(page: Any) -> list[dict[str, Any]]:
    return page.evaluate(
        """() => new Promise((done, failed) => {
             const opened = indexedDB.open("rummyclub-offline", 1);
             opened.onerror = () => failed(opened.error);
             opened.onsuccess = () => {
               const all = opened.result.transaction("deals").objectStore("deals").getAll();
               all.onsuccess = () => { opened.result.close(); done(all.result); };
             };
           })"""
    )


def test_what_the_worker_kept_is_said_in_the_pages_language(new_page: Any, standing: Any):
    """The worker sends a waiting deal with no page open and is answered 503: with no catalog of
    its own it keeps the queue's sentence in English with its values; the page, opened in
    German, says it in German."""
    game, _ids, entry, page = _left_to_the_worker(new_page, standing)
    context = page.context
    page.close()  # only the worker sends it

    def busy(route: Any) -> None:
        if route.request.method == "POST":
            route.fulfill(status=503, body="Service Unavailable")
        else:
            route.continue_()

    context.route(f"**{entry}", busy)
    context.set_offline(False)
    other = context.new_page()
    other.goto("/")
    kept = _until(lambda: [d for d in _kept_deals(other) if d.get("tries")])
    assert kept, "the worker tried the waiting deal"
    assert kept[0]["message"] == "The server answered 503; trying again."  # no catalog there
    assert kept[0]["words"] == {"text": "The server answered %s; trying again.", "values": [503]}
    assert not Deal.objects.filter(game=game).exists()

    # The scorer chooses German on this device (the switcher's cookie).
    origin = re.match(r"https?://[^/]+", other.url)
    assert origin
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "url": origin[0]}])
    context.unroute(f"**{entry}")
    # The page's own try never answers: what it shows is what the worker kept.
    context.route(
        f"**{entry}", lambda route: None if route.request.method == "POST" else route.continue_()
    )
    page = context.new_page()
    page.goto(entry)
    assert page.locator("html").get_attribute("lang") == "de"
    expect_text(
        page.locator("#waiting-deals"), re.escape("Der Server antwortete 503; neuer Versuch.")
    )
