"""``manage.py plan_seating``: one JSON seating request per line in, one JSON plan per line out."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError

from rules.seating import seating_request


def plan_stream(source: TextIO, sink: TextIO) -> int:
    """Answer every non-blank line of ``source`` on ``sink``, in order; returns the count."""
    count = 0
    for line in source:
        if not line.strip():
            continue
        try:
            obj: Any = json.loads(line)
        except ValueError as exc:
            answer: dict[str, Any] = {
                "id": None,
                "error": {"code": "bad_json", "message": f"line is not valid JSON: {exc}",
                          "token": None},
            }  # fmt: skip
        else:
            answer = seating_request(obj)
        sink.write(json.dumps(answer, separators=(",", ":")) + "\n")
        count += 1
    return count


class Command(BaseCommand):
    help = (
        "Plan the seating of rounds of tables: one JSON request per line in (stdin or --input "
        'FILE): {"id", "players": N | [ids], "table_max", "table_min"?, "rounds", "seed"?, '
        '"history"?, "clubs"?}; one JSON answer per line out, in order: {"id", "rounds", '
        '"byes", "repeat_pairs", "same_club_pairs"} or {"id", "error"}.'
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--input", help="read requests from this file instead of stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options.get("input")
        out = self.stdout._out if hasattr(self.stdout, "_out") else sys.stdout
        if path:
            try:
                with open(path, encoding="utf-8") as source:
                    plan_stream(source, out)
            except OSError as exc:
                raise CommandError(f"cannot read {path}: {exc.strerror}") from None
            except UnicodeDecodeError as exc:
                raise CommandError(f"cannot read {path}: not UTF-8 text ({exc.reason})") from None
        else:
            plan_stream(sys.stdin, out)
        out.flush()
