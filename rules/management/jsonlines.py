"""What the batch commands share: JSON lines in (stdin or ``--input FILE``), one answer per line
out, in order; a file that cannot be read stops the command with its name and why."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError

Stream = Callable[[TextIO, TextIO], int]


class JsonLinesCommand(BaseCommand):
    """A command that answers a stream of JSON lines with ``stream(source, sink)``."""

    stream: Stream

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--input", help="read requests from this file instead of stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options.get("input")
        out = self.stdout._out if hasattr(self.stdout, "_out") else sys.stdout
        answer = type(self).stream
        if path:
            try:
                with open(path, encoding="utf-8") as source:
                    answer(source, out)
            except OSError as exc:
                raise CommandError(f"cannot read {path}: {exc.strerror}") from None
            except UnicodeDecodeError as exc:
                raise CommandError(f"cannot read {path}: not UTF-8 text ({exc.reason})") from None
        else:
            answer(sys.stdin, out)
        out.flush()
