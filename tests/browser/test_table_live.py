"""The table's page kept live, in a real browser with two phones at one table: an entry made on
one phone appears on the other, the other's dispute on the first, the director's confirmation
at the desk on both, and another player's confirmation on the phone that entered the deal, each
without a reload (the page's stream announces the game's changes; the part is refetched)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import table_links
from scoring.models import Submission, TableEntry
from scoring.submissions import submission_confirm
from tests.browser.conftest import PHONE
from tests.browser.test_night import expect_text
from tests.browser.test_table_entry import enter_at_table
from tests.scoring.conftest import make_night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _live(phone: Any, url: str | None = None) -> Any:
    """The phone on the table's page (opened at ``url``, or where it is), its stream open, marked
    so that a reload would show."""
    if url is not None:
        phone.goto(url)
    phone.wait_for_selector("#table-live[data-live-push=open]")
    phone.evaluate("window.notReloaded = true")
    return phone


def _not_reloaded(phone: Any) -> None:
    assert phone.evaluate("window.notReloaded === true")


def test_two_phones_see_entries_disputes_and_confirmations_without_reloading(new_page, standing):
    night = make_night(standing)
    (link,) = table_links.table_links_ensure(
        tables=[night.game.table], actor=standing.organiser, mode=TableEntry.CONFIRM
    )
    url = table_links.link_path(link)
    seats = {s.player_id: s.position for s in night.game.seats.all()}
    points = {night.pid(name): 10 + 5 * n for n, name in enumerate(["Asha", "Bilal", "Chitra"])}
    points |= {night.pid(name): 2 for name in ["Dev", "Esther"]}  # Farid wins

    first, second = new_page(PHONE), new_page(PHONE)
    _live(second, url)
    enter_at_table(first, url, night.game.pk, seats[night.pid("Asha")], points)
    _live(first)

    # The entry appears on the second phone, ready to confirm.
    expect_text(second.locator("#table-live #waiting"), "Entered by seat 1")
    _not_reloaded(second)

    # The second phone disputes it: the first shows the dispute.
    second.locator(".dispute summary").click()
    second.locator("#dispute-seat").select_option("2")
    second.locator("#dispute-reason").fill("Bilal had 25, not 15")
    second.locator("#dispute").click()
    expect_text(first.locator("#table-live #disputed"), "Bilal had 25, not 15")
    _not_reloaded(first)
    _live(second)

    # The director confirms it at the desk: both phones show deal 1 counted, deal 2 to enter.
    submission_confirm(submission=Submission.objects.get(), actor=standing.organiser)
    for phone in (first, second):
        expect_text(phone.locator("#table-live .table-deals"), "1: counted")
        expect_text(phone.locator("#table-live #enter"), "2")
        _not_reloaded(phone)

    # Deal 2 entered on the second phone, confirmed on the first: the second shows it counted.
    enter_at_table(second, url, night.game.pk, seats[night.pid("Bilal")], points)
    _live(second)
    expect_text(first.locator("#table-live #waiting"), "Entered by seat 2")
    _not_reloaded(first)
    first.locator("#confirm-seat").select_option("1")
    first.locator("#confirm").click()
    expect_text(second.locator("#table-live .table-deals"), "2: counted")
    expect_text(second.locator("#table-live #enter"), "3")
    _not_reloaded(second)
