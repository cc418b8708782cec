"""A roster sheet read: a CSV or XLSX file, or a pasted list, turned into rows of the columns a
player import knows (name, nickname, email, phone, membership number, UPI id), each row with
its number as the sheet shows it. The headers are matched loosely (case, spacing, punctuation
and a few other words for each); anything else in the sheet is left out and said so. What cannot
be read at all (not CSV or XLSX, too big, no name column) is refused naming ``file``; what is
wrong with a row is for the import's preview to say."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field

import openpyxl
import tablib

from config.errors import InvalidInput

#: The largest file (or paste) read, in bytes; a request body stops at 1 MiB in any case.
MAX_BYTES = 512 * 1024
#: The most rows one import takes (a club's whole roster, with room to spare).
MAX_ROWS = 2000
#: The most an XLSX file may hold once unpacked: its XML is read, and a small zip can hold a lot.
MAX_UNPACKED_BYTES = 40 * 1024 * 1024
#: The columns an import knows, in the order a preview shows them, with their headers' words.
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player", "player name", "full name", "fullname", "names"),
    "nickname": ("nickname", "nick", "nick name", "alias", "known as", "short name"),
    "email": ("email", "e mail", "email address", "e mail address", "mail"),
    "phone": (
        "phone", "phone number", "phone no", "mobile", "mobile number", "mobile no", "cell",
        "telephone", "tel", "whatsapp", "contact", "contact number",
    ),
    "membership_number": (
        "membership number", "membership no", "membership", "member number", "member no",
        "member id", "membership id", "number", "no", "id",
    ),
    "upi_id": ("upi id", "upi", "vpa", "upi address", "upi handle"),
}  # fmt: skip
COLUMN_LABELS = {
    "name": "name", "nickname": "nickname", "email": "email", "phone": "phone",
    "membership_number": "membership number", "upi_id": "UPI id",
}  # fmt: skip
_HEADER_WORDS = {word: column for column, words in COLUMNS.items() for word in words}
_NOT_WORD = re.compile(r"[^0-9a-z]+")
_PASTE_SPLIT = re.compile(r"[,;\n\r]+")


@dataclass
class Sheet:
    """What was read: the columns found (each with its header as written), the rows (the
    number the sheet shows each at, and its cells by column) and the headers left out."""

    columns: dict[str, str]
    rows: list[tuple[int, dict[str, str]]]
    ignored: list[str] = field(default_factory=list)


def header_column(header: object) -> str | None:
    """The column a header names, matched loosely: "E-Mail", " Phone No. " and "UPI_ID" all
    name theirs."""
    text = unicodedata.normalize("NFKD", str(header or "")).casefold()
    text = "".join(char for char in text if not unicodedata.combining(char))
    return _HEADER_WORDS.get(" ".join(_NOT_WORD.sub(" ", text).split()))


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # a phone or membership number that a spreadsheet made a number
    return str(value).strip()


def _table(records: list[list[str]], first_line: int = 1) -> Sheet:
    """A sheet from its records, the first of them the header row (the first not empty)."""
    while records and not any(cell.strip() for cell in records[0]):
        records, first_line = records[1:], first_line + 1
    if not records:
        raise InvalidInput("file: the sheet is empty", code="empty_sheet")
    headers = [cell.strip() for cell in records[0]]
    found: dict[str, int] = {}
    ignored = []
    for index, header in enumerate(headers):
        column = header_column(header)
        if column is None or column in found:
            if header:
                ignored.append(header)
            continue
        found[column] = index
    if "name" not in found:
        raise InvalidInput(
            "file: no name column: the first row must name the columns, one of them "
            f"“name” (found: {', '.join(h for h in headers if h) or 'nothing'})",
            code="no_name_column",
            details={"file": headers},
        )
    width = len(headers)
    # tablib holds the table: every record padded to the header's width (a short line of a CSV
    # file is a row with its last cells empty, not an error).
    data = tablib.Dataset(
        *[(list(record) + [""] * width)[:width] for record in records[1:]], headers=headers
    )
    rows = []
    for offset, record in enumerate(data):
        cells = {column: _cell(record[index]) for column, index in found.items()}
        if any(cells.values()):
            rows.append((first_line + 1 + offset, cells))
    if len(rows) > MAX_ROWS:
        raise InvalidInput(
            f"file: at most {MAX_ROWS} rows at once ({len(rows)} in this one): split it",
            code="too_many_rows",
        )
    return Sheet({c: headers[i] for c, i in sorted(found.items(), key=_order)}, rows, ignored)


def _order(item: tuple[str, int]) -> int:
    return list(COLUMNS).index(item[0])


def _text_records(text: str) -> list[list[str]]:
    first = text.lstrip("\r\n").split("\n", 1)[0]
    delimiter = "\t" if "\t" in first else (";" if first.count(";") > first.count(",") else ",")
    reader = csv.reader(io.StringIO(text.replace("\x00", "")), delimiter=delimiter)
    records = []
    try:
        for record in reader:
            records.append(record)
            if len(records) > MAX_ROWS + 50:  # blank lines aside, past the limit: said as such
                break
    except csv.Error as exc:  # a cell over the csv module's limit, a quote never closed
        raise InvalidInput(
            f"file: not a CSV file that can be read ({exc})", code="not_a_sheet"
        ) from None
    return records


def _decoded(content: bytes) -> str:
    if b"\x00" in content:
        raise InvalidInput("file: not a CSV or XLSX file", code="not_a_sheet")
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Spreadsheets on Windows save CSV in their own code page: every byte is a character.
        return content.decode("cp1252", errors="replace")


def _xlsx_records(content: bytes) -> list[list[str]]:
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
        if unpacked > MAX_UNPACKED_BYTES:
            raise InvalidInput(
                f"file: this workbook unpacks to {unpacked // (1024 * 1024)} MB; at most "
                f"{MAX_UNPACKED_BYTES // (1024 * 1024)} MB are read",
                code="file_too_big",
            )
        workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        records = []
        try:
            for values in workbook.worksheets[0].iter_rows(values_only=True):
                records.append([_cell(value) for value in values])
                if len(records) > MAX_ROWS + 50:
                    break
        finally:
            workbook.close()
        return records
    except InvalidInput:
        raise
    except Exception as exc:
        raise InvalidInput(
            "file: not an XLSX workbook that can be read (save it again as .xlsx or CSV)",
            code="not_a_sheet",
        ) from exc


def sheet_read(*, content: bytes, filename: str = "") -> Sheet:
    """The rows of an uploaded CSV (comma, semicolon or tab between cells; UTF-8 or the
    Windows code page) or XLSX file (its first sheet)."""
    if len(content) > MAX_BYTES:
        raise InvalidInput(
            f"file: {len(content) // 1024} KB; at most {MAX_BYTES // 1024} KB are read",
            code="file_too_big",
        )
    if not content.strip():
        raise InvalidInput("file: the file is empty", code="empty_sheet")
    name = filename.lower()
    if content.startswith(b"PK\x03\x04") or name.endswith((".xlsx", ".xlsm")):
        return _table(_xlsx_records(content))
    if content.startswith(b"\xd0\xcf\x11\xe0") or name.endswith(".xls"):
        raise InvalidInput(
            "file: an old Excel workbook (.xls): save it as .xlsx or CSV", code="not_a_sheet"
        )
    if name and not name.endswith((".csv", ".txt", ".tsv")):
        raise InvalidInput(f"file: {filename!r} is not a CSV or XLSX file", code="not_a_sheet")
    return _table(_text_records(_decoded(content)))


def sheet_from_paste(*, text: str) -> Sheet:
    """The rows of a paste: cells copied from a spreadsheet (with its header row) or a CSV
    text with a name column, else a list of names, one a line or with commas between them
    ("Arjun, Bhavna, Charu" is three players)."""
    if len(text.encode()) > MAX_BYTES:
        raise InvalidInput(f"text: at most {MAX_BYTES // 1024} KB at once", code="file_too_big")
    first = text.strip("\r\n").split("\n", 1)[0]
    cells = re.split(r"[\t,;]", first)
    if "\t" in first or (len(cells) > 1 and any(header_column(c) == "name" for c in cells)):
        return _table(_text_records(text.strip("\r\n")))
    names = [part.strip() for part in _PASTE_SPLIT.split(text) if part.strip()]
    if names and header_column(names[0]) == "name":
        names = names[1:]  # a column copied with its header
    # Numbered in the order given: a line of three names is three rows.
    rows = [(number, {"name": name}) for number, name in enumerate(names, start=1)]
    if not rows:
        raise InvalidInput("text: paste at least one name", code="empty_sheet")
    if len(rows) > MAX_ROWS:
        raise InvalidInput(f"text: at most {MAX_ROWS} names at once ({len(rows)} pasted)")
    return Sheet({"name": "name"}, rows)
