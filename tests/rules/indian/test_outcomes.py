"""Points of each player in a deal (indian-rummy.md, "Outcome of a deal for each player";
formats.md pool and deals drops)."""

from __future__ import annotations

import dataclasses

import pytest

from rules.errors import RuleViolation
from rules.indian import HandResult, IndianPreset, Outcome, deal_points, parse_outcome

POINTS = IndianPreset()


def hand(score: int, valid: bool = False) -> HandResult:
    return HandResult(valid, score, ())


def test_outcome_names():
    assert [o.value for o in Outcome] == [
        "hand",
        "winner",
        "first_drop",
        "middle_drop",
        "missed_turns",
        "wrong_show",
        "late_declare",
        "valid_not_declared",
        "deal_show",
    ]
    assert parse_outcome("deal_show") is Outcome.DEAL_SHOW
    with pytest.raises(RuleViolation) as caught:
        parse_outcome("Winner")
    assert (caught.value.code, caught.value.token) == ("bad_outcome", "Winner")


def test_winner_with_a_valid_declaration_scores_0():
    """indian-rummy.md outcome: winner, valid declaration, 0."""
    assert deal_points(Outcome.WINNER, POINTS, hand(0, valid=True)) == 0


def test_winner_without_a_valid_declaration_scores_the_wrong_show():
    """Decision: a `winner` whose hand is not a valid declaration scores the wrong-show penalty."""
    assert deal_points(Outcome.WINNER, POINTS, hand(35)) == 80
    assert deal_points(Outcome.WINNER, IndianPreset(wrong_show=60), hand(35)) == 60


def test_loser_scores_the_hand_score_capped():
    """indian-rummy.md outcome: loser, hand score (cap 80)."""
    assert deal_points(Outcome.HAND, POINTS, hand(35)) == 35
    assert deal_points(Outcome.HAND, POINTS, hand(80)) == 80


def test_first_and_middle_drop():
    """indian-rummy.md outcome: first drop 20, middle drop 40; leaving the table is one of them."""
    assert deal_points(Outcome.FIRST_DROP, POINTS) == 20
    assert deal_points(Outcome.MIDDLE_DROP, POINTS) == 40


def test_three_missed_turns_score_the_middle_drop():
    """indian-rummy.md outcome: three consecutive missed turns, middle drop, 40."""
    assert deal_points(Outcome.MISSED_TURNS, POINTS) == 40
    assert deal_points(Outcome.MISSED_TURNS, IndianPreset.for_pool(201)) == 50
    assert deal_points(Outcome.MISSED_TURNS, IndianPreset(missed_turns=30)) == 30


def test_wrong_declaration_scores_80():
    """indian-rummy.md outcome: wrong declaration, 80."""
    assert deal_points(Outcome.WRONG_SHOW, POINTS) == 80


def test_failed_to_declare_in_time_scores_80():
    """indian-rummy.md outcome: failed to group and declare in time after finishing, 80."""
    assert deal_points(Outcome.LATE_DECLARE, POINTS) == 80


def test_valid_hand_not_declared_scores_2():
    """indian-rummy.md outcome: loser who met the objective but did not declare, 2."""
    assert deal_points(Outcome.VALID_NOT_DECLARED, POINTS, hand(0, valid=True)) == 2


def test_valid_not_declared_without_a_valid_hand_scores_the_hand():
    """Decision: `valid_not_declared` for a hand that is not valid scores it as a plain loser."""
    assert deal_points(Outcome.VALID_NOT_DECLARED, POINTS, hand(35)) == 35


@pytest.mark.parametrize(
    ("score", "points"), [(0, 2), (2, 2), (5, 2), (6, 3), (30, 15), (45, 22), (79, 39), (80, 40)]
)
def test_deal_show_is_half_the_hand_at_least_2_at_most_40(score, points):
    """indian-rummy.md outcome: deal show, floor(hand score / 2), at least 2, at most 40."""
    assert deal_points(Outcome.DEAL_SHOW, POINTS, hand(score)) == points


def test_outcomes_that_depend_on_the_cards_need_them():
    for outcome in (Outcome.HAND, Outcome.WINNER, Outcome.VALID_NOT_DECLARED, Outcome.DEAL_SHOW):
        assert outcome.needs_hand
        with pytest.raises(RuleViolation) as caught:
            deal_points(outcome, POINTS)
        assert caught.value.code == "hand_required"
    assert not Outcome.FIRST_DROP.needs_hand


def test_pool_101_drops_20_and_40():
    """indian-rummy.md / formats.md: 101 pool first drop 20, middle drop 40."""
    pool = IndianPreset.for_pool(101)
    assert (deal_points(Outcome.FIRST_DROP, pool), deal_points(Outcome.MIDDLE_DROP, pool)) == (
        20,
        40,
    )


def test_pool_201_drops_25_and_50():
    """indian-rummy.md / formats.md: 201 pool first drop 25, middle drop 50."""
    pool = IndianPreset.for_pool(201)
    assert (deal_points(Outcome.FIRST_DROP, pool), deal_points(Outcome.MIDDLE_DROP, pool)) == (
        25,
        50,
    )
    assert deal_points(Outcome.WRONG_SHOW, pool) == 80


@pytest.mark.parametrize("limit", [61, 100, "101", True, None])
def test_unknown_pool_is_refused(limit):
    with pytest.raises(RuleViolation) as caught:
        IndianPreset.for_pool(limit)
    assert caught.value.code == "bad_pool"


def test_no_drops_in_best_of_2_and_best_of_3():
    """indian-rummy.md (seed 000): no dropping in best-of-2 and best-of-3 deals games."""
    for deals in (2, 3):
        preset = IndianPreset.for_deals(deals)
        assert not preset.drops_allowed
        for drop in (Outcome.FIRST_DROP, Outcome.MIDDLE_DROP):
            with pytest.raises(RuleViolation) as caught:
                deal_points(drop, preset)
            assert caught.value.code == "drop_not_allowed"
    assert IndianPreset.for_deals(6).drops_allowed
    assert not IndianPreset.for_deals(6, drops_allowed=False).drops_allowed
    with pytest.raises(RuleViolation):
        IndianPreset.for_deals(0)


def test_missed_turns_still_score_where_drops_are_not_allowed():
    """Decision: missed turns are a penalty, not a choice: scored (middle drop) in no-drop games."""
    assert deal_points(Outcome.MISSED_TURNS, IndianPreset.for_deals(2)) == 40


def test_preset_is_frozen_typed_and_every_number_a_parameter():
    preset = IndianPreset()
    with pytest.raises(dataclasses.FrozenInstanceError):
        preset.cap = 100  # type: ignore[misc]
    assert dataclasses.asdict(preset) == {
        "decks": 2,
        "cap": 80,
        "winner": 0,
        "first_drop": 20,
        "middle_drop": 40,
        "missed_turns": None,
        "wrong_show": 80,
        "late_declare": 80,
        "valid_not_declared": 2,
        "deal_show_divisor": 2,
        "deal_show_min": 2,
        "deal_show_max": 40,
        "drops_allowed": True,
        "pure_sequence_relief": False,
    }
    assert IndianPreset.points(decks=3).decks == 3
    with pytest.raises(ValueError):
        IndianPreset(decks=0)
    with pytest.raises(TypeError):
        IndianPreset(cap=True)
    with pytest.raises(TypeError):
        IndianPreset(drops_allowed=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        IndianPreset(first_drop=-1)
