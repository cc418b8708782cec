"""Players sign up and check in from their phones, in a real browser: the director opens the
sign-up on the desk; twenty phones (contexts of one browser) sign up on the public page, the two
beyond the field's eighteen are waitlisted; eighteen check in through the check-in QR's page with
the code the projector shows; the desk ticks sixteen and marks them paid, and the prize pool
counts sixteen fees, on the desk, the public page and the API alike."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.accounts import account_held
from scoring.models import RulePreset
from tests.browser.conftest import DESKTOP, PHONE, WIDE, shoot
from tests.browser.test_night import expect_text
from tournaments.models import Entry
from tournaments.services.setup import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIELD, PHONES, PAID = 18, 20, 16
FEE, CLUB_FEE = 10_000, 1_000  # ₹100.00 an entry, ₹10.00 of it the club's: ₹90.00 a fee to the pool


@pytest.mark.slow
def test_twenty_phones_sign_up_eighteen_check_in_sixteen_pay(new_page: Any, standing: Any):
    standing.club.public_standings = True
    standing.club.save()
    cup = tournament_create(
        club=standing.club, actor=standing.organiser, name="Open night",
        preset=RulePreset.objects.get(club=None, key="points"), table_max=6,
        max_entries=FIELD, entry_fee_minor=FEE, club_fee_minor=CLUB_FEE, seed=3,
    )  # fmt: skip
    desk = new_page(DESKTOP, user=standing.organiser)
    desk_url = f"/clubs/home/tournaments/{cup.pk}/"
    desk.goto(desk_url)
    desk.locator("#signup-settings input[name=open]").check()
    desk.get_by_role("button", name="Save sign-up").click()
    expect_text(desk.locator(".messages"), "Players sign up on the public page")

    # Twenty phones sign up; each lands on its own page.
    public = f"/p/home/tournaments/{cup.pk}/"
    phones = []
    for n in range(PHONES):
        phone = new_page(PHONE)
        phone.goto(public)
        if n == 0:
            shoot(phone, "signup-form-phone")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.locator("#signup-name").fill(f"Guest {n + 1:02d}")
        phone.get_by_role("button", name="Sign up").click()
        expected = "Waitlisted" if n >= FIELD else "Registered"
        expect_text(phone.locator("[data-figure=status]"), expected)
        expect_text(phone.locator("[data-figure=fee]"), "Due")
        phones.append(phone)
    shoot(phones[-1], "signup-waitlisted-phone")
    assert cup.entries.filter(status=Entry.Status.WAITLISTED).count() == PHONES - FIELD

    # The projector shows the code; eighteen phones open the check-in QR's page and type it.
    projector = new_page(WIDE)
    projector.goto(f"{public}projector/")
    code = projector.locator("[data-figure=check-in-code]").inner_text().strip()
    assert len(code) == 4 and code.isdigit()
    shoot(projector, "signup-projector-code")
    for phone in phones[:FIELD]:
        phone.goto(f"{public}check-in/")  # the QR's address: the phone's own page opens
        phone.locator("#check-in-code").fill(code)
        phone.get_by_role("button", name="Check in").click()
        expect_text(phone.locator("[data-figure=status]"), "Checked in")
    shoot(phones[0], "signup-checked-in-phone")
    waiting = phones[-1]
    waiting.goto(f"{public}check-in/")
    assert waiting.locator("#check-in-code").count() == 0  # a waitlisted phone cannot check in

    # The desk ticks sixteen and marks them paid; the pool counts sixteen fees.
    desk.goto(desk_url)
    expect_text(desk.locator("[data-figure=checked-in]"), str(FIELD))
    checked = cup.entries.filter(status=Entry.Status.CHECKED_IN).order_by("pk")[:PAID]
    for entry in checked:
        desk.locator(f"#tick-{entry.pk}").check()
    desk.locator("#bulk-paid").click()
    expect_text(desk.locator(".messages"), f"{PAID} fees marked paid")
    expect_text(desk.locator("[data-figure=paid]"), str(PAID))
    expect_text(desk.locator("[data-figure=pool]"), r"₹1,440\.00")
    expect_text(desk.locator("[data-figure=pool-words]"), r"16 paid fees × ₹90\.00")
    shoot(desk, "signup-desk-desktop")
    narrow = new_page(PHONE, user=standing.organiser)
    narrow.goto(desk_url)
    shoot(narrow, "signup-desk-phone")
    assert narrow.evaluate("document.documentElement.scrollWidth") <= 390
    phones[0].goto(public)
    expect_text(phones[0].locator("[data-figure=pool-words]"), r"16 paid fees")
    api = standing.client("organiser").get(f"/api/v1/clubs/home/tournaments/{cup.pk}/").json()
    assert (api["entries_paid"], api["prize_pool_minor"]) == (PAID, PAID * (FEE - CLUB_FEE))
    assert account_held(account=cup.purse) == PAID * FEE
