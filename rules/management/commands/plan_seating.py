"""``manage.py plan_seating``: one JSON seating request per line in, one JSON plan per line out."""

from __future__ import annotations

import json
from typing import Any, TextIO

from rules.management.jsonlines import JsonLinesCommand
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


class Command(JsonLinesCommand):
    help = (
        "Plan the seating of rounds of tables: one JSON request per line in (stdin or --input "
        'FILE): {"id", "players": N | [ids], "table_max", "table_min"?, "rounds", "seed"?, '
        '"history"?, "clubs"?}; one JSON answer per line out, in order: {"id", "rounds", '
        '"byes", "repeat_pairs", "same_club_pairs"} or {"id", "error"}.'
    )

    stream = staticmethod(plan_stream)
