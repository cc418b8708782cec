"""International closed hands (rummikub.md, "Closed hand types" and its Decisions)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from rules.rummikub import HAND_TYPES, classify_closed_hand, fit_closed_hand_type
from rules.rummikub.closed_hands import DEFAULT_CLOSED_HAND_VALUES

from .oracle import TABLE, check_arrangement


def classify(text, **facts):
    return classify_closed_hand(text.split(), **facts)


def fits(text, number, **facts):
    return fit_closed_hand_type(text.split(), number, **facts) is not None


def test_the_table_has_40_types_with_values_for_0_1_2_jokers():
    """rummikub.md: the closed hand table, values by the number of jokers."""
    assert [(t.number, t.name) for t in HAND_TYPES] == [(n, TABLE[n][0]) for n in range(1, 41)]
    assert tuple(TABLE[n][1] for n in range(1, 41)) == DEFAULT_CLOSED_HAND_VALUES


# One hand per type that scores as that type (0 jokers); types 15 and 18 are always outscored by
# Grand sets (see the test below), so they are checked as fits.
EXAMPLES = {
    1: "B4 B5 B6 B7 B8 B9 B9 B10 B11 B12 B13 K9 O9 R9",
    2: "B1 B2 B3 B4 B5 B6 B7 B7 K6 K7 O6 O7 R6 R7",
    3: "B1 B1 K1 O1 O1 R1 R1 R3 R4 R5 R6 R7 R8 R9",
    4: "K10 R10 B10 K1 R1 B1 O1 K2 R2 B2 O2 K3 R3 B3",
    5: "B2 B3 B4 B5 K2 K3 K4 R1 R2 R3 R4 R5 R6 R7",
    6: "B1 B2 B3 K1 K1 K2 O1 O1 O2 O3 O3 O4 R1 R2",
    7: "B2 K2 O1 O2 O2 O3 O4 O5 O6 R1 R2 R2 R3 R4",
    8: "K1 K2 K3 K4 K5 O1 O2 O3 O4 R1 R2 R3 R4 R5",
    9: "B1 B4 B4 K1 K3 K4 K4 O1 O3 O4 O4 R1 R3 R4",
    10: "B12 B13 K1 K10 K11 K12 K12 K13 O13 O13 R1 R10 R12 R13",
    11: "B1 B1 B10 B11 B12 B12 B13 K1 O1 O1 O12 R1 R1 R12",
    12: "B5 B9 B10 B10 K1 K2 K3 K10 K10 O10 O10 R9 R10 R10",
    13: "B1 B12 B13 K9 K10 K11 K12 O6 O7 O8 R2 R3 R4 R5",
    14: "B4 B5 B6 K4 K5 K6 O5 O6 O7 R3 R4 R5 R6 R7",
    16: "B8 B9 B10 K7 K8 K9 K10 R3 R4 R5 R6 R7 R8 R9",
    17: "B4 B5 B6 B7 B8 K3 K4 K5 K6 K7 O5 O6 O7 O8",
    19: "O6 O7 O8 O9 O10 O11 O12 O13 R7 R8 R9 R10 R11 R12",
    20: "K1 K2 K3 K4 K5 R1 R2 R3 R4 R5 R6 R7 R8 R9",
    21: "O1 O10 O11 O12 O13 R1 R1 R10 R11 R11 R12 R12 R13 R13",
    22: "R2 R2 R3 R4 R4 R6 R6 R7 R8 R8 R9 R10 R11 R13",
    23: "O1 O2 O3 O4 O5 O5 O6 O7 O8 O9 O10 O11 O12 O13",
    24: "B1 B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13",
    25: "B5 B6 B13 K5 K6 K13 O5 O5 O6 O13 R5 R5 R6 R13",
    26: "K6 R6 B6 O6 K7 R7 B7 O7 K8 R8 B8 K9 R9 B9",
    27: "B1 B11 B13 B13 K1 K11 K13 O1 O13 O13 R1 R11 R13 R13",
    28: "R1 B2 R3 B4 R5 B6 R7 B8 R9 B10 R11 B12 R13 O1",
    29: "R1 B2 R3 B4 R5 B6 R7 K1 O2 K3 O4 K5 O6 K7",
    30: "B9 B9 B12 B12 K1 O1 O8 O11 O11 O13 R8 R10 R10 R13",
    31: "K1 K1 K2 K2 K3 K3 K4 K4 K5 K5 K6 K6 K7 K7",
    32: "R1 R1 R8 R8 R9 R9 R10 R10 R11 R11 R12 R12 R13 R13",
    33: "B1 B2 B3 B4 B5 B6 B7 O1 O2 O3 O4 O5 O6 O7",
    34: "B1 B8 B9 B10 B11 B12 B13 R1 R8 R9 R10 R11 R12 R13",
    35: "B11 B11 B13 B13 K6 K6 K12 K12 O7 O7 O10 O10 R8 R8",
    36: "B4 B4 B6 B6 B8 B8 K1 K1 O1 O1 O5 O5 R7 R7",
    37: "B1 B1 B10 B10 O1 O1 O10 O10 O11 O11 R1 R1 R11 R11",
    38: "K5 K5 K6 K6 K8 K8 K9 K9 K10 K10 K12 K12 K13 K13",
}
FACTS = {39: {"first_turn": True}, 40: {"original_hand": True}}
EXAMPLES[39] = "B2 B3 B4 B5 B6 B7 B8 K1 K2 K3 K4 K5 K6 K7"
EXAMPLES[40] = "O6 O7 O8 O9 O10 O11 R2 R3 R4 R5 R6 R7 R8 R9"


@pytest.mark.parametrize("number", sorted(EXAMPLES))
def test_each_type_scores_as_itself(number):
    """rummikub.md: each type of the closed hand table, with its 0-joker value."""
    text = EXAMPLES[number]
    result = classify(text, **FACTS.get(number, {}))
    assert result is not None
    assert (result.type, result.name, result.value, result.jokers) == (
        number,
        TABLE[number][0],
        TABLE[number][1][0],
        0,
    )
    check_arrangement(text.split(), number, [[str(t) for t in m] for m in result.arrangement])


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (15, "K10 K11 K12 R11 R12 R13 B12 B13 B1 O10 O11 O12 O13 O1"),
        (18, "K10 K11 K12 K13 K1 R10 R11 R12 R13 R1 B11 B12 B13 B1"),
    ],
)
def test_major_colour_runs_always_also_fit_grand_sets_which_scores_more(number, text):
    """docs/rules.md Decision: Four colours major (15) and Three colours major (18) are always
    Grand sets (11) too, which is worth more, so the hand scores as Grand sets."""
    assert fits(text, number)
    result = classify(text)
    assert (result.type, result.value) == (11, 1400)
    assert TABLE[11][1] > TABLE[number][1]


def test_value_depends_on_the_number_of_jokers():
    """rummikub.md: the winner scores the value of the type by the number of jokers."""
    royal = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    assert classify(royal).value == 2400
    assert classify(royal.replace("R5", "JK")).value == 2200
    result = classify(royal.replace("R5", "JK").replace("R9", "JK"))
    assert (result.type, result.value, result.jokers) == (24, 2000, 2)
    assert [str(t) for t in result.arrangement[0]][4] == "JK=R5"


def test_hand_fitting_several_types_scores_only_the_most_valuable():
    """rummikub.md: when a hand fits several types, it scores only the most valuable one."""
    text = EXAMPLES[33]  # also Little wave (29), Two colours minor (20), Hand minor (2), Basic
    for number in (1, 2, 19, 20, 29, 33):
        assert fits(text, number), number
    assert classify(text).type == 33


def test_groups_runs_partition_all_14_tiles_with_international_runs():
    """rummikub.md: groups/runs means all 14 tiles partitioned into valid groups and runs, 1 high
    or low as in International runs."""
    assert fits("R12 R13 R1 K1 B1 O1 K5 K6 K7 K8 B9 B10 B11 B12", 1)
    assert not fits("R13 R1 R2 K1 B1 O1 K5 K6 K7 K8 B9 B10 B11 B12", 1)
    assert not fits("R12 R13 R1 K1 B1 O1 K5 K6 K7 K8 B9 B10 B11 O12", 1)


def test_minor_means_no_tile_above_9_jokers_included():
    """rummikub.md: minor: no tile above 9 (docs/rules.md Decision: jokers count as what they
    stand for, so a minor arrangement puts the joker at 9 or below, not at K10)."""
    text = "K1 K2 K3 K4 K5 K6 K7 K8 K9 JK K5 R5 B5 O5"
    arrangement = fit_closed_hand_type(text.split(), 2)
    stand_ins = [str(t)[3:] for meld in arrangement for t in meld if t.is_joker]
    assert stand_ins and all(int(tile[1:]) <= 9 for tile in stand_ins)
    check_arrangement(text.split(), 2, [[str(t) for t in meld] for meld in arrangement])
    assert not fits(text.replace("K9", "K10"), 2)


def test_major_means_no_tile_below_10_counting_1_as_high():
    """rummikub.md: major: no tile below 10, counting 1 as high (a group of 1s is major)."""
    assert fits("K1 R1 B1 O1 K10 K11 K12 K13 R12 R13 R1 B10 R10 O10", 11)
    assert not fits("K1 K2 K3 R1 B1 O1 K10 K11 K12 K13 R11 R12 R13 B13", 11)


def test_totals_count_1_as_1_and_jokers_as_what_they_stand_for():
    """rummikub.md: totals count 1 as 1 point; docs/rules.md Decision: a joker counts as the tile
    it stands for in the arrangement, the least total that fits being used."""
    text = "K1 K2 K3 R1 R2 R3 B1 B2 B3 O1 O2 O3 O4 JK"  # 31 + the joker
    arrangement = fit_closed_hand_type(text.split(), 8)
    assert arrangement is not None
    total = sum(int(str(t).split("=")[-1][1:]) for meld in arrangement for t in meld)
    assert total <= 41


def test_any_14_tiles_joker_takes_the_most_favourable_value():
    """rummikub.md Decision: in "any 14 tiles" types a joker counts 1 toward a Piccolo total and
    10 or above for a Grand hand."""
    piccolo = "K1 K1 R1 R1 B1 B5 O5 K5 R4 B4 O4 K4 JK JK"  # 37 + 2 x 1 = 39
    assert fits(piccolo, 6)
    grand = "K10 K11 K12 R13 R13 B1 O1 O12 K13 B10 R11 B11 JK JK"
    assert fits(grand, 10)
    assert not fits(grand.replace("JK JK", "JK R9"), 10)


def test_joker_stands_for_any_tile_the_type_needs():
    """rummikub.md Decision: a joker may stand for any tile the type needs."""
    assert fits("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 JK JK", 24)  # Royal: K13 and a high K1
    result = classify("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 JK JK")
    assert (result.type, result.value) == (24, 2000)


def test_runs_only_and_n_runs_partition_into_exactly_that_kind_and_number():
    """rummikub.md Decision: "runs only" and "N runs" types partition all 14 tiles into exactly
    that kind and number of melds."""
    four = "R1 R2 R3 K4 K5 K6 B7 B8 B9 B10 O11 O12 O13 O1"
    assert fits(four, 13) and not fits(four, 16)
    three = "R1 R2 R3 R4 K4 K5 K6 K7 K8 B7 B8 B9 B10 B11"
    assert fits(three, 16) and not fits(three, 13)
    with_group = "R1 R2 R3 K4 K5 K6 B7 B8 B9 B10 K11 R11 B11 O11"
    assert not fits(with_group, 13) and not fits(with_group, 5) and fits(with_group, 1)


def test_sticks_four_groups_use_all_14_tiles():
    """docs/rules.md Decision: Sticks' four groups hold all 14 tiles (4 + 4 + 3 + 3)."""
    arrangement = fit_closed_hand_type(EXAMPLES[26].split(), 26)
    assert sorted(len(meld) for meld in arrangement) == [3, 3, 4, 4]
    assert not fits("K6 R6 B6 O6 K7 R7 B7 O7 K8 R8 B8 K9 R9 R10", 25)


def test_minor_51_groups_follows_its_condition():
    """docs/rules.md Decision: Minor 51 groups / runs are read as their condition says (groups or
    runs only, total at most 51); a tile above 9 is not excluded by the name."""
    result = classify(EXAMPLES[4])
    assert (result.type, result.name) == (4, "Minor 51 groups")
    assert any(t.number == 10 for meld in result.arrangement for t in meld)


def test_two_colours_means_exactly_two():
    """docs/rules.md Decision: "using only two colours" means exactly two (one colour is
    Single colour runs, worth more)."""
    assert not fits(EXAMPLES[23], 19)
    assert fits(EXAMPLES[23], 23)


def test_grand_square_eight_tiles_of_one_number_jokers_among_them():
    """rummikub.md: Grand square: eight tiles of one number, the other six anything; a joker may
    be one of the eight."""
    text = "K7 K7 R7 R7 B7 B7 O7 JK R1 B13 K2 O9 R11 B4"
    result = classify(text)
    assert (result.type, result.value) == (12, 1400)
    assert [str(t) for t in result.arrangement[0]][-1] == "JK=O7"
    assert not fits(text.replace("JK", "R2"), 12)


def test_waves_joker_takes_a_colour_unlike_its_neighbours():
    """docs/rules.md Decision: in mosaic and waves a joker takes a colour unlike its neighbours, so
    it never breaks "no two neighbours of one colour"."""
    text = "R1 B2 JK B4 R5 B6 R7 K1 O2 JK O4 K5 O6 K7"
    result = classify(text)
    assert result.type == 29
    runs = [[str(t) for t in run] for run in result.arrangement]
    check_arrangement(text.split(), 29, runs)
    assert runs[0][2] == runs[1][2] == "JK=K3"  # unlike B2 and B4, unlike O2 and O4
    assert not fits("R1 B2 R3 R4 R5 B6 R7 K1 O2 R3 R4 K5 O6 K7", 29)  # R3 R4 in both runs


def test_mosaic_is_one_run_1_to_1_of_mixed_colours():
    """rummikub.md: Mosaic: one run 1 (low) to 1 (high) of mixed colours, no two neighbours of one
    colour."""
    assert fits(EXAMPLES[28], 28)
    assert not fits(EXAMPLES[28].replace("B2", "R2"), 28)
    assert not fits("R1 B2 R3 B4 R5 B6 R7 B8 R9 B10 R11 B12 R13 O1".replace("O1", "O2"), 28)


def test_seven_pairs_of_identical_tiles():
    """rummikub.md: Seven pairs: seven pairs of identical tiles; minor, major, single colour."""
    assert classify(EXAMPLES[35]).type == 35
    assert not fits(EXAMPLES[35].replace("R8 R8", "R8 B8"), 35)
    result = classify("R1 R1 K3 K3 B5 B5 O7 O7 R9 R9 K11 K11 JK JK")
    assert (result.type, result.value) == (35, 1300)
    assert [str(t) for t in result.arrangement[-1]] == ["JK=K1", "JK=K1"]


def test_blitz_types_are_facts_given_with_the_hand():
    """rummikub.md Decision: types 39 and 40 depend on when the hand was melded, so they are
    given as facts (first_turn, original_hand, is_first_player), never guessed."""
    text = EXAMPLES[40]
    assert classify(text).type not in (39, 40)
    assert classify(text, first_turn=True).type == 39
    assert classify(text, first_turn=True, original_hand=True).type == 40
    assert classify(text, original_hand=True, is_first_player=True).type not in (39, 40)


def test_blitz_also_needs_groups_and_runs():
    """docs/rules.md Decision: Little and Grand Blitz need their facts and a groups/runs hand."""
    pairs = EXAMPLES[35]
    assert not fits(pairs, 39, first_turn=True)
    assert not fits(pairs, 40, first_turn=True, original_hand=True)


def test_equal_values_report_the_highest_numbered_type():
    """docs/rules.md Decision: among types of equal value the highest-numbered is reported."""
    text = EXAMPLES[8]
    assert fits(text, 5) and fits(text, 8)
    assert classify(text).type == 8


def test_classifier_returns_type_value_and_an_arrangement_or_none():
    """rummikub.md Decision: the classifier returns the winning type, its value, and one
    arrangement that proves it."""
    result = classify(EXAMPLES[1])
    check_arrangement(EXAMPLES[1].split(), 1, [[str(t) for t in m] for m in result.arrangement])
    assert classify("R1 K3 B5 O7 R9 K11 B13 O2 R4 K6 B8 O10 R12 K12") is None


def test_closed_hand_needs_14_tiles_and_the_copy_limits():
    """rummikub.md: 14 tiles each; two copies of a tile, two jokers."""
    with pytest.raises(RuleViolation) as caught:
        classify("R1 R2 R3")
    assert caught.value.code == "wrong_tile_count"
    with pytest.raises(RuleViolation) as caught:
        classify("JK JK JK R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11")
    assert caught.value.code == "too_many_copies"
    with pytest.raises(ValueError):
        fit_closed_hand_type(EXAMPLES[1].split(), 41)


def test_facts_default_to_false():
    """docs/rules.md Decision: first_turn, original_hand and is_first_player default to false,
    so a Blitz is never assumed."""
    assert classify(EXAMPLES[39]).type != 39
    assert not fits(EXAMPLES[39], 39) and not fits(EXAMPLES[39], 40)


# --- jokers declared with what they stand for ---------------------------------------------------

ROYAL_BUT_ONE = [f"R{n}" for n in range(1, 13)]


def test_a_declared_joker_stands_where_it_says_even_when_elsewhere_scores_more():
    """A bare joker completes the Royal (as R13); declared as R5 it stands there, and the hand is
    what the tiles with it at R5 make: less, but as the player declared it."""
    bare = classify_closed_hand([*ROYAL_BUT_ONE, "JK", "R1"])
    assert bare is not None and bare.name == "Royal"
    declared = classify_closed_hand([*ROYAL_BUT_ONE, "JK=R5", "R1"])
    assert declared is not None and declared.name != "Royal"
    assert declared.value < bare.value and declared.jokers == 1
    shown = [str(tile) for meld in declared.arrangement for tile in meld]
    assert shown.count("JK=R5") == 1 and "JK=R13" not in shown
    assert declared.value == DEFAULT_CLOSED_HAND_VALUES[declared.type - 1][1]
    as_royal = classify_closed_hand([*ROYAL_BUT_ONE, "JK=R13", "R1"])
    assert as_royal is not None and (as_royal.name, as_royal.value) == ("Royal", bare.value)


def test_a_declared_joker_that_cannot_stand_there_is_refused_naming_it():
    with pytest.raises(RuleViolation) as refused:
        classify_closed_hand([*ROYAL_BUT_ONE, "jk=b5", "R1"])
    assert refused.value.code == "joker_cannot_stand" and refused.value.token == "JK=B5"
    assert "JK=B5" in refused.value.message
    # A hand that fits nothing however its jokers stand is no closed hand, not a joker's fault.
    odd = ["R1", "R3", "B5", "B7", "K9", "K11", "O13", "O2", "R6", "B8", "K12", "O4", "R10", "JK"]
    assert classify_closed_hand(odd) is None
    assert classify_closed_hand([*odd[:-1], "JK=B13"]) is None


def test_one_type_asked_honours_a_declared_joker_too():
    assert fit_closed_hand_type([*ROYAL_BUT_ONE, "JK=R5", "R1"], 24) is None
    royal = fit_closed_hand_type([*ROYAL_BUT_ONE, "JK=R13", "R1"], 24)
    assert royal is not None and "JK=R13" in [str(t) for meld in royal for t in meld]


def test_the_batch_contract_answers_a_refused_declaration_as_an_error():
    from rules.evaluate import evaluate_request

    answer = evaluate_request(
        {
            "id": 7,
            "game": "rummikub",
            "variant": "international",
            "closed_hand": [*ROYAL_BUT_ONE, "JK=B5", "R1"],
        }
    )
    assert answer["id"] == 7 and answer["error"]["code"] == "joker_cannot_stand"
    assert answer["error"]["token"] == "JK=B5"


@st.composite
def jokered_hands(draw: st.DrawFn) -> list[str]:
    """14 tiles as runs of one colour each (lengths adding to 14), one or two of them jokers."""
    lengths = draw(st.sampled_from([(3, 3, 4, 4), (3, 3, 3, 5), (4, 5, 5), (3, 4, 7), (7, 7)]))
    tiles: list[str] = []
    for length in lengths:
        colour = draw(st.sampled_from("KRBO"))
        start = draw(st.integers(1, 14 - length))
        tiles += [f"{colour}{n}" for n in range(start, start + length)]
    for index in draw(st.lists(st.integers(0, 13), min_size=1, max_size=2, unique=True)):
        tiles[index] = "JK"
    return tiles


@settings(max_examples=150, deadline=None)
@given(jokered_hands())
def test_declaring_a_joker_as_it_stood_changes_nothing(tiles):
    """Whatever a bare joker stood for in the classifier's arrangement, declaring it so gives
    the same type and value."""
    try:
        found = classify_closed_hand(tiles)
    except RuleViolation:
        return  # too many copies of a tile: not a hand
    if found is None:
        return
    stood = [t for meld in found.arrangement for t in meld if t.is_joker and t.stands_for]
    if not stood:
        return  # an "any 14 tiles" type, where a joker may be anything
    again = list(tiles)
    again[again.index("JK")] = str(stood[0])
    declared = classify_closed_hand(again)
    assert declared is not None
    assert (declared.type, declared.value, declared.jokers) == (
        found.type, found.value, found.jokers,
    )  # fmt: skip
