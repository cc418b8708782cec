"""A sheet of past results read: its layout (``LAYOUTS``, documented in docs/imports.md), the
template of each layout as CSV and XLSX, and the rows of an uploaded CSV or XLSX file as cells by
column, each with the row number the sheet shows it at. What cannot be read at all (not CSV or
XLSX, too big, a column missing) is refused naming ``file``; what is wrong with a row is for the
import's preview to say (``standings.result_import``)."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass

import openpyxl

from config.errors import InvalidInput

#: The largest file read, in bytes (10,000 deals of four players is about 1.6 MB of CSV).
MAX_BYTES = 8 * 1024 * 1024
#: The most rows one import takes.
MAX_ROWS = 100_000
MAX_UNPACKED_BYTES = 80 * 1024 * 1024


@dataclass(frozen=True)
class Layout:
    """A sheet layout: its columns (the required ones first) and two rows of example."""

    key: str
    title: str
    columns: tuple[str, ...]
    required: tuple[str, ...]
    example: tuple[tuple[str, ...], ...]


POINTS_DEALS = Layout(
    key="points_deals",
    title="Points rummy, deal by deal",
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
    title="Points rummy, each night's totals",
    columns=("date", "night", "player", "points"),
    required=("date", "player", "points"),
    example=(
        ("2026-01-09", "Friday night", "Arjun", "46"),
        ("2026-01-09", "Friday night", "Bhavna", "-34"),
        ("2026-01-09", "Friday night", "Charu", "-12"),
    ),
)
LAYOUTS = {layout.key: layout for layout in (POINTS_DEALS, POINTS_NIGHTS)}
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
            f"layout: use {' or '.join(LAYOUTS)}, not {key!r}", details={"layout": key}
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


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if hasattr(value, "date") and hasattr(value, "isoformat"):  # a date a spreadsheet made
        return str(value.date().isoformat() if callable(value.date) else value.isoformat())
    return str(value).strip()


def _xlsx_records(content: bytes) -> list[list[str]]:
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
        if unpacked > MAX_UNPACKED_BYTES:
            raise InvalidInput("file: this workbook unpacks to too much", code="file_too_big")
        workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        try:
            return [
                [_cell(value) for value in values]
                for values in workbook.worksheets[0].iter_rows(values_only=True)
            ]
        finally:
            workbook.close()
    except InvalidInput:
        raise
    except Exception as exc:
        raise InvalidInput(
            "file: not an XLSX workbook that can be read (save it again as .xlsx or CSV)",
            code="not_a_sheet",
        ) from exc


def _csv_records(content: bytes) -> list[list[str]]:
    if b"\x00" in content:
        raise InvalidInput("file: not a CSV or XLSX file", code="not_a_sheet")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = content.decode("cp1252", errors="replace")
    first = text.lstrip("\r\n").split("\n", 1)[0]
    delimiter = "\t" if "\t" in first else (";" if first.count(";") > first.count(",") else ",")
    try:
        return [[cell.strip() for cell in record]
                for record in csv.reader(io.StringIO(text), delimiter=delimiter)]  # fmt: skip
    except csv.Error as exc:
        raise InvalidInput(
            f"file: not a CSV file that can be read ({exc})", code="not_a_sheet"
        ) from None


def _header(text: str) -> str:
    return "_".join(_NOT_WORD.sub(" ", text.casefold()).split())


def result_sheet_read(*, content: bytes, filename: str, layout: Layout) -> ResultSheet:
    """The rows of an uploaded CSV or XLSX file in ``layout``: its first row names the columns
    (case and spacing aside, in any order); other columns are left out."""
    if len(content) > MAX_BYTES:
        raise InvalidInput(
            f"file: {len(content) // 1024} KB; at most {MAX_BYTES // 1024} KB are read",
            code="file_too_big",
        )
    if not content.strip():
        raise InvalidInput("file: the file is empty", code="empty_sheet")
    xlsx = content.startswith(b"PK\x03\x04") or filename.lower().endswith(".xlsx")
    records = _xlsx_records(content) if xlsx else _csv_records(content)
    first_line = 1
    while records and not any(cell.strip() for cell in records[0]):
        records, first_line = records[1:], first_line + 1
    if not records:
        raise InvalidInput("file: the sheet is empty", code="empty_sheet")
    headers = [_header(cell) for cell in records[0]]
    found = {column: headers.index(column) for column in layout.columns if column in headers}
    missing = [column for column in layout.required if column not in found]
    if missing:
        raise InvalidInput(
            f"file: the first row must name the columns {', '.join(layout.columns)} "
            f"({', '.join(missing)} missing)",
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
            f"file: at most {MAX_ROWS} rows at once ({len(rows)} in this one): split it",
            code="too_many_rows",
        )
    return ResultSheet(layout, rows)
