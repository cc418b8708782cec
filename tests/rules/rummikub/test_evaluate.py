"""The batch line contract for Rummikub requests, through ``rules.evaluate.evaluate_request``."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.evaluate import evaluate_request


def ask(**fields):
    return evaluate_request({"id": "t", "game": "rummikub", **fields})


def test_melds_request():
    answer = ask(variant="sabra", melds=[["R4", "R5", "R6"], ["O4", "O4", "R4"]], initial_meld=True)
    assert answer == {
        "id": "t",
        "valid": False,
        "value": 15,
        "meets_initial_meld": False,
        "melds": [
            {"tiles": ["R4", "R5", "R6"], "kind": "run", "value": 15, "jokers": []},
            {
                "tiles": ["O4", "O4", "R4"],
                "kind": "invalid",
                "value": 0,
                "jokers": [],
                "reason": "two O4 tiles: a group's colours must all differ",
            },
        ],
    }


def test_game_scores_request():
    answer = ask(
        variant="sabra", racks={"ann": ["R5", "JK"], "bob": []}, winner="bob", joker_value=30
    )
    assert answer == {"id": "t", "scores": {"ann": -35, "bob": 35}}


def test_international_scores_request_reports_the_closed_hand():
    royal = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1".split()
    answer = ask(
        variant="international",
        racks={"a": [], "b": ["K5"]},
        winner="a",
        win="closed",
        melded={"b": True},
        closed_hand=royal,
    )
    assert answer["scores"] == {"a": 2400, "b": -5}
    assert answer["closed_hand"]["type"] == 24


def test_closed_hand_request():
    royal = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1".split()
    assert ask(variant="international", closed_hand=royal) == {
        "id": "t",
        "type": 24,
        "name": "Royal",
        "value": 2400,
        "jokers": 0,
        "arrangement": [royal],
    }
    none = "R1 K3 B5 O7 R9 K11 B13 O2 R4 K6 B8 O10 R12 K12".split()
    assert ask(variant="international", closed_hand=none) == {"id": "t", "type": None}


def test_closed_hand_request_for_one_type():
    royal = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1".split()
    answer = ask(variant="international", closed_hand=royal, hand_type=23)
    assert (
        answer["fits"] is True
        and answer["value"] == 2000
        and answer["name"] == "Single colour runs"
    )
    answer = ask(variant="international", closed_hand=royal, hand_type=35)
    assert answer["fits"] is False and answer["arrangement"] is None
    assert (
        ask(variant="international", closed_hand=royal, hand_type=41)["error"]["code"]
        == "bad_field"
    )


def test_settlement_request():
    answer = ask(variant="international", session_scores={"a": 100, "b": -50, "c": 0}, rate="0.10")
    assert answer == {"id": "t", "net": {"a": "25.00", "b": "-20.00", "c": "-5.00"}}
    assert ask(variant="international", session_scores={"a": 1, "b": 0}, rate=2)["net"] == {
        "a": "2",
        "b": "-2",
    }


@pytest.mark.parametrize(
    ("fields", "code", "token"),
    [
        ({"variant": "sabra"}, "missing_field", None),
        (
            {"variant": "sabra", "melds": [["R1", "R2", "R3"]], "session_scores": {}},
            "ambiguous_request",
            None,
        ),
        ({"variant": "poker", "melds": [["R1"]]}, "bad_variant", "poker"),
        ({"melds": [["R1"]]}, "bad_variant", None),
        ({"variant": "sabra", "melds": "R1 R2 R3"}, "bad_field", "melds"),
        ({"variant": "sabra", "melds": []}, "bad_field", "melds"),
        (
            {"variant": "sabra", "melds": [["R1", "R2", "R3"]], "initial_meld": 1},
            "bad_field",
            "initial_meld",
        ),
        ({"variant": "sabra", "melds": [["R1", "R2", "R3"]], "winner": "a"}, "bad_field", "winner"),
        (
            {"variant": "sabra", "melds": [["R1", "R2", "R3"]], "preset": "american"},
            "bad_field",
            "preset",
        ),
        ({"variant": "sabra", "racks": {"a": [], "b": []}}, "missing_field", "winner"),
        ({"variant": "sabra", "racks": [], "winner": None}, "bad_field", "racks"),
        ({"variant": "sabra", "racks": {"a": [], "b": []}, "winner": 3}, "bad_field", "winner"),
        (
            {"variant": "sabra", "racks": {"a": ["R1"], "b": []}, "winner": "b", "joker_value": -1},
            "bad_field",
            "joker_value",
        ),
        (
            {"variant": "sabra", "racks": {"a": ["R1"], "b": []}, "winner": "b", "win": "open"},
            "bad_field",
            "win",
        ),
        (
            {
                "variant": "international",
                "racks": {"a": [], "b": []},
                "winner": "a",
                "melded": {"b": True},
            },
            "missing_field",
            "win",
        ),
        (
            {
                "variant": "international",
                "racks": {"a": [], "b": []},
                "winner": "a",
                "win": "big",
                "melded": {},
            },
            "bad_field",
            "win",
        ),
        (
            {
                "variant": "international",
                "racks": {"a": [], "b": []},
                "winner": "a",
                "win": "open",
                "melded": {"b": "yes"},
            },
            "bad_field",
            "melded",
        ),
        ({"variant": "american", "closed_hand": ["R1"] * 14}, "bad_variant", "american"),
        ({"variant": "international", "closed_hand": "R1"}, "bad_field", "closed_hand"),
        ({"variant": "international", "session_scores": {"a": 1, "b": 2}}, "missing_field", "rate"),
        (
            {"variant": "international", "session_scores": {"a": 1, "b": 2}, "rate": 0.5},
            "bad_rate",
            "0.5",
        ),
        (
            {"variant": "international", "session_scores": {"a": 1, "b": 2}, "rate": "ten"},
            "bad_rate",
            "ten",
        ),
        (
            {"variant": "international", "session_scores": {"a": 1, "b": "2"}, "rate": "1"},
            "bad_field",
            "b",
        ),
        (
            {"variant": "international", "session_scores": [1, 2], "rate": "1"},
            "bad_field",
            "session_scores",
        ),
    ],
)
def test_bad_requests_are_rule_violations(fields, code, token):
    error = ask(**fields)["error"]
    assert (error["code"], error["token"]) == (code, token), error


def test_unknown_fields_are_ignored():
    answer = ask(variant="sabra", melds=[["R1", "R2", "R3"]], expect={"valid": True}, note="x")
    assert answer["valid"] is True


def test_presets_and_overrides():
    melds = [["K9", "K10", "K11"], ["R5", "B5", "O5"]]
    assert ask(variant="sabra", melds=melds, initial_meld=True)["meets_initial_meld"] is True
    fifty = ask(variant="sabra", melds=melds, initial_meld=True, preset="sabra-50")
    assert fifty["meets_initial_meld"] is False
    override = ask(variant="sabra", melds=melds, initial_meld=True, initial_meld_threshold=46)
    assert override["meets_initial_meld"] is False


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)
TILES = st.sampled_from(["R5", "JK", "jk=r7", "K13", "B1", "O12", "X1", "", "R0", "JK=JK", "r1"])
FIELDS = st.sampled_from(
    [
        "melds",
        "initial_meld",
        "racks",
        "winner",
        "joker_value",
        "last_mover",
        "win",
        "melded",
        "closed_hand",
        "first_turn",
        "original_hand",
        "is_first_player",
        "final_discard_joker",
        "trump_holders",
        "trump_bonus",
        "session_scores",
        "rate",
        "preset",
        "variant",
        "hand_type",
        "initial_meld_threshold",
    ]
)
VALUES = (
    JSON
    | st.lists(TILES, max_size=15)
    | st.lists(st.lists(TILES, max_size=5), max_size=4)
    | st.dictionaries(
        st.sampled_from(["a", "b", "c"]),
        st.lists(TILES, max_size=5) | st.booleans() | st.integers(-5, 5),
    )
    | st.sampled_from(
        ["sabra", "american", "international", "open", "closed", "foot", "a", "b", "0.10"]
    )
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(FIELDS, VALUES, max_size=7),
    st.sampled_from(["sabra", "american", "international", None]),
)
def test_garbage_never_raises_anything_but_an_error_answer(fields, variant):
    request = {"id": 1, "game": "rummikub", **fields}
    if variant is not None:
        request.setdefault("variant", variant)
    answer = evaluate_request(request)
    assert answer["id"] == 1
    json.dumps(answer)  # answers are JSON
    if "error" in answer:
        assert set(answer["error"]) >= {"code", "message", "token"}


@settings(max_examples=100, deadline=None)
@given(JSON)
def test_any_json_value_is_answered(value):
    answer = evaluate_request(value)
    json.dumps(answer)


def test_request_kind_is_chosen_by_its_fields():
    """docs/rules.md Decision: melds, racks, closed_hand (without racks) or session_scores pick
    the request kind; two kinds at once is ambiguous; unknown fields are ignored."""
    royal = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1".split()
    assert ask(variant="international", closed_hand=royal)["type"] == 24
    both = ask(variant="international", closed_hand=royal, session_scores={"a": 1, "b": 2}, rate=1)
    assert both["error"]["code"] == "ambiguous_request"
    assert ask(variant="sabra", melds=[["R1", "R2", "R3"]], comment="x")["valid"] is True


def test_float_rate_is_refused():
    """docs/rules.md Decision: the rate is a string or a whole number; a float is refused because
    it is not exact."""
    answer = ask(variant="international", session_scores={"a": 1, "b": 0}, rate=0.1)
    assert answer["error"]["code"] == "bad_rate"
    assert "floats are not exact" in answer["error"]["message"]
