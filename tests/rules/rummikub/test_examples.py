"""The visible examples (tests/rules/cases/rummikub-examples.jsonl) through the real batch command.

Each line is a request plus ``"expect"``: every key of ``expect`` must be in the answer with that
value (objects compared key by key, lists item by item), so an expectation can leave out what it
does not pin (a message, an arrangement)."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "tests" / "rules" / "cases" / "rummikub-examples.jsonl"


def _lines():
    return [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line]


def _matches(expected, actual, path="expect"):
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} missing from {actual!r}"
            _matches(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{path}: {actual!r}"
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            _matches(want, got, f"{path}[{index}]")
    else:
        assert actual == expected and type(actual) is type(expected), (
            f"{path}: expected {expected!r}, got {actual!r}"
        )


@pytest.fixture(scope="module")
def answers():
    completed = subprocess.run(
        [sys.executable, "manage.py", "evaluate_hands", "--input", str(CASES)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return {answer["id"]: answer for answer in map(json.loads, completed.stdout.splitlines())}


def test_every_example_line_is_answered_once(answers):
    ids = [line["id"] for line in _lines()]
    assert len(ids) == len(set(ids)) == len(answers)


@pytest.mark.parametrize("case", _lines(), ids=lambda case: case["id"])
def test_example(case, answers):
    _matches(case["expect"], answers[case["id"]])


def test_examples_cover_every_closed_hand_type_with_0_1_and_2_jokers():
    """Every one of the 40 types, with 0, 1 and 2 jokers, as the classification or (types 15 and
    18, always outscored by Grand sets) as a fit of that type."""
    seen = Counter()
    for case in _lines():
        expect = case["expect"]
        number = expect.get("type") or (expect.get("hand_type") if expect.get("fits") else None)
        if number and "jokers" in expect:
            seen[(number, expect["jokers"])] += 1
    missing = [(t, j) for t in range(1, 41) for j in range(3) if not seen[(t, j)]]
    assert missing == []


def test_every_example_cites_the_rule_it_shows():
    for case in _lines():
        assert case["rule"].startswith(("rummikub.md", "docs/rules.md", "formats.md")), case["id"]
