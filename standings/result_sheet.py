"""A sheet of past results read: its layout (``LAYOUTS``, documented in docs/imports.md), the
template of each layout as CSV and XLSX, and the rows of an uploaded CSV or XLSX file as cells by
column, each with the row number the sheet shows it at. What cannot be read at all (not CSV or
XLSX, too big, a column missing) is refused naming ``file``; what is wrong with a row is for the
import's preview to say (``standings.result_import``)."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

import openpyxl
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.sheet_file import sheet_records
from config.errors import InvalidInput

#: The largest file read, in bytes (10,000 deals of four players is about 1.6 MB of CSV).
MAX_BYTES = 8 * 1024 * 1024
#: The most rows one import takes.
MAX_ROWS = 100_000
MAX_UNPACKED_BYTES = 80 * 1024 * 1024


@dataclass(frozen=True)
class Layout:
    """A sheet layout: its columns (the required ones first), rows of example, the game
    formats whose presets it imports under and the built-in preset it takes by default."""

    key: str
    title: str
    columns: tuple[str, ...]
    required: tuple[str, ...]
    example: tuple[tuple[str, ...], ...]
    formats: tuple[str, ...] = ("points",)
    preset_key: str = "points"


POINTS_DEALS = Layout(
    key="points_deals",
    title=gettext_noop("Points rummy, deal by deal"),
    columns=("date", "night", "table", "deal", "player", "outcome", "points"),
    required=("date", "deal", "player", "outcome"),
    example=(
        ("2026-01-09", "Friday night", "Table 1", "1", "Arjun", "winner", ""),
        ("2026-01-09", "Friday night", "Table 1", "1", "Bhavna", "loser", "34"),
        ("2026-01-09", "Friday night", "Table 1", "1", "Charu", "first_drop", ""),
        ("2026-01-09", "Friday night", "Table 1", "2", "Arjun", "loser", "12"),
        ("2026-01-09", "Friday night", "Table 1", "2", "Bhavna", "middle_drop", ""),
        ("2026-01-09", "Friday night", "Table 1", "2", "Charu", "winner", ""),
    ),
)
POINTS_NIGHTS = Layout(
    key="points_nights",
    title=gettext_noop("Points rummy, each night's totals"),
    columns=("date", "night", "player", "points"),
    required=("date", "player", "points"),
    example=(
        ("2026-01-09", "Friday night", "Arjun", "46"),
        ("2026-01-09", "Friday night", "Bhavna", "-34"),
        ("2026-01-09", "Friday night", "Charu", "-12"),
    ),
)
_PLACES_EXAMPLE = (
    ("2026-01-09", "Friday night", "Table 1", "Arjun", "1", "300"),
    ("2026-01-09", "Friday night", "Table 1", "Bhavna", "2", "-100"),
    ("2026-01-09", "Friday night", "Table 1", "Charu", "3", "-100"),
    ("2026-01-09", "Friday night", "Table 1", "Dev", "3", "-100"),
)
POOL_GAMES = Layout(
    key="pool_games",
    title=gettext_noop("Pool rummy, each game's places and money"),
    columns=("date", "night", "table", "player", "place", "money"),
    required=("date", "player", "place"),
    example=_PLACES_EXAMPLE,
    formats=("pool",),
    preset_key="pool-101",
)
DEALS_GAMES = Layout(
    key="deals_games",
    title=gettext_noop("Deals rummy, each game's places and money"),
    columns=POOL_GAMES.columns,
    required=POOL_GAMES.required,
    example=_PLACES_EXAMPLE,
    formats=("deals",),
    preset_key="deals-2",
)
RUMMIKUB_GAMES = Layout(
    key="rummikub_games",
    title=gettext_noop("Rummikub, each game's scores"),
    columns=("date", "night", "table", "game", "player", "score"),
    required=("date", "game", "player", "score"),
    example=(
        ("2026-01-09", "Friday night", "Table 1", "1", "Arjun", "57"),
        ("2026-01-09", "Friday night", "Table 1", "1", "Bhavna", "-23"),
        ("2026-01-09", "Friday night", "Table 1", "1", "Charu", "-34"),
        ("2026-01-09", "Friday night", "Table 1", "2", "Arjun", "-8"),
        ("2026-01-09", "Friday night", "Table 1", "2", "Bhavna", "20"),
        ("2026-01-09", "Friday night", "Table 1", "2", "Charu", "-12"),
    ),
    formats=("rummikub",),
    preset_key="sabra",
)
LAYOUTS = {
    layout.key: layout
    for layout in (POINTS_DEALS, POINTS_NIGHTS, POOL_GAMES, DEALS_GAMES, RUMMIKUB_GAMES)
}
_NOT_WORD = re.compile(r"[^0-9a-z]+")


@dataclass
class ResultSheet:
    """The rows read: each with its number in the sheet and its cells by column."""

    layout: Layout
    rows: list[tuple[int, dict[str, str]]]


def layout_of(key: str) -> Layout:
    try:
        return LAYOUTS[key]
    except KeyError:
        raise InvalidInput(
            "layout: "
            + _("use %(layouts)s, not %(layout)s")
            % {"layouts": ", ".join(LAYOUTS), "layout": repr(key)},
            details={"layout": key},
        ) from None


def template_csv(layout: Layout) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(layout.columns)
    writer.writerows(layout.example)
    return out.getvalue().encode()


def template_xlsx(layout: Layout) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = layout.key
    sheet.append(list(layout.columns))
    for row in layout.example:
        sheet.append([int(cell) if cell.lstrip("-").isdigit() else cell for cell in row])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _header(text: str) -> str:
    return "_".join(_NOT_WORD.sub(" ", text.casefold()).split())


def result_sheet_read(*, content: bytes, filename: str, layout: Layout) -> ResultSheet:
    """The rows of an uploaded CSV or XLSX file in ``layout``: its first row names the columns
    (case and spacing aside, in any order); other columns are left out."""
    records = sheet_records(
        content=content, filename=filename, max_bytes=MAX_BYTES, max_rows=MAX_ROWS,
        max_unpacked_bytes=MAX_UNPACKED_BYTES,
    )  # fmt: skip
    first_line = 1
    while records and not any(cell.strip() for cell in records[0]):
        records, first_line = records[1:], first_line + 1
    if not records:
        raise InvalidInput("file: " + _("the sheet is empty"), code="empty_sheet")
    headers = [_header(cell) for cell in records[0]]
    found = {column: headers.index(column) for column in layout.columns if column in headers}
    missing = [column for column in layout.required if column not in found]
    if missing:
        raise InvalidInput(
            "file: "
            + _("the first row must name the columns %(columns)s (%(missing)s missing)")
            % {"columns": ", ".join(layout.columns), "missing": ", ".join(missing)},
            code="columns_missing",
            details={"file": missing},
        )
    rows = []
    for offset, record in enumerate(records[1:]):
        cells = {c: (record[i] if i < len(record) else "").strip() for c, i in found.items()}
        if any(cells.values()):
            rows.append((first_line + 1 + offset, cells))
    if len(rows) > MAX_ROWS:
        raise InvalidInput(
            "file: "
            + _("at most %(most)s rows at once (%(count)s in this one): split it")
            % {"most": MAX_ROWS, "count": len(rows)},
            code="too_many_rows",
        )
    return ResultSheet(layout, rows)
