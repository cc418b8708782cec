"""The Okey examples through the real batch command: our own cases, one or more per rule and per
Decision of docs/rules.md "Okey" (tests/rules/cases/okey-examples.jsonl), and okey-solver-py's
own test cases and documented rules, ported (tests/rules/cases/okey-solver-py.jsonl: each line
names the source repository, commit and test)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.rules.rummikub.test_examples import _matches

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "tests" / "rules" / "cases"
FILES = ("okey-examples.jsonl", "okey-solver-py.jsonl")


def _lines(name):
    text = (CASES / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


@pytest.fixture(scope="module")
def answers():
    found = {}
    for name in FILES:
        completed = subprocess.run(
            [sys.executable, "manage.py", "evaluate_hands", "--input", str(CASES / name)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        for answer in map(json.loads, completed.stdout.splitlines()):
            found[answer["id"]] = answer
    return found


def _all():
    return [case for name in FILES for case in _lines(name)]


def test_every_example_line_is_answered_once(answers):
    ids = [case["id"] for case in _all()]
    assert len(ids) == len(set(ids)) == len(answers)


@pytest.mark.parametrize("case", _all(), ids=lambda case: case["id"])
def test_example(case, answers):
    _matches(case["expect"], answers[case["id"]])


def test_every_example_cites_its_rule_or_source():
    for case in _lines("okey-examples.jsonl"):
        assert case["rule"].startswith("docs/rules.md Okey"), case["id"]
    for case in _lines("okey-solver-py.jsonl"):
        assert case["source"].startswith(
            "AtaCanYmc/okey-solver-py@b6461d79caff3c47a91279cca1e218d9df32eaa1 "
        ), case["id"]
