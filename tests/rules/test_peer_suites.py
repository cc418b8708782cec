"""Other projects' own test cases (tests/rules/cases/peers/, sources in its README) through the
real batch command, each under the house options its project plays: every line must answer as
the peer's test expects."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.indian.cards import parse_cards, parse_wild
from rules.indian.groups import GroupKind, classify_group
from rules.indian.preset import HouseRules
from tests.rules.rummikub.test_examples import _matches

ROOT = Path(__file__).resolve().parents[2]
PEERS = ROOT / "tests" / "rules" / "cases" / "peers"
#: Each suite and how many of its cases it holds (a suite that shrinks fails here).
SUITES = {
    "aravind00kumar.jsonl": 3,
    "mazimez.jsonl": 64,
    "rummikubconsole.jsonl": 3300,
    "samin005.jsonl": 55,
}


def _cases(name: str) -> list[dict]:
    with open(PEERS / name, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module", params=sorted(SUITES))
def suite(request):
    completed = subprocess.run(
        [sys.executable, "manage.py", "evaluate_hands", "--input", str(PEERS / request.param)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    answers = {answer["id"]: answer for answer in map(json.loads, completed.stdout.splitlines())}
    return request.param, _cases(request.param), answers


def test_every_peer_case_answers_as_its_project_expects(suite):
    name, cases, answers = suite
    assert len(cases) == SUITES[name] == len(answers)
    failed = []
    for case in cases:
        try:
            _matches(case["expect"], answers[case["id"]])
        except AssertionError as exc:
            failed.append(f"{case['id']} ({case.get('note')}): {exc}")
    assert not failed, f"{len(failed)}/{len(cases)} differ:\n" + "\n".join(failed)


def test_every_peer_file_is_a_suite():
    assert sorted(path.name for path in PEERS.glob("*.jsonl")) == sorted(SUITES)


def test_rummikubconsole_differs_from_its_solver_only_where_a_line_says_why():
    """A line expects other than the shipped solver answered only for its redundant-joker sets
    (tests/rules/cases/peers/README.md), and then the full model laid all 14."""
    documented = [case for case in _cases("rummikubconsole.jsonl") if "solver" in case]
    assert len(documented) == 117
    for case in documented:
        assert case["solver"]["reason"] == "redundant_joker"
        assert case["solver"]["fits"] is False and case["expect"] == {"fits": True}
        assert case["solver"]["left"], case["id"]


def test_mazimez_single_groups_the_batch_cannot_hold():
    """mazimez/card-games-utils' isInSet of JK JK JK (10D cut) answers false (at least one
    natural card needed): three printed jokers are more than a 13-card hand of two decks holds,
    so it is checked by the group classifier, under the options of its suite's lines."""
    house = HouseRules(**_cases("mazimez.jsonl")[0]["house_rules"])
    jokers = classify_group(parse_cards(["JK", "JK", "JK"]), parse_wild("10D", False, True), house)
    assert jokers is GroupKind.INVALID
