"""The batch line contract (``rules.indian.evaluate``) through the dispatcher
(``rules.evaluate.evaluate_request``): fields, answers and errors."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.evaluate import evaluate_request
from rules.indian.evaluate import evaluate

VALID = [["2H", "3H", "4H", "5H"], ["5C", "6C", "7C", "8C"], ["5D", "5C", "JK", "QH", "QS"]]
CARDS = ["3H", "4H", "5H", "5C", "6C", "7C", "QH", "8D", "5C", "2H", "2C", "2D", "KS"]


def ask(**fields):
    return evaluate_request({"id": "t", "game": "indian", **fields})


def error(**fields):
    answer = ask(**fields)
    assert set(answer) == {"id", "error"}, answer
    return answer["error"]


def test_grouped_hand_answer():
    answer = ask(wild="QD", groups=VALID)
    assert answer == {
        "id": "t",
        "valid": True,
        "against": 0,
        "points": 0,  # the older name of against, kept for a release
        "groups": [
            {"cards": ["2H", "3H", "4H", "5H"], "kind": "pure_sequence"},
            {"cards": ["5C", "6C", "7C", "8C"], "kind": "pure_sequence"},
            {"cards": ["5D", "5C", "JK", "QH", "QS"], "kind": "set"},
        ],
    }
    assert all(type(group["kind"]) is str for group in answer["groups"])


def test_grouped_hand_keeps_the_order_given_in_canonical_notation():
    groups = [["qs", "5c", "JOKER", "5d", "QH"], ["8c", "7c", "6c", "5c"], ["4h", "2h", "5h", "3h"]]
    answer = ask(wild="q", groups=groups)
    assert [group["cards"] for group in answer["groups"]] == [
        ["QS", "5C", "JK", "5D", "QH"],
        ["8C", "7C", "6C", "5C"],
        ["4H", "2H", "5H", "3H"],
    ]
    assert answer["valid"] is True


def test_ungrouped_cards_answer_the_best_arrangement():
    answer = ask(wild="QS", cards=CARDS)
    assert (answer["valid"], answer["against"]) == (False, 22)
    assert answer["groups"][-1] == {"cards": ["KS", "2D", "8D", "2C"], "kind": "invalid"}
    assert sum(len(group["cards"]) for group in answer["groups"]) == 13


def test_against_follows_the_outcome_and_pool():
    assert ask(wild="QS", cards=CARDS, outcome="deal_show")["against"] == 11
    assert ask(wild="QS", cards=CARDS, outcome="first_drop", pool=201)["against"] == 25
    assert ask(wild="QS", cards=CARDS, outcome="middle_drop", pool=101)["against"] == 40
    assert ask(wild="QS", cards=CARDS, outcome=None, pool=None, decks=None)["against"] == 22


def test_expect_and_note_are_ignored():
    answer = ask(wild="QD", groups=VALID, expect={"valid": False}, note="from a case file")
    assert answer["valid"] is True


@pytest.mark.parametrize(
    ("fields", "code", "token"),
    [
        ({"groups": VALID}, "missing_field", "wild"),
        ({"wild": None, "groups": VALID}, "missing_field", "wild"),
        ({"wild": "Z", "groups": VALID}, "bad_wild", "Z"),
        ({"wild": 7, "groups": VALID}, "bad_wild", "7"),
        ({"wild": "Q", "groups": VALID, "decks": 0}, "bad_decks", "0"),
        ({"wild": "Q", "groups": VALID, "decks": -1}, "bad_decks", "-1"),
        ({"wild": "Q", "groups": VALID, "decks": True}, "bad_decks", "true"),
        ({"wild": "Q", "groups": VALID, "decks": "2"}, "bad_decks", "2"),
        ({"wild": "Q", "groups": VALID, "decks": 2.5}, "bad_decks", "2.5"),
        ({"wild": "Q", "groups": VALID, "pool": 61}, "bad_pool", "61"),
        ({"wild": "Q", "groups": VALID, "pool": "201"}, "bad_pool", "201"),
        ({"wild": "Q", "groups": VALID, "pool": True}, "bad_pool", "true"),
        ({"wild": "Q", "groups": VALID, "outcome": "won"}, "bad_outcome", "won"),
        ({"wild": "Q", "groups": VALID, "outcome": 1}, "bad_outcome", "1"),
        ({"wild": "Q"}, "missing_field", "groups"),
        ({"wild": "Q", "groups": VALID, "cards": CARDS}, "conflicting_fields", "cards"),
        ({"wild": "Q", "groups": {"a": 1}}, "bad_groups", "groups"),
        ({"wild": "Q", "groups": [["2H"], "3H"]}, "bad_groups", "groups"),
        ({"wild": "Q", "groups": [[]]}, "bad_groups", "groups"),
        ({"wild": "Q", "cards": "2H 3H"}, "bad_cards", "cards"),
        ({"wild": "Q", "cards": [["2H"]]}, "bad_card", "<list>"),
        ({"wild": "Q", "cards": CARDS, "colour": "red"}, "unknown_field", "colour"),
        ({"wild": "Q", "cards": CARDS[:12]}, "wrong_card_count", None),
        ({"wild": "Q", "groups": [*VALID, ["2S"]]}, "wrong_card_count", None),
    ],
)
def test_every_field_is_validated(fields, code, token):
    err = error(**fields)
    assert (err["code"], err["token"]) == (code, token)
    assert err["message"]


def test_evaluate_raises_only_rule_violations_and_the_dispatcher_answers():
    from rules.errors import RuleViolation

    with pytest.raises(RuleViolation):
        evaluate({"game": "indian", "wild": "Q", "cards": ["nope"]})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=6), children)
    ),
    max_leaves=20,
)
TOKEN = st.sampled_from(["2H", "3H", "4H", "QS", "JK", "10d", "T♣", "x", "", "AH", "KC"]) | JSON
FIELD_VALUES = {
    "wild": st.sampled_from(["Q", "QH", "JK", "10", "T", "X", ""]) | JSON,
    "decks": st.sampled_from([1, 2, 3, 0, -1, 2.0, True]) | JSON,
    "pool": st.sampled_from([101, 201, 61, "101"]) | JSON,
    "outcome": st.sampled_from(["hand", "winner", "deal_show", "first_drop", "nope"]) | JSON,
    "groups": st.lists(st.lists(TOKEN, max_size=6), max_size=5) | JSON,
    "cards": st.lists(TOKEN, min_size=10, max_size=14) | JSON,
}


@st.composite
def requests(draw):
    obj = {"id": draw(JSON), "game": "indian"}
    for name, values in FIELD_VALUES.items():
        if draw(st.booleans()):
            obj[name] = draw(values)
    if draw(st.booleans()):
        obj[draw(st.text(max_size=5))] = draw(JSON)
    return obj


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_garbage_never_raises_and_gets_an_answer_or_an_error(obj):
    """Random garbage never raises anything but the engine's own errors (made answers here)."""
    answer = evaluate_request(obj)
    assert answer["id"] is obj.get("id")  # echoed as given; a NaN id is equal to nothing
    if "error" in answer:
        assert isinstance(answer["error"]["code"], str) and answer["error"]["message"]
        token = answer["error"]["token"]
        assert token is None or isinstance(token, str)
    else:
        assert set(answer) == {"id", "valid", "against", "points", "groups"}
        assert 0 <= answer["against"] <= 80 and answer["points"] == answer["against"]


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_any_json_value_gets_an_answer(value):
    answer = evaluate_request(value)
    assert "error" in answer or "valid" in answer
