"""Rummikub house rules as preset numbers (docs/rules.md "House rules"): the joker's penalty,
the penalty for never opening, the 13-1 run outside and inside closed hands and the opening
threshold; the defaults are the published rules."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from rules.evaluate import evaluate_request
from rules.rummikub import SABRA, game_scores, validate_meld, validate_melds
from rules.rummikub.closed_hands import classify_closed_hand, fit_closed_hand_type
from rules.rummikub.preset import INTERNATIONAL, RummikubPreset
from rules.rummikub.scoring import book_share

from . import oracle
from .test_properties import FACTS, closed_hands

RACKS = {"ana": [], "ben": ["R5", "JK"], "cy": ["B13", "K1"]}


@pytest.mark.parametrize(("joker_value", "ben"), [(30, -35), (25, -30), (50, -55)])
def test_the_joker_penalty_is_the_preset_s(joker_value, ben):
    """30 by default, 25 in Belgian clubs, 50 at the MSO: a joker left on a rack."""
    preset = dataclasses.replace(SABRA, joker_value=joker_value)
    scores = game_scores(RACKS, "ana", preset)
    assert scores["ben"] == ben and sum(scores.values()) == 0


def test_a_loser_who_never_opened_scores_the_penalty_instead_of_the_rack():
    melded = {"ben": True, "cy": False}
    assert game_scores(RACKS, "ana", SABRA, melded=melded) == {"ana": 49, "ben": -35, "cy": -14}
    for penalty in (100, 200):
        preset = dataclasses.replace(SABRA, never_opened_penalty=penalty)
        scores = game_scores(RACKS, "ana", preset, melded=melded)
        assert scores == {"ana": 35 + penalty, "ben": -35, "cy": -penalty}
    # The pool ran out: the penalty is that player's count.
    preset = dataclasses.replace(SABRA, never_opened_penalty=100)
    racks = {"ana": ["R2"], "ben": ["R5"], "cy": ["B3"]}
    assert game_scores(racks, None, preset, melded={"cy": False}) == {
        "ana": 3 + 98, "ben": -3, "cy": -98,
    }  # fmt: skip
    with pytest.raises(RuleViolation) as caught:
        game_scores(RACKS, "ana", preset, melded={"dan": False})
    assert caught.value.code == "unknown_player"


@settings(max_examples=200, deadline=None)
@given(
    racks=st.lists(
        st.lists(st.sampled_from(["R1", "R5", "B13", "K9", "O12", "JK"]), max_size=4, unique=True),
        min_size=1, max_size=2,
    ),
    penalty=st.sampled_from([0, 100]),
    opened=st.lists(st.booleans(), min_size=4, max_size=4),
)  # fmt: skip
def test_a_winner_who_scores_zero_leaves_the_rest_to_the_book(racks, penalty, opened):
    """winner_scores_zero: the winner scores 0, each loser exactly as by default, and the book's
    share makes the game sum to zero; the default's winner takes exactly that share."""
    table = {"win": [], **{f"p{index}": rack for index, rack in enumerate(racks)}}
    melded = {name: opened[index] for index, name in enumerate(table)}
    plain = dataclasses.replace(SABRA, never_opened_penalty=penalty)
    zero = dataclasses.replace(plain, winner_scores_zero=True)
    default = game_scores(table, "win", plain, melded=melded)
    scores = game_scores(table, "win", zero, melded=melded)
    assert scores["win"] == 0
    assert {k: v for k, v in scores.items() if k != "win"} == {
        k: v for k, v in default.items() if k != "win"
    }
    assert sum(scores.values()) + book_share(scores) == 0
    assert book_share(scores) == default["win"]


def test_the_13_1_run_outside_closed_hands_is_the_preset_s_one_high():
    assert not validate_meld(["R12", "R13", "R1"], SABRA).valid
    assert validate_meld(["R12", "R13", "R1"], dataclasses.replace(SABRA, one_high=True)).valid
    assert not validate_meld(["R13", "R1", "R2"], dataclasses.replace(SABRA, one_high=True)).valid


@pytest.mark.parametrize(("threshold", "meets"), [(30, True), (31, False)])
def test_the_opening_threshold_is_the_preset_s(threshold, meets):
    preset = dataclasses.replace(SABRA, initial_meld_threshold=threshold)
    result = validate_melds([["R9", "R10", "R11"]], preset, initial_meld=True)
    assert result.meets_initial_meld is meets


def test_a_bad_penalty_is_refused_naming_it():
    with pytest.raises(ValueError, match="never_opened_penalty"):
        dataclasses.replace(SABRA, never_opened_penalty=-100)
    assert RummikubPreset("x", "sabra", 30, False).never_opened_penalty == 0


# Runs and groups with no joker or one, read independently of the engine: each tile's number.
_COLOURS = "KRBO"


@st.composite
def _opening_meld(draw: st.DrawFn) -> tuple[list[str], list[int]]:
    """A valid meld and the numbers its tiles stand for (a joker in place of one of them)."""
    if draw(st.booleans()):
        start = draw(st.integers(1, 11))
        numbers = list(range(start, draw(st.integers(start + 2, min(start + 5, 13))) + 1))
        colour = draw(st.sampled_from(_COLOURS))
        tiles = [f"{colour}{number}" for number in numbers]
    else:
        number = draw(st.integers(1, 13))
        colours = draw(st.lists(st.sampled_from(_COLOURS), min_size=3, max_size=4, unique=True))
        numbers = [number] * len(colours)
        tiles = [f"{colour}{number}" for colour in colours]
    if draw(st.booleans()):
        tiles[draw(st.integers(1, len(tiles) - 1))] = "JK"
    return tiles, numbers


@settings(max_examples=200, deadline=None)
@given(
    melds=st.lists(_opening_meld(), min_size=1, max_size=3),
    threshold=st.integers(0, 80),
    high_as_10=st.booleans(),
)
def test_the_opening_counts_10_to_13_as_10_exactly_as_the_tiles_say(melds, threshold, high_as_10):
    """opening_high_as_10: whether melds open equals the threshold against the numbers the tiles
    stand for, 10 to 13 counting 10; the melds' own value never changes."""
    preset = dataclasses.replace(
        SABRA, initial_meld_threshold=threshold, opening_high_as_10=high_as_10
    )
    tiles = [meld for meld, _ in melds]
    if max(Counter(tile for meld in tiles for tile in meld).values()) > 2:
        return  # more copies than the game has: a request error, not an opening
    numbers = [number for _, meld_numbers in melds for number in meld_numbers]
    result = validate_melds(tiles, preset, initial_meld=True)
    counted = sum(min(number, 10) if high_as_10 else number for number in numbers)
    assert result.valid and result.value == sum(numbers)
    assert result.meets_initial_meld is (counted >= threshold)


def test_the_opening_counts_10_to_13_as_10():
    """K11 R11 B11 and R12 R13 JK: 33 + 36 open at 50; 30 + 30 (10 each) do not at 61."""
    melds = [["K11", "R11", "B11"], ["R11", "R12", "R13"]]
    preset = dataclasses.replace(SABRA, initial_meld_threshold=61)
    assert validate_melds(melds, preset, initial_meld=True).meets_initial_meld
    capped = dataclasses.replace(preset, opening_high_as_10=True)
    result = validate_melds(melds, capped, initial_meld=True)
    assert result.meets_initial_meld is False and result.value == 69
    assert validate_melds(melds, dataclasses.replace(capped, initial_meld_threshold=60),
                          initial_meld=True).meets_initial_meld  # fmt: skip


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("joker_value", -1),
        ("never_opened_penalty", "100"),
        ("one_high", 1),
        ("opening_high_as_10", "yes"),
        ("initial_meld_threshold", 10**7),
        ("trump_bonus", True),
        ("winner_scores_zero", "true"),
        ("closed_one_high", 0),
    ],
)
def test_every_house_option_is_checked_in_one_place(option, value):
    """The preset and the batch contract refuse a bad option with the same message naming it."""
    with pytest.raises(ValueError, match=option) as caught:
        dataclasses.replace(SABRA, **{option: value})
    answer = evaluate_request(
        {"game": "rummikub", "variant": "sabra", "racks": {"a": [], "b": []}, "winner": "a",
         option: value}
    )  # fmt: skip
    assert answer["error"]["code"] == "bad_field"
    assert answer["error"]["token"] == option
    assert answer["error"]["message"] == str(caught.value)


def test_the_batch_contract_takes_every_house_option():
    """A Sabra racks request with melded under never_opened_penalty scores as the deal entry;
    one_high and opening_high_as_10 judge melds; melded without the penalty is refused, as at the
    entry."""
    racks = {"ana": [], "ben": ["R5", "JK"], "cy": ["B13", "K1"]}
    ask = {"game": "rummikub", "variant": "sabra", "racks": racks, "winner": "ana"}
    answer = evaluate_request({**ask, "never_opened_penalty": 100, "melded": {"cy": False}})
    assert answer == {"id": None, "scores": {"ana": 135, "ben": -35, "cy": -100}}
    refused = evaluate_request({**ask, "melded": {"cy": False}})
    assert refused["error"]["code"] == "bad_field" and refused["error"]["token"] == "melded"
    run = {"game": "rummikub", "variant": "sabra", "melds": [["R12", "R13", "R1"]]}
    assert evaluate_request(run)["valid"] is False
    assert evaluate_request({**run, "one_high": True})["valid"] is True
    opening = {"game": "rummikub", "variant": "sabra", "melds": [["R11", "R12", "R13"]],
               "initial_meld": True, "initial_meld_threshold": 31}  # fmt: skip
    assert evaluate_request(opening)["meets_initial_meld"] is True
    assert evaluate_request({**opening, "opening_high_as_10": True})["meets_initial_meld"] is False
    zero = evaluate_request({**ask, "winner_scores_zero": True})
    assert zero == {"id": None, "scores": {"ana": 0, "ben": -35, "cy": -14}, "book": 49}


#: Royal, Mosaic and the waves: shapes the table spells with 1 after 13, not runs.
SHAPES_WITH_1_AFTER_13 = frozenset({24, 28, 29, 30, 31, 32, 33, 34})
#: Two runs that need 1 after 13, and the rest of a groups/runs hand.
HIGH_ONE_HAND = "R11 R12 R13 R1 B11 B12 B13 B1 K2 K3 K4 O5 O6 O7".split()


@st.composite
def hands_with_a_high_one(draw):
    """Closed hands of every type, and hands that hold a run 12 13 1 (where the option decides)."""
    if draw(st.booleans()):
        return draw(closed_hands())
    colour = draw(st.sampled_from("KRBO"))
    run = [f"{colour}{n}" for n in (*range(draw(st.integers(2, 12)), 14), 1)]
    others = [f"{c}{n}" for c in "KRBO" for n in range(1, 14)] * 2 + ["JK", "JK"]
    for tile in run:
        others.remove(tile)
    rest = draw(st.permutations(others))[: 14 - len(run)] if len(run) < 14 else []
    return [*run, *rest][:14]


@settings(max_examples=60, deadline=None)
@given(hand=hands_with_a_high_one(), facts=FACTS)
def test_closed_hands_without_1_after_13_agree_with_an_exact_search(hand, facts):
    """closed_one_high false: the classifier finds the type an exhaustive reading of the table
    finds when no run goes on from 13 to 1 (every partition tried, oracle.py)."""
    result = classify_closed_hand(hand, **facts, one_high=False)
    expected_type, expected_value = oracle.best(
        [oracle.read(t) for t in hand], **facts, one_high=False
    )
    assert (result.type if result else None) == expected_type
    assert (result.value if result else 0) == expected_value
    if result is not None:
        arrangement = [[str(t) for t in meld] for meld in result.arrangement]
        oracle.check_arrangement(hand, result.type, arrangement)
        assert result.type in SHAPES_WITH_1_AFTER_13 or not any(
            [t[1:] for t in meld[-2:]] == ["13", "1"] for meld in arrangement if len(meld) >= 3
        ), arrangement


@settings(max_examples=40, deadline=None)
@given(hand=hands_with_a_high_one(), number=st.integers(1, 40), facts=FACTS)
def test_each_closed_type_without_1_after_13_fits_as_the_exact_search_says(hand, number, facts):
    arrangement = fit_closed_hand_type(hand, number, **facts, one_high=False)
    read = [oracle.read(t) for t in hand]
    assert (arrangement is not None) == oracle.fits(read, number, **facts, one_high=False)


def test_a_closed_hand_may_not_go_on_from_13_to_1_under_the_option():
    """The default (International) takes R11 R12 R13 R1 in a closed hand; closed_one_high false
    refuses it, in the engine and in the batch contract."""
    assert classify_closed_hand(HIGH_ONE_HAND).type == 13  # Four colours, one run each
    assert classify_closed_hand(HIGH_ONE_HAND, one_high=False) is None
    ask = {"game": "rummikub", "variant": "international", "closed_hand": HIGH_ONE_HAND}
    assert evaluate_request(ask)["type"] == 13
    assert evaluate_request({**ask, "closed_one_high": False}) == {"id": None, "type": None}
    preset = dataclasses.replace(INTERNATIONAL, closed_one_high=False)
    assert preset.closed_one_high is False and INTERNATIONAL.closed_one_high is True
