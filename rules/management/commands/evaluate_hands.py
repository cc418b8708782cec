"""``manage.py evaluate_hands``: one JSON request per line in, one JSON answer per line out."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError

from rules.evaluate import evaluate_request


def evaluate_stream(source: TextIO, sink: TextIO) -> int:
    """Answer every non-blank line of ``source`` on ``sink``, in order; returns the count."""
    count = 0
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    write = sink.write
    for line in source:
        if not line.strip():
            continue
        try:
            obj: Any = json.loads(line)
        except json.JSONDecodeError as exc:
            answer: dict[str, Any] = {
                "id": None,
                "error": {
                    "code": "bad_json",
                    "message": f"line is not valid JSON: {exc.msg} at column {exc.colno}",
                    "token": None,
                },
            }
        else:
            answer = evaluate_request(obj)
        write(dumps(answer))
        write("\n")
        count += 1
    return count


class Command(BaseCommand):
    help = (
        "Evaluate hands, melds, game scores and settlements: one JSON object per line in (stdin or "
        "--input FILE), one JSON answer per line out, in the same order, with the id echoed. A "
        "line that cannot be evaluated gets an error answer and the batch goes on."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--input", help="read requests from this file instead of stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options.get("input")
        out = self.stdout._out if hasattr(self.stdout, "_out") else sys.stdout
        if path:
            try:
                with open(path, encoding="utf-8") as source:
                    evaluate_stream(source, out)
            except OSError as exc:
                raise CommandError(f"cannot read {path}: {exc.strerror}") from None
            except UnicodeDecodeError as exc:
                raise CommandError(f"cannot read {path}: not UTF-8 text ({exc.reason})") from None
        else:
            evaluate_stream(sys.stdin, out)
        out.flush()
