"""Melds and the initial meld (rummikub.md, "Combinations (melds)" and "Initial meld")."""

import pytest

from rules.errors import RuleViolation
from rules.rummikub import (
    AMERICAN,
    INTERNATIONAL,
    SABRA,
    SABRA_50,
    validate_meld,
    validate_melds,
)


def judge(text, rules="sabra"):
    return validate_meld(text.split(), rules)


def test_group_three_or_four_tiles_of_one_number_all_colours_different():
    """rummikub.md: a group is 3 or 4 tiles of one number, all colours different."""
    meld = judge("R4 B4 K4")
    assert (meld.kind, meld.value, meld.jokers) == ("group", 12, ())
    assert judge("R4 B4 K4 O4").kind == "group"


def test_group_with_a_repeated_colour_is_invalid():
    """rummikub.md: O4 O4 R4 is invalid."""
    meld = judge("O4 O4 R4")
    assert meld.kind == "invalid"
    assert "O4" in meld.reason


@pytest.mark.parametrize(
    ("text", "word"),
    [("R4 B4", "at least 3"), ("R4 B4 K4 O4 JK", "3 or 4"), ("R4 B5 K4", "one number")],
)
def test_group_sizes_and_numbers(text, word):
    meld = judge(text)
    assert meld.kind == "invalid" and word in meld.reason


def test_run_three_or_more_consecutive_numbers_of_one_colour():
    """rummikub.md: a run is 3 or more consecutive numbers of one colour."""
    assert (judge("R4 R5 R6").kind, judge("R4 R5 R6").value) == ("run", 15)
    assert judge("O1 O2 O3 O4").value == 10
    assert judge("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13").value == 91
    assert judge("R4 R5 R7").kind == "invalid"
    assert "R7" in judge("R4 R5 R7").reason
    assert judge("R4 R5 B6").kind == "invalid"
    assert judge("R4 B5 K6").kind == "invalid"


def test_sabra_one_is_always_low():
    """rummikub.md: Sabra: 1 is always low. R1 R2 R3 is valid, R12 R13 R1 is not."""
    assert judge("R1 R2 R3").kind == "run"
    meld = judge("R12 R13 R1")
    assert meld.kind == "invalid" and "Sabra" in meld.reason
    assert judge("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13").kind == "run"


def test_sabra_a_joker_cannot_be_a_high_one():
    """rummikub.md: Sabra: 1 is always low, so R12 R13 JK reads the joker as R11."""
    meld = judge("JK R12 R13")
    assert meld.kind == "run" and [str(t) for t in meld.jokers] == ["R11"]
    assert judge("R12 R13 JK").kind == "invalid"


@pytest.mark.parametrize("variant", ["american", "international"])
def test_american_and_international_one_is_low_or_high_not_both(variant):
    """rummikub.md: American and International: R12 R13 R1 is valid, R13 R1 R2 is not."""
    high = judge("R12 R13 R1", variant)
    assert high.kind == "run"
    assert judge("R1 R2 R3", variant).kind == "run"
    assert judge("R13 R1 R2", variant).kind == "invalid"
    assert judge("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", variant).kind == "invalid"
    assert [str(t) for t in judge("R12 R13 JK", variant).jokers] == ["R1"]


def test_a_one_counts_one_even_when_high():
    """docs/rules.md Decision: a meld counts each tile at its number, a high 1 counts 1."""
    assert judge("R12 R13 R1", "american").value == 26
    assert judge("R12 R13 JK", "international").value == 26


def test_joker_stands_for_any_tile_its_place_in_a_run_says():
    """rummikub.md: a run is read in the order given; R5 R6 JK means the joker is R7, JK R5 R6
    means R4."""
    assert [str(t) for t in judge("R5 R6 JK").jokers] == ["R7"]
    assert [str(t) for t in judge("JK R5 R6").jokers] == ["R4"]
    assert [str(t) for t in judge("R5 JK R7").jokers] == ["R6"]
    assert judge("R5 R6 JK").value == 18


def test_two_jokers_may_be_in_one_meld():
    """rummikub.md: two jokers may be in one meld (Lemada's rules)."""
    meld = judge("R5 JK JK R8")
    assert meld.kind == "run" and [str(t) for t in meld.jokers] == ["R6", "R7"]
    group = judge("R5 JK B5 JK")
    assert group.kind == "group" and [str(t) for t in group.jokers] == ["K5", "O5"]


def test_run_made_mostly_of_jokers_is_fixed_by_position():
    """docs/rules.md Decision: JK JK R5 is a run R3 R4 R5 (one number tile reads low to high)."""
    meld = judge("JK JK R5")
    assert (meld.kind, [str(t) for t in meld.jokers], meld.value) == ("run", ["R3", "R4"], 12)
    assert [str(t) for t in judge("R5 JK JK").jokers] == ["R6", "R7"]
    assert [str(t) for t in judge("JK R5 JK").jokers] == ["R4", "R6"]


def test_one_number_tile_and_two_jokers_is_a_group_when_it_cannot_be_a_run():
    """docs/rules.md Decision: one number tile and two jokers are a run when they can be one
    (or when JK= says so), otherwise a group."""
    meld = judge("JK JK R1")  # Sabra: nothing comes before 1
    assert meld.kind == "group" and [str(t) for t in meld.jokers] == ["K1", "B1"]
    assert judge("JK JK R1", "american").kind == "run"  # R12 R13 R1
    assert judge("R13 JK JK").kind == "group"
    explicit = judge("JK=K5 JK R5")
    assert explicit.kind == "group" and [str(t) for t in explicit.jokers] == ["K5", "B5"]
    neither = judge("JK=K9 JK R5")
    assert neither.kind == "invalid" and "JK=K9" in neither.reason


def test_explicit_joker_must_agree_with_its_place():
    """rummikub.md: an explicit JK=R7 must agree with its place."""
    assert judge("R5 R6 JK=R7").kind == "run"
    meld = judge("R5 R6 JK=R8")
    assert meld.kind == "invalid" and "JK=R8" in meld.reason and "R7" in meld.reason
    assert judge("R5 R6 JK=B7").kind == "invalid"


def test_group_joker_is_the_groups_number_in_a_missing_colour():
    """rummikub.md: in a group the joker stands for the group's number in a missing colour."""
    assert [str(t) for t in judge("R5 B5 K5 JK").jokers] == ["O5"]
    assert judge("R5 B5 JK=O5").kind == "group"
    bad = judge("R5 B5 JK=R5")
    assert bad.kind == "invalid" and "JK=R5" in bad.reason
    assert judge("R5 B5 JK=O6").kind == "invalid"
    assert judge("R5 JK=O5 JK=O5").kind == "invalid"


def test_ambiguous_missing_colour_takes_the_first_missing_in_k_r_b_o_order():
    """docs/rules.md Decision: a group joker with several missing colours is reported as the first
    missing colour in K, R, B, O order (the value is the same whichever it is)."""
    meld = judge("R5 B5 JK")
    assert [str(t) for t in meld.jokers] == ["K5"] and meld.value == 15
    assert [str(t) for t in judge("K5 R5 JK").jokers] == ["B5"]
    assert [str(t) for t in judge("JK=O5 R5 JK").jokers] == ["O5", "K5"]


def test_runs_may_be_written_high_to_low_when_their_number_tiles_say_so():
    """docs/rules.md Decision: a run is read in the order given, low to high or high to low."""
    meld = judge("R8 R7 JK")
    assert meld.kind == "run" and [str(t) for t in meld.jokers] == ["R6"]
    assert [str(t) for t in judge("R1 R13 R12", "american").tiles] == ["R1", "R13", "R12"]
    assert judge("R1 R13 R12", "american").kind == "run"
    assert judge("R1 R13 R12", "sabra").kind == "invalid"
    assert judge("R6 R4 R5").kind == "invalid"  # not in order


def test_meld_value_counts_jokers_as_what_they_stand_for():
    """rummikub.md: counting each joker as the tile it stands for."""
    assert judge("JK R10 R11").value == 30
    assert judge("R10 B10 JK").value == 30


def test_meld_needs_three_tiles_and_a_number_tile():
    assert judge("R5 R6").kind == "invalid"
    assert validate_meld(["JK", "JK", "JK"]).reason == "a meld needs at least one number tile"


def test_no_tile_may_belong_to_two_melds():
    """rummikub.md: no tile may belong to two melds (a third copy is an error naming it)."""
    with pytest.raises(RuleViolation) as caught:
        validate_melds([["R5", "R6", "R7"], ["R5", "B5", "K5"], ["R4", "R5", "R6"]])
    assert (caught.value.code, caught.value.token) == ("too_many_copies", "R5")
    assert validate_melds([["R5", "R6", "R7"], ["R5", "B5", "K5"]]).valid


@pytest.mark.parametrize(
    ("rules", "threshold"),
    [(SABRA, 30), (SABRA_50, 50), ("sabra-50", 50), (AMERICAN, 21), (INTERNATIONAL, 50)],
)
def test_initial_meld_thresholds(rules, threshold):
    """rummikub.md: initial meld at least Sabra 30 (variant 50), American 21, International 50."""
    exact = _melds_worth(threshold)
    short = _melds_worth(threshold - 1)
    result = validate_melds(exact, rules, initial_meld=True)
    assert (result.valid, result.value, result.meets_initial_meld) == (True, threshold, True)
    result = validate_melds(short, rules, initial_meld=True)
    assert (result.valid, result.value, result.meets_initial_meld) == (True, threshold - 1, False)


def _melds_worth(total):
    """Valid melds worth exactly ``total`` (21..50)."""
    options = {
        20: [["K2", "K3", "K4", "K5"], ["R1", "R2", "R3"]],
        21: [["K6", "K7", "K8"]],
        29: [["K2", "K3", "K4", "K5"], ["R4", "R5", "R6"]],
        30: [["K9", "K10", "K11"]],
        49: [["K13", "R13", "B13"], ["O1", "O2", "O3", "O4"]],
        50: [["K8", "K9", "K10", "K11"], ["R3", "R4", "R5"]],
    }
    return options[total]


def test_initial_meld_counts_jokers_as_the_tiles_they_stand_for():
    """rummikub.md: the initial meld counts each joker as the tile it stands for."""
    result = validate_melds([["R9", "R10", "JK"]], "sabra", initial_meld=True)
    assert (result.value, result.meets_initial_meld) == (30, True)


def test_initial_meld_needs_every_meld_valid_and_is_not_judged_otherwise():
    """docs/rules.md Decision: meets_initial_meld is null unless the melds are an initial meld;
    valid is about the melds only."""
    result = validate_melds([["K10", "K11", "K12"], ["R1", "B2", "K3"]], "sabra", initial_meld=True)
    assert (result.valid, result.value, result.meets_initial_meld) == (False, 33, False)
    assert result.melds[1].kind == "invalid"
    assert validate_melds([["R1", "R2", "R3"]], "sabra").meets_initial_meld is None


def test_a_disagreeing_joker_makes_the_meld_invalid_not_the_request():
    """docs/rules.md Decision: an explicit JK= that disagrees makes its meld invalid (with a
    reason naming it); the other melds are still judged."""
    result = validate_melds([["R5", "R6", "JK=R9"], ["K1", "K2", "K3"]], "sabra")
    assert result.valid is False
    assert [meld.kind for meld in result.melds] == ["invalid", "run"]
    assert "JK=R9" in result.melds[0].reason
    assert result.value == 6


def test_a_joker_may_stand_for_a_tile_whose_two_copies_are_elsewhere():
    """docs/rules.md Decision: a joker stands for a tile whatever copies of it are on the table
    (here a third R5); only the tiles themselves are limited to two copies."""
    melds = [["R3", "R4", "R5"], ["R5", "R6", "R7"], ["K5", "B5", "O5", "JK=R5"]]
    result = validate_melds(melds, "international")
    assert result.valid and [str(t) for t in result.melds[2].jokers] == ["R5"]
