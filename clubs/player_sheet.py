"""A roster sheet read: a CSV or XLSX file, or a pasted list, turned into rows of the columns a
player import knows (name, nickname, email, phone, membership number, UPI id), each row with
its number as the sheet shows it. The headers are matched loosely (case, spacing, punctuation
and a few other words for each); anything else in the sheet is left out and said so. What cannot
be read at all (not CSV or XLSX, too big, no name column) is refused naming ``file``; what is
wrong with a row is for the import's preview to say."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import tablib
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.sheet_file import sheet_cell, sheet_records, text_records
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
    "name": gettext_noop("name"), "nickname": gettext_noop("nickname"),
    "email": gettext_noop("email"), "phone": gettext_noop("phone"),
    "membership_number": gettext_noop("membership number"), "upi_id": gettext_noop("UPI id"),
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


def _table(records: list[list[str]], first_line: int = 1) -> Sheet:
    """A sheet from its records, the first of them the header row (the first not empty)."""
    while records and not any(cell.strip() for cell in records[0]):
        records, first_line = records[1:], first_line + 1
    if not records:
        raise InvalidInput("file: " + _("the sheet is empty"), code="empty_sheet")
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
        shown = ", ".join(h for h in headers if h)
        why = (
            _(
                "no name column: the first row must name the columns, one of them “name” "
                "(found: %(found)s)"
            )
            % {"found": shown}
            if shown
            else _(
                "no name column: the first row must name the columns, one of them “name” "
                "(found: nothing)"
            )
        )
        raise InvalidInput(
            "file: " + why,
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
        cells = {column: sheet_cell(record[index]) for column, index in found.items()}
        if any(cells.values()):
            rows.append((first_line + 1 + offset, cells))
    if len(rows) > MAX_ROWS:
        raise InvalidInput(
            "file: "
            + _("at most %(most)s rows at once (%(count)s in this one): split it")
            % {"most": MAX_ROWS, "count": len(rows)},
            code="too_many_rows",
        )
    return Sheet({c: headers[i] for c, i in sorted(found.items(), key=_order)}, rows, ignored)


def _order(item: tuple[str, int]) -> int:
    return list(COLUMNS).index(item[0])


def sheet_read(*, content: bytes, filename: str = "") -> Sheet:
    """The rows of an uploaded CSV or XLSX file (``clubs.sheet_file``)."""
    return _table(sheet_records(
        content=content, filename=filename, max_bytes=MAX_BYTES, max_rows=MAX_ROWS,
        max_unpacked_bytes=MAX_UNPACKED_BYTES,
    ))  # fmt: skip


def sheet_from_paste(*, text: str) -> Sheet:
    """The rows of a paste: cells copied from a spreadsheet (with its header row) or a CSV
    text with a name column, else a list of names, one a line or with commas between them
    ("Arjun, Bhavna, Charu" is three players)."""
    if len(text.encode()) > MAX_BYTES:
        raise InvalidInput(
            "text: " + _("at most %(most)s KB at once") % {"most": MAX_BYTES // 1024},
            code="file_too_big",
        )
    first = text.strip("\r\n").split("\n", 1)[0]
    cells = re.split(r"[\t,;]", first)
    if "\t" in first or (len(cells) > 1 and any(header_column(c) == "name" for c in cells)):
        return _table(text_records(text.strip("\r\n"), max_rows=MAX_ROWS))
    names = [part.strip() for part in _PASTE_SPLIT.split(text) if part.strip()]
    if names and header_column(names[0]) == "name":
        names = names[1:]  # a column copied with its header
    # Numbered in the order given: a line of three names is three rows.
    rows = [(number, {"name": name}) for number, name in enumerate(names, start=1)]
    if not rows:
        raise InvalidInput("text: " + _("paste at least one name"), code="empty_sheet")
    if len(rows) > MAX_ROWS:
        raise InvalidInput(
            "text: "
            + _("at most %(most)s names at once (%(count)s pasted)")
            % {"most": MAX_ROWS, "count": len(rows)}
        )
    return Sheet({"name": "name"}, rows)
