"""A spreadsheet file's records, as rows of text: a CSV file (comma, semicolon or tab between
cells; UTF-8 or the Windows code page) or an XLSX workbook (its first sheet). One reader for
every sheet the club brings in (a roster, past results), each with its own limits. What cannot
be read at all (not CSV or XLSX, too big, unpacking to too much) is refused naming ``file``."""

from __future__ import annotations

import csv
import io
import zipfile

import openpyxl
from django.utils.translation import gettext as _

from config.errors import InvalidInput

#: Records read past a sheet's row limit, so that blank lines aside it is said to be too long.
_PAST_THE_LIMIT = 50


def sheet_cell(value: object) -> str:
    """A cell as text: a whole number a spreadsheet made a float (a phone, a membership
    number) without its ".0", a date as its ISO date."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if hasattr(value, "date") and hasattr(value, "isoformat"):  # a date a spreadsheet made
        return str(value.date().isoformat() if callable(value.date) else value.isoformat())
    return str(value).strip()


def text_records(text: str, *, max_rows: int) -> list[list[str]]:
    """The records of CSV text, its delimiter the one its first line uses."""
    first = text.lstrip("\r\n").split("\n", 1)[0]
    delimiter = "\t" if "\t" in first else (";" if first.count(";") > first.count(",") else ",")
    reader = csv.reader(io.StringIO(text.replace("\x00", "")), delimiter=delimiter)
    records = []
    try:
        for record in reader:
            records.append(record)
            if len(records) > max_rows + _PAST_THE_LIMIT:
                break
    except csv.Error as exc:  # a cell over the csv module's limit, a quote never closed
        raise InvalidInput(
            "file: " + _("not a CSV file that can be read (%(why)s)") % {"why": exc},
            code="not_a_sheet",
        ) from None
    return records


def _decoded(content: bytes) -> str:
    if b"\x00" in content:
        raise InvalidInput("file: " + _("not a CSV or XLSX file"), code="not_a_sheet")
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Spreadsheets on Windows save CSV in their own code page: every byte is a character.
        return content.decode("cp1252", errors="replace")


def _xlsx_records(content: bytes, *, max_rows: int, max_unpacked_bytes: int) -> list[list[str]]:
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
        if unpacked > max_unpacked_bytes:
            raise InvalidInput(
                "file: "
                + _("this workbook unpacks to %(size)s MB; at most %(most)s MB are read")
                % {"size": unpacked // (1024 * 1024), "most": max_unpacked_bytes // (1024 * 1024)},
                code="file_too_big",
            )
        workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        records = []
        try:
            for values in workbook.worksheets[0].iter_rows(values_only=True):
                records.append([sheet_cell(value) for value in values])
                if len(records) > max_rows + _PAST_THE_LIMIT:
                    break
        finally:
            workbook.close()
        return records
    except InvalidInput:
        raise
    except Exception as exc:
        raise InvalidInput(
            "file: " + _("not an XLSX workbook that can be read (save it again as .xlsx or CSV)"),
            code="not_a_sheet",
        ) from exc


def sheet_records(
    *, content: bytes, filename: str, max_bytes: int, max_rows: int, max_unpacked_bytes: int
) -> list[list[str]]:
    """The records of an uploaded file, told apart by its first bytes and its name."""
    if len(content) > max_bytes:
        raise InvalidInput(
            "file: "
            + _("%(size)s KB; at most %(most)s KB are read")
            % {"size": len(content) // 1024, "most": max_bytes // 1024},
            code="file_too_big",
        )
    if not content.strip():
        raise InvalidInput("file: " + _("the file is empty"), code="empty_sheet")
    name = filename.lower()
    if content.startswith(b"PK\x03\x04") or name.endswith((".xlsx", ".xlsm")):
        return _xlsx_records(content, max_rows=max_rows, max_unpacked_bytes=max_unpacked_bytes)
    if content.startswith(b"\xd0\xcf\x11\xe0") or name.endswith(".xls"):
        raise InvalidInput(
            "file: " + _("an old Excel workbook (.xls): save it as .xlsx or CSV"),
            code="not_a_sheet",
        )
    if name and not name.endswith((".csv", ".txt", ".tsv")):
        raise InvalidInput(
            "file: " + _("%(name)s is not a CSV or XLSX file") % {"name": repr(filename)},
            code="not_a_sheet",
        )
    return text_records(_decoded(content), max_rows=max_rows)
