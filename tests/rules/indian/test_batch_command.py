"""The examples the engine must agree with, through the real batch command
(``manage.py evaluate_hands``, one JSON request per line in, one answer per line out)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared" / "cases" / "indian-examples.jsonl"
PROJECT = REPO / "tests" / "rules" / "cases"
EXAMPLES = SHARED if SHARED.exists() else PROJECT / "indian-examples.jsonl"
EXTRA = PROJECT / "indian-extra.jsonl"


def run_batch(*args: str, stdin: str | None = None) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "manage.py", "evaluate_hands", *args],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def cases(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def outcome(answer: dict) -> dict:
    if "error" in answer:
        return {"error": answer["error"]["code"]}
    return {"valid": answer["valid"], "points": answer["points"]}


@pytest.fixture(scope="module")
def answers_by_file() -> dict[Path, list[dict]]:
    return {path: run_batch("--input", str(path)) for path in (EXAMPLES, EXTRA)}


@pytest.mark.parametrize("path", [EXAMPLES, EXTRA], ids=["examples", "extra"])
def test_every_line_agrees_with_its_expectation(path, answers_by_file):
    requests = cases(path)
    answers = answers_by_file[path]
    assert [answer["id"] for answer in answers] == [request["id"] for request in requests]
    wrong = [
        (request["id"], outcome(answer), request["expect"])
        for request, answer in zip(requests, answers, strict=True)
        if outcome(answer) != request["expect"]
    ]
    assert wrong == []


# The shared examples as copied into the project; a change to either file must show here.
SHARED_EXAMPLES_SHA256 = "f25c769b712c5f9da00f4498b16c7acd39ecdd2b2231b14f36d6722b509ca8c0"


def test_project_copy_of_the_shared_examples_is_current():
    copies = [PROJECT / "indian-examples.jsonl", *([SHARED] if SHARED.exists() else [])]
    for path in copies:
        assert hashlib.sha256(path.read_bytes()).hexdigest() == SHARED_EXAMPLES_SHA256, path


def test_answers_have_the_documented_shape(answers_by_file):
    for answer in answers_by_file[EXAMPLES] + answers_by_file[EXTRA]:
        if "error" in answer:
            assert set(answer) == {"id", "error"}
            assert {"code", "message", "token"} <= set(answer["error"])
            continue
        assert set(answer) == {"id", "valid", "against", "points", "groups"}
        assert answer["points"] == answer["against"]  # the older name, kept for a release
        assert sum(len(group["cards"]) for group in answer["groups"]) == 13
        for group in answer["groups"]:
            assert group["kind"] in {"pure_sequence", "impure_sequence", "set", "invalid"}


def test_stdin_and_errors_name_the_token():
    stdin = "\n".join(
        [
            '{"id": 1, "game": "indian", "wild": "QC", "groups": [["2H","3H","4X"],["9S","10S",'
            '"JK"],["7S","7H","7D","7C","QH"],["KD","KS"]]}',
            "",
            '{"id": 2, "game": "indian", "wild": "QC", "groups": [["2H","2H","2H"],["9S","10S",'
            '"JK"],["7S","7H","7D","7C","QH"],["KD","KS"]]}',
            "not json",
        ]
    )
    first, second, third = run_batch(stdin=stdin)
    assert first["error"]["token"] == "4X"
    assert first["error"]["details"] == {"group": 0, "position": 2}
    assert second["error"] == {
        "player": None,
        "player_name": None,
        "seat": None,
        "code": "too_many_copies",
        "message": "2H appears 3 times; 2 deck(s) hold only 2",
        "token": "2H",
        "details": {"card": "2H", "decks": 2},
    }
    assert third["error"]["code"] == "bad_json"
