"""``manage.py evaluate_hands``: one JSON request per line in, one JSON answer per line out."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from rules.errors import RuleViolation
from rules.evaluate import evaluate_request, reason
from rules.management.jsonlines import JsonLinesCommand


def _compact_encoder() -> Callable[[Any], str]:
    """``json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode``, with the C encoder
    built once instead of once per call (the same text, a good part of the per-line cost)."""
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder.encode
    try:
        one_shot = make(
            {}, encoder.default, json.encoder.encode_basestring, None, ":", ",", False, False, True
        )
    except TypeError:  # another signature: keep the documented path
        return encoder.encode
    join = "".join
    return lambda obj: join(one_shot(obj, 0))


def evaluate_stream(source: TextIO, sink: TextIO) -> int:
    """Answer every non-blank line of ``source`` on ``sink``, in order; returns the count."""
    count = 0
    dumps = _compact_encoder()
    write = sink.write
    for line in source:
        if not line.strip():
            continue
        try:
            obj: Any = json.loads(line)
        except json.JSONDecodeError as exc:
            refusal = RuleViolation(
                "bad_json", f"line is not valid JSON: {exc.msg} at column {exc.colno}"
            )
            answer: dict[str, Any] = {"id": None, "error": reason(refusal)}
        except ValueError as exc:  # e.g. an integer too long to convert
            refusal = RuleViolation("bad_json", f"line cannot be read: {exc}")
            answer = {"id": None, "error": reason(refusal)}
        else:
            answer = evaluate_request(obj)
        write(dumps(answer) + "\n")
        count += 1
    return count


class Command(JsonLinesCommand):
    help = (
        "Evaluate hands, melds, game scores and settlements: one JSON object per line in (stdin or "
        "--input FILE), one JSON answer per line out, in the same order, with the id echoed. A "
        "line that cannot be evaluated gets an error answer and the batch goes on."
    )

    stream = staticmethod(evaluate_stream)
