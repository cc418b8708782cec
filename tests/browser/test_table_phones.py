"""Phones at a table, in a real browser: a phone left on the table's entry form while other
phones and the desk enter and confirm deals, and while its live stream reconnects, keeps its
form, its focus and a live part that reads only what the table link may read."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import table_links
from scoring.models import Submission, TableEntry
from scoring.submissions import submission_confirm
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text
from tests.browser.test_table_entry import confirm_at_table, enter_at_table
from tests.scoring.conftest import make_night
from tests.scoring.helpers import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Kept on the page: set when anything of a login page ever appears in it.
WATCH_FOR_LOGIN = """() => {
  window.sawLogin = false;
  const look = () => {
    if (document.querySelector('input[name=username], input[type=password], form[action*="login"]'))
      window.sawLogin = true;
  };
  new MutationObserver(look).observe(document.body, { childList: true, subtree: true });
  look();
}"""


def _no_login_and_focus_kept(phone: Any, focused: str) -> None:
    assert phone.evaluate("window.sawLogin") is False
    assert phone.evaluate("document.activeElement && document.activeElement.id") == focused
    assert "Log in" not in phone.locator("#entry-live").inner_text()


def test_a_phone_left_on_the_entry_form_never_shows_a_login_page(new_page, standing, settings):
    # Streams end every 2 s: the phone's stream reconnects several times during the test.
    settings.LIVE_STREAM_SECONDS, settings.LIVE_KEEPALIVE_SECONDS = 2, 1
    night = make_night(standing)
    (link,) = table_links.table_links_ensure(
        tables=[night.game.table], actor=standing.organiser, mode=TableEntry.CONFIRM
    )
    url = table_links.link_path(link)
    seats = {s.player_id: s.position for s in night.game.seats.all()}
    points = {night.pid(name): 10 + 5 * n for n, name in enumerate(["Asha", "Bilal", "Chitra"])}
    points |= {night.pid(name): 2 for name in ["Dev", "Esther"]}  # Farid wins

    left = new_page(PHONE)
    left.goto(url + "enter/")
    left.wait_for_selector("#entry-live[data-live-push=open]")
    left.evaluate(WATCH_FOR_LOGIN)
    left.evaluate("window.notReloaded = true")
    left.locator("#id_seat").select_option(str(seats[night.pid("Dev")]))
    typed = f"#id_p{night.pid('Asha')}-points"
    left.locator(typed).fill("33")
    left.locator(typed).focus()
    focused = typed[1:]

    # Two other phones enter deal 1 and confirm it: the left phone's live part follows.
    first, second = new_page(PHONE), new_page(PHONE)
    enter_at_table(first, url, night.game.pk, seats[night.pid("Asha")], points)
    expect_text(left.locator("#entry-live"), "1")
    _no_login_and_focus_kept(left, focused)
    confirm_at_table(second, url, seats[night.pid("Bilal")])
    expect_text(left.locator("#entry-live"), "counted")
    _no_login_and_focus_kept(left, focused)

    # Deal 2 entered at the table, confirmed by the director at the desk.
    enter_at_table(first, url, night.game.pk, seats[night.pid("Asha")], points)
    submission_confirm(submission=Submission.objects.get(deal__number=2), actor=standing.organiser)
    expect_text(left.locator("#entry-live"), "2 . counted")
    # The stream reconnects (it ends every 2 s), announcing what the phone may have missed.
    left.wait_for_timeout(4500)
    _no_login_and_focus_kept(left, focused)
    assert left.locator(typed).input_value() == "33"
    assert left.evaluate("window.notReloaded === true")
    shoot(left, "table-phone-left-on-form")

    # The director replaces the table's link, then enters deal 3 at the desk: the part keeps
    # what it showed and says the link no longer works.
    table_links.table_link_revoke(link=link, actor=standing.organiser)
    enter_deal(night.game, standing.organiser, {"results": night.results(
        Asha={"outcome": "winner"}, Bilal={"outcome": "loser", "points": 20},
        Chitra={"outcome": "loser", "points": 20}, Dev={"outcome": "loser", "points": 20},
        Esther={"outcome": "loser", "points": 20}, Farid={"outcome": "loser", "points": 20},
    )}, source="web")  # fmt: skip
    expect_text(left.locator("p[data-live-gone]"), "link no longer works")
    expect_text(left.locator("#entry-live"), "2")
    _no_login_and_focus_kept(left, focused)
    shoot(left, "table-phone-link-gone")


def test_two_phones_one_enters_the_other_confirms_and_the_desk_sees_which(new_page, standing):
    night = make_night(standing)
    (link,) = table_links.table_links_ensure(
        tables=[night.game.table], actor=standing.organiser, mode=TableEntry.CONFIRM
    )
    url = table_links.link_path(link)
    seats = {s.player_id: s.position for s in night.game.seats.all()}
    points = {night.pid(name): 10 + 5 * n for n, name in enumerate(["Asha", "Bilal", "Chitra"])}
    points |= {night.pid(name): 2 for name in ["Dev", "Esther"]}  # Farid wins

    first, second = new_page(PHONE), new_page(PHONE)
    second.goto(url)
    enter_at_table(first, url, night.game.pk, seats[night.pid("Asha")], points)
    # The phone that entered it cannot confirm it, even as another seat: it says so.
    first.reload()
    expect_text(first.locator("#waiting"), "Entered by seat 1 \\(Asha\\) on this phone")
    expect_text(first.locator("#confirm-elsewhere"), "confirms it on their own phone")
    assert first.locator("#confirm").count() == 0
    shoot(first, "table-phone-entered-here")
    # The other phone sees which phone entered it and confirms it.
    expect_text(second.locator("#waiting"), "Entered by seat 1 \\(Asha\\) on phone A")
    confirm_at_table(second, url, seats[night.pid("Bilal")], shot="table-phone-confirm-other")
    submission = Submission.objects.get()
    assert submission.status == Submission.Status.ACCEPTED
    assert submission.entered_device and submission.confirmed_device
    assert submission.entered_device != submission.confirmed_device

    # The desk's deal page: which phone entered it and which confirmed it.
    desk = new_page(DESKTOP, user=standing.organiser)
    desk.goto(f"/clubs/home/deals/{submission.deal_id}/")
    expect_text(desk.locator("#history .phones"), "entered on phone A, confirmed on phone B")
    shoot(desk, "table-phones-desk-deal")
