"""Best arrangement of ungrouped cards (indian-rummy.md, "Hand score": best arrangement)."""

from __future__ import annotations

import pytest

from rules.errors import RuleViolation
from rules.indian import (
    GroupKind,
    IndianPreset,
    best_arrangement,
    parse_cards,
    parse_wild,
    score_groups,
)

from .helpers import best, shown
from .reference import brute_force

RELIEF = IndianPreset(pure_sequence_relief=True)


def check(result, wild):
    """The arrangement accounts for all its cards and scores as it says."""
    again = score_groups([group.cards for group in result.groups], parse_wild(wild))
    assert (again.valid, again.score) == (result.valid, result.score)
    assert [group.kind for group in again.groups] == [group.kind for group in result.groups]


def test_best_player3_rearranging_runs_frees_a_card_for_a_set():
    """indian-rummy.md best arrangement: seed player 3 ungrouped scores 22 (declared: 23)."""
    text = "3H 4H 5H 5C 6C 7C QH 8D 5C 2H 2C 2D KS"
    result = best(text, "Q")
    assert (result.valid, result.score) == (False, 22)
    assert shown(result) == "2H 3H 4H | 5C 6C 7C | 5H 5C QH | KS 2D 8D 2C"
    check(result, "Q")


def test_best_player1_scores_19():
    """indian-rummy.md best arrangement: seed player 1 ungrouped scores 19 (declared: 35)."""
    result = best("2H 3H 4H 5C 6C QH 8D 8S 5C 2H 2C KS QS", "Q")
    assert (result.valid, result.score) == (False, 19)
    kinds = [group.kind for group in result.groups]
    assert kinds == [
        GroupKind.PURE_SEQUENCE,
        GroupKind.IMPURE_SEQUENCE,
        GroupKind.SET,
        GroupKind.INVALID,
    ]
    check(result, "Q")


def test_printed_joker_cut_aces_wild_declaration_is_found():
    """indian-rummy.md: a printed joker cut makes Aces wild; the engine finds the valid hand."""
    result = best("AH 2S 3S 4S 5D 6D 7D KC KH KS 9H 9C AS", "JK")
    assert (result.valid, result.score) == (True, 0)
    assert all(group.kind is not GroupKind.INVALID for group in result.groups)
    check(result, "JK")


def test_says_whether_a_valid_declaration_exists():
    """indian-rummy.md best arrangement: says whether a valid declaration exists."""
    assert best("AD 2D 3D 4D 5S 6S 7S 9D 9S 9C QS QD QC", "8").valid
    assert not best("10S 10H 10D 10C 5S 5H 5D 6S 6H 6C 9H 9D JK", "2").valid


def test_without_a_pure_sequence_every_card_counts_and_groups_are_still_shown():
    """indian-rummy.md: otherwise every card counts; the groups the cards make are still shown."""
    result = best("10S 10H 10D 10C 5S 5H 5D 6S 6H 6C 9H 9D JK", "2")
    assert result.score == 80
    assert [group.kind for group in result.groups].count(GroupKind.SET) == 4
    check(result, "2")


def test_wild_card_at_its_place_supplies_the_pure_sequence():
    """indian-rummy.md: a wild-rank card at its natural place keeps a run pure (seed 004)."""
    result = best("5H 6H 7H 9S 10S JK KD KS KC 2H 2S 2D 2C", "6C")
    assert (result.valid, result.score) == (True, 0)
    assert shown(result).startswith("5H 6H 7H")
    # without 6H's help there is no pure sequence: every card counts
    result = best("5H 6S 7H 9S 10S JK KD KS KC 2H 2S 2D 2C", "6C")
    assert (result.valid, result.score) == (False, 5 + 7 + 9 + 10 + 30 + 8)


def test_spare_jokers_are_placed_in_a_valid_group():
    """Decision: jokers nothing needs join a valid group when every other card is matched."""
    result = best("2H 3H 4H 5C 6C 7C 9S 9H 9D KS KH JK JK", "8")
    assert (result.valid, result.score) == (True, 0)
    assert shown(result) == "2H 3H 4H | 5C 6C 7C | 9S 9H 9D JK | KS KH JK"
    check(result, "8")


def test_leftover_cards_come_last_as_one_invalid_group():
    """Decision: cards no group uses come last, together, as one `invalid` group."""
    result = best("2H 3H 4H 5C 6C 7C 9S 9H 9D KS QH 3D 8D", "10")
    assert result.groups[-1].kind is GroupKind.INVALID
    assert shown(result).endswith(" | KS QH 3D 8D")
    assert result.score == 10 + 10 + 3 + 8
    assert sorted(result.cards) == sorted(parse_cards(result_cards(result)))


def result_cards(result):
    return [str(card) for group in result.groups for card in group.cards]


def test_runs_are_shown_in_order_with_jokers_where_they_stand():
    result = best("5D 7D JK 9S 10S QS 2H 3H 4H KC KH KD 8C", "Q")
    assert "5D JK 7D" in shown(result) or "5D QS 7D" in shown(result)


def test_ace_high_run_is_found():
    result = best("QH KH AH 9S 10S JK KD KS KC 2H 2S 2D 2C", "5C")
    assert (result.valid, result.score) == (True, 0)
    assert shown(result).startswith("QH KH AH")


def test_thirteen_card_run_split_into_two_sequences():
    result = best("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "2C")
    assert (result.valid, result.score) == (True, 0)


def test_relief_preset_prefers_excusing_the_pure_sequence_when_lower():
    """indian-rummy.md preset option `pure_sequence_relief` also applies to the best arrangement."""
    text = "10H JH QH KH 2S 3C 5D 7S 9C 4D 6S 8C 2D"
    plain = best(text, "A")
    relieved = best(text, "A", RELIEF)
    assert plain.score == 80
    assert relieved.score == 2 + 3 + 5 + 7 + 9 + 4 + 6 + 8 + 2
    assert relieved.groups[0].kind is GroupKind.PURE_SEQUENCE


def test_best_arrangement_checks_count_and_copies():
    with pytest.raises(RuleViolation) as caught:
        best_arrangement(parse_cards("2H 3H 4H".split()), 5)
    assert caught.value.code == "wrong_card_count"
    with pytest.raises(RuleViolation) as caught:
        best_arrangement(parse_cards("2H 2H 2H 5C 6C 7C 9S 9H 9D KS QH 3D 8C".split()), 5)
    assert caught.value.code == "too_many_copies"
    result = best_arrangement(parse_cards("2H 3H 4H 5C 6C 7C 9S 9H 9D KS QH 3D 8D".split()), 10)
    assert result.score == 31


@pytest.mark.parametrize(
    ("text", "wild"),
    [
        ("2H 3H 4H 5C 6C QH 8D 8S", "Q"),
        ("5H 6H 7H 6S 6D 6C JK", "6"),
        ("AH 2H QH KH JK 3S 4S 5S", "7"),
        ("4H 5H 7H 7S 7D 6H 3H", "6"),
        ("AS 2S 3S AH AD JK QS KS", "A"),
        ("9C 10C JC QC KC AC 9D", "2"),
    ],
)
def test_agrees_with_the_brute_force_reference(text, wild):
    result = best(text, wild)
    assert (result.score, result.valid) == brute_force(parse_cards(text.split()), parse_wild(wild))


def test_thirteen_jokers_score_0_but_are_not_a_valid_declaration():
    """Decision (consequence): jokers alone never make a sequence, so with three decks a hand of
    13 jokers counts 0 points yet cannot be declared. With two decks at most 10 jokers exist, and
    a score of 0 means exactly that a valid declaration exists."""
    cards = parse_cards(["QS", "QH", "QD", "QC"] * 3 + ["JK"])
    result = best_arrangement(cards, parse_wild("Q"), IndianPreset(decks=3))
    assert (result.valid, result.score) == (False, 0)
