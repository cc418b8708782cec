"""The archive's file: JSON lines, a header first, then one object per line with its ``kind``,
then a last line that counts them (docs/archive.md). What is wrong with a file is an
``ArchiveRefused`` naming the line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

from django.core.serializers.json import DjangoJSONEncoder

from config.errors import InvalidInput

FORMAT = "rummyclub-club-archive"
#: The version this instance writes; it reads each of ``READS`` (a version 1 archive holds none
#: of the kinds version 2 added: series, result imports, webhook endpoints).
VERSION = 2
READS = (1, 2)
END = "end"


class ArchiveRefused(InvalidInput):
    """An archive that cannot be imported; nothing was stored."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        where = f"line {line}: " if line is not None else ""
        details = {"field": "file", **({"line": line} if line is not None else {})}
        super().__init__(f"{where}{message}", details=details)
        self.line = line


def line_dump(value: dict[str, Any]) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))


def header(*, instance: str, club_slug: str, exported_at: str) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "source": {"instance": instance, "club": club_slug, "exported_at": exported_at},
    }


def _parsed(text: str, number: int) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as error:
        raise ArchiveRefused(f"not a JSON object ({error.msg})", line=number) from None
    if not isinstance(value, dict):
        raise ArchiveRefused("not a JSON object", line=number)
    return value


def header_check(value: dict[str, Any]) -> None:
    if value.get("format") != FORMAT:
        raise ArchiveRefused(f"not a club archive (the first line names no {FORMAT!r})", line=1)
    version = value.get("version")
    if version not in READS or isinstance(version, bool):
        readable = " and ".join(str(v) for v in READS)
        raise ArchiveRefused(
            f"archive format version {version!r} is not supported: this instance reads "
            f"versions {readable}",
            line=1,
        )


def lines_read(stream: IO[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The header as line 1 (checked), then each row as (line number, object); the count of
    the last line is checked at the end, so a cut file is refused."""
    number = 0
    rows = 0
    ended = False
    for number, text in enumerate(stream, start=1):
        if number == 1:
            first = _parsed(text, 1)
            header_check(first)
            yield 1, first
            continue
        if not text.strip():
            raise ArchiveRefused("an empty line", line=number)
        if ended:
            raise ArchiveRefused("a line after the archive's end", line=number)
        value = _parsed(text, number)
        if value.get("kind") == END:
            if value.get("rows") != rows:
                raise ArchiveRefused(
                    f"the end counts {value.get('rows')!r} rows, the file holds {rows}",
                    line=number,
                )
            ended = True
            continue
        rows += 1
        yield number, value
    if number == 0:
        raise ArchiveRefused("the file is empty")
    if not ended:
        raise ArchiveRefused("the file is cut short: no end line", line=number)
