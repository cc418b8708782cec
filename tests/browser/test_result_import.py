"""A season of 20 nights imported through the "Import past results" page in a real browser, from
the documented layout (deal by deal): the template downloaded, the sheet previewed (nothing
stored), one name not on the roster chosen from the roster, the import confirmed and followed on
its progress bar, then the standings page equal to the standings computed by hand
(``tests/standings/result_season.py``), on a phone and a desktop; and a season of each other
format's layout (``tests/standings/result_formats.py``) imported the same way."""

from __future__ import annotations

import re
import shutil
from typing import Any

import pytest

from scoring.models import Session
from standings.models import ResultImport
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text
from tests.factories import PlayerFactory
from tests.standings.result_formats import PLAYERS as FORMAT_PLAYERS
from tests.standings.result_formats import SEASONS
from tests.standings.result_season import EXPECTED, NIGHTS, PLAYERS, season_rows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _sheet_with_a_typo() -> bytes:
    """The season's sheet with Charu written "Charuu" on every row of the first night."""
    rows = season_rows()
    for row in rows[1:21]:
        if row[4] == "Charu":
            row[4] = "Charuu"
    return "\n".join(",".join(row) for row in rows).encode()


def _standings(page: Any) -> dict[str, tuple[int, int]]:
    """Each player's points and deals won as the standings page shows them."""
    headers = page.locator("table.standings thead th").all_inner_texts()
    points, won = headers.index("Points"), headers.index("Deals won")
    found = {}
    for row in page.locator("table.standings tbody tr").all():
        cells = row.locator("td, th").all_inner_texts()
        number = [int(c.replace("+", "").replace("−", "-").replace(",", "") or 0)
                  if i in (points, won) else 0 for i, c in enumerate(cells)]  # fmt: skip
        found[cells[1].strip()] = (number[points], number[won])
    return found


def test_a_season_imported_through_the_page_equals_the_standings_by_hand(
    new_page: Any, standing: Any, tmp_path: Any
) -> None:
    for name in PLAYERS:
        PlayerFactory(club=standing.club, name=name)
    path = tmp_path / "season.csv"
    path.write_bytes(_sheet_with_a_typo())

    page = new_page(PHONE, user=standing.organiser)
    page.goto("/clubs/home/results/import/")
    with page.expect_download() as download:
        page.locator("#import-templates a", has_text="CSV").first.click()
    assert download.value.suggested_filename == "points_deals.csv"
    page.locator("#import-file").set_input_files(str(path))
    page.get_by_role("button", name="Preview").click()
    expect_text(page.locator("#import-summary"), f"{NIGHTS} nights .* 100 deals")
    expect_text(page.locator("#import-errors"), "'Charuu' is not on the roster")
    assert not Session.objects.exists()  # nothing stored before the confirm
    shutil.copy(shoot(page, "result-import-preview-phone"), "/tmp/result-import-preview-phone.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("select[name='name-Charuu']").select_option(label="Charu")
    page.locator("#import-confirm-button").click()

    expect_text(page.locator("#import-state"), "Imported", timeout=60_000)
    assert page.locator("#import-bar").get_attribute("value") == "100"
    shutil.copy(shoot(page, "result-import-done-phone"), "/tmp/result-import-done-phone.png")
    assert ResultImport.objects.get().status == "done"

    expected = {name: (points, won) for name, (points, won, _) in EXPECTED.items()}
    page.locator("#import-done a").click()
    assert _standings(page) == expected
    desktop = new_page(DESKTOP, user=standing.organiser)
    desktop.goto("/clubs/home/standings/")
    assert _standings(desktop) == expected
    shutil.copy(shoot(desktop, "result-import-standings-desktop"), "/tmp/ri-standings-desk.png")
    shutil.copy(shoot(page, "result-import-standings-phone"), "/tmp/ri-standings-phone.png")


def _column(page: Any, label: str) -> dict[str, int]:
    """Each player's figure in the standings page's column ``label`` (money in minor units)."""
    headers = page.locator("table.standings thead th").all_inner_texts()
    index = headers.index(label)
    found = {}
    for row in page.locator("table.standings tbody tr").all():
        cells = row.locator("td, th").all_inner_texts()
        text = re.sub(r"[^0-9.\-]", "", cells[index].replace("−", "-").replace(",", ""))
        found[cells[1].strip()] = int(text.replace(".", "")) if "." in text else int(text)
    return found


def test_pool_deals_and_rummikub_seasons_imported_through_the_page(
    new_page: Any, standing: Any, tmp_path: Any
) -> None:
    for name in FORMAT_PLAYERS:
        PlayerFactory(club=standing.club, name=name)
    standing.club.standings_metrics = ["money", "points"]
    standing.club.save(update_fields=["standings_metrics"])
    page = new_page(DESKTOP, user=standing.organiser)
    for layout, (sheet, *_) in SEASONS.items():
        page.goto("/clubs/home/results/import/")
        with page.expect_download() as download:
            page.locator(f"#import-templates a[href$='/{layout}.csv']").click()
        assert download.value.suggested_filename == f"{layout}.csv"
        path = tmp_path / f"{layout}.csv"
        path.write_text(sheet)
        page.locator("#import-layout").select_option(layout)
        page.locator("#import-file").set_input_files(str(path))
        page.get_by_role("button", name="Preview").click()
        expect_text(page.locator("#import-summary"), "nights? .* tables?")
        assert page.locator("#import-errors").count() == 0
        page.locator("#import-confirm-button").click()
        expect_text(page.locator("#import-state"), "Imported", timeout=60_000)
    assert set(ResultImport.objects.values_list("status", flat=True)) == {"done"}
    season = Session.objects.values_list("season_id", flat=True).distinct().get()
    for _, game_format, field, expected in SEASONS.values():
        page.goto(f"/clubs/home/standings/?scope=season&id={season}&game_format={game_format}")
        label = "Money" if field == "money_minor" else "Points"
        assert _column(page, label) == expected, game_format
