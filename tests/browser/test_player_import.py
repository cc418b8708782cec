"""A 120-row roster sheet imported through the "Import players" page in a real browser: five rows
found on the roster, three with errors, the preview on a phone and a desktop, one choice changed,
then confirmed."""

from __future__ import annotations

import io
import shutil
from typing import Any

import openpyxl
import pytest

from clubs.models import Player
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_ROWS = 112


def _sheet() -> bytes:
    """The header, 5 rows found on the roster (rows 2-6), 3 bad ones (rows 7, 8 and 10, the
    same player as row 9) and 112 new players."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.append(["Player Name", "Nick name", "E-mail", "Mobile No.", "Membership No.", "UPI"])
    sheet.append(["asha", "Ashu", "", "", "", ""])  # same name but for case
    sheet.append(["Bilal", "", "bilal@example.com", "", "", ""])  # the same name
    sheet.append(["Zoe DSouza", "", "", "98450 22222", "", ""])  # accents and spacing
    sheet.append(["R. Kumar", "", "", "+91 98450 00001", "M-500", ""])  # the same phone
    sheet.append(["Chitraa", "", "chitra@example.com", "", "", ""])  # one letter from Chitra
    sheet.append(["Omar", "", "omar-at-example", "", "", ""])  # a bad email
    sheet.append(["", "", "nobody@example.com", "", "", ""])  # no name
    sheet.append(["Member 001", "", "", "", "", ""])  # a row below is the same player
    for n in range(1, NEW_ROWS + 1):
        sheet.append([f"Member {n:03}", "", f"member{n}@example.com", f"98000{n:05}", f"M-{n}",
                      f"member{n}@okaxis"])  # fmt: skip
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_a_120_row_sheet_is_previewed_and_imported(new_page: Any, standing: Any, tmp_path):
    club = standing.club
    Player.objects.create(club=club, name="Zoë Dsouza")
    ravi = Player.objects.create(club=club, name="Ravi Kumar", phone="+919845000001")
    path = tmp_path / "roster.xlsx"
    path.write_bytes(_sheet())

    page = new_page(PHONE, user=standing.organiser)
    page.goto("/clubs/home/players/")
    page.locator("#import-players").click()
    page.locator("#import-file").set_input_files(str(path))
    page.get_by_role("button", name="Preview").click()
    expect_text(page.locator("#preview-h"), "120 rows")
    counts = page.locator("#import-counts")
    expect_text(counts, f"{NEW_ROWS + 1} new · 4 merged into the roster · 3 skipped")
    expect_text(counts, "3 with errors")
    assert Player.objects.filter(club=club).count() == 5  # nothing stored yet
    row = page.locator("tr[data-row='10']")
    expect_text(row, "duplicate in the file: the same name as row 9")
    expect_text(page.locator("tr[data-row='7']"), "email: not valid")
    expect_text(page.locator("tr[data-row='6']"), "Chitra: similar name")
    expect_text(page.locator("tr[data-row='5']"), "Ravi Kumar: same phone")
    assert page.locator("#choice-8 option").count() == 1  # a row in error is only skipped
    shutil.copy(shoot(page, "player-import-phone"), "/tmp/player-import-phone.png")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the page does not scroll sideways on a phone"

    chitra = Player.objects.get(club=club, name="Chitra")
    page.locator("#choice-6").select_option(f"merge:{chitra.pk}")
    page.locator("#import-confirm-button").click()
    expect_text(page.locator(".messages"), f"Imported: {NEW_ROWS} new, 5 updated")
    assert Player.objects.filter(club=club).count() == 5 + NEW_ROWS
    chitra.refresh_from_db()
    ravi.refresh_from_db()
    assert chitra.email == "chitra@example.com"
    assert (ravi.membership_number, ravi.name) == ("M-500", "Ravi Kumar")
    assert Player.objects.get(club=club, name="Asha").nickname == "Ashu"
    member = Player.objects.get(club=club, name="Member 042")
    assert (member.phone, member.upi_id) == ("9800000042", "member42@okaxis")
    assert not Player.objects.filter(name__in=["Omar", "Chitraa", "asha"]).exists()

    desk = new_page(DESKTOP, user=standing.organiser)
    desk.goto("/clubs/home/players/import/")
    desk.locator("#import-file").set_input_files(str(path))
    desk.get_by_role("button", name="Preview").click()
    # The same sheet again: every good row is a player on the roster now, nothing is new.
    expect_text(desk.locator("#import-counts"), "0 new · 117 merged into the roster · 3 skipped")
    shutil.copy(shoot(desk, "player-import-desktop"), "/tmp/player-import-desktop.png")
    desk.locator("#import-confirm-button").click()
    expect_text(desk.locator(".messages"), "Imported: 0 new, 0 updated, 117 already")
    assert Player.objects.filter(club=club).count() == 5 + NEW_ROWS


def test_contact_details_are_kept_on_the_player_page(new_page: Any, standing: Any):
    asha = Player.objects.get(club=standing.club, name="Asha")
    page = new_page(PHONE, user=standing.organiser)
    page.goto(f"/clubs/home/players/{asha.pk}/")
    page.locator("#details summary").click()
    page.get_by_label("Nickname").fill("Ashu")
    page.get_by_label("Phone").fill("+91 98450-12345")
    page.get_by_label("Membership number").fill("M-1")
    page.get_by_role("button", name="Save details").click()
    expect_text(page.locator(".messages"), "Asha's details are saved")
    expect_text(page.locator("#player-details"), "919845012345")
    shutil.copy(shoot(page, "player-details-phone"), "/tmp/player-details-phone.png")
    page.goto("/clubs/home/players/?q=ashu")
    expect_text(page.locator("#player-list"), "Asha “Ashu”")
