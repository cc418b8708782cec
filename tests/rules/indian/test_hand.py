"""Valid declaration and hand score of a grouped hand (indian-rummy.md, "Valid declaration (show)",
"Hand score" and the worked examples)."""

from __future__ import annotations

import pytest

from rules.errors import RuleViolation
from rules.indian import GroupKind, IndianPreset, parse_hand_text, parse_wild, score_groups
from rules.indian.hand import why_every_card_counts

from .helpers import declared

RELIEF = IndianPreset(pure_sequence_relief=True)
BIG_CAP = IndianPreset(cap=200)


# -- worked examples: valid declarations ---------------------------------------------------


def test_seed000_typical_example_is_valid():
    """indian-rummy.md example: wild Q, two pure sequences and a 5-card set with three jokers."""
    result = declared("2H 3H 4H 5H | 5C 6C 7C 8C | 5D 5C JK QH QS", "Q")
    assert (result.valid, result.score) == (True, 0)
    assert [g.kind for g in result.groups] == [
        GroupKind.PURE_SEQUENCE,
        GroupKind.PURE_SEQUENCE,
        GroupKind.SET,
    ]


def test_seed003_example_a_is_valid():
    """indian-rummy.md example: wild 8, `AD 2D 3D 4D | 5S 6S 7S | 9D 9S 9C | QS QD QC`."""
    result = declared("AD 2D 3D 4D | 5S 6S 7S | 9D 9S 9C | QS QD QC", "8")
    assert (result.valid, result.score) == (True, 0)


def test_seed003_example_b_is_valid_with_7h_standing_for_10c():
    """indian-rummy.md example: wild 7, `JC 7H QC` is impure."""
    result = declared("3H 4H 5H 6H | JC 7H QC | QS QD QC | 9S 9H 9C", "7")
    assert (result.valid, result.score) == (True, 0)
    assert result.groups[1].kind is GroupKind.IMPURE_SEQUENCE


# -- worked examples: wrong declarations ---------------------------------------------------


def test_seed000_example1_no_sequence_is_wrong():
    """indian-rummy.md: `10S 10H 10D 10C | 5S 5H 5D | 6S 6H 6C | 9H 9D JK`, no sequence at all."""
    result = declared("10S 10H 10D 10C | 5S 5H 5D | 6S 6H 6C | 9H 9D JK", "2")
    assert not result.valid
    assert result.score == 80  # every card counts: 40 + 15 + 18 + 18 = 91, capped


def test_seed000_example2_two_impure_sequences_no_pure_is_wrong():
    """indian-rummy.md: wild 4, `KH KS KD | 6H 7H JK | 9S 10S JS JK | 5S 5H 5D`, no pure one."""
    result = declared("KH KS KD | 6H 7H JK | 9S 10S JS JK | 5S 5H 5D", "4")
    assert not result.valid
    assert result.score == 80


def test_seed000_example3_only_one_sequence_is_wrong():
    """indian-rummy.md: `QH QS QD | 6C 7C 8C 9C | 5S 5H 5D | 10S 10H 10D`, one sequence."""
    result = declared("QH QS QD | 6C 7C 8C 9C | 5S 5H 5D | 10S 10H 10D", "2")
    assert (result.valid, result.score) == (False, 80)


def test_invalid_set_makes_the_declaration_wrong():
    """indian-rummy.md: `7S 7H 7D 7S QH` with Q wild (two 7S) is an invalid group."""
    result = declared("2H 3H 4H | 9S 10S JK | 7S 7H 7D 7S QH | KD KS", "Q")
    assert not result.valid
    assert result.score == 7 * 4 + 20  # two sequences: only the invalid groups count


# -- valid declaration rules -----------------------------------------------------------------


def test_rule1_every_group_valid():
    """indian-rummy.md valid declaration 1: every card in a group, every group valid."""
    assert declared("2H 3H 4H | 5C 6C 7C | 9S 9H 9D | KS KH KD KC", "8").valid
    result = declared("2H 3H 4H | 5C 6C 7C | 9S 9H 9D | KS KH KD | KC", "8")
    assert not result.valid and result.score == 10


def test_rule1_exactly_13_cards():
    """indian-rummy.md valid declaration 1: exactly 13 cards (else an error naming no token)."""
    with pytest.raises(RuleViolation) as caught:
        declared("2H 3H 4H | 5C 6C 7C", "8")
    assert caught.value.code == "wrong_card_count"
    assert caught.value.details == {"count": 6, "expected": 13}
    with pytest.raises(RuleViolation):
        declared("2H 3H 4H | 5C 6C 7C | 9S 9H 9D | KS KH KD KC | 2S", "8")


def test_rule2_at_least_two_sequences():
    """indian-rummy.md valid declaration 2: at least two sequences."""
    result = declared("2H 3H 4H | 9S 9H 9D | KS KH KD KC | 7C 7S 7H", "8")
    assert not result.valid
    assert result.score == 80  # every card counts: 9 + 27 + 40 + 21, capped


def test_rule3_at_least_one_pure_sequence():
    """indian-rummy.md valid declaration 3: at least one of the sequences is pure."""
    result = declared("2H 3H JK | 5C 6C JK | 4S 4H 4D | 3S 3D 3C 3H", "8")
    assert not result.valid
    assert result.score == 2 + 3 + 5 + 6 + 12 + 12


def test_copies_limit_in_a_declaration():
    """indian-rummy.md: more copies than the decks hold is rejected naming the card."""
    with pytest.raises(RuleViolation) as caught:
        declared("2H 2H 2H | 9S 10S JK | 7S 7H 7D 7C QH | KD KS", "Q")
    assert caught.value.code == "too_many_copies"
    preset = IndianPreset(decks=3)
    result = declared("2H 2H 2H | 9S 10S JK | 7S 7H 7D 7C QH | KD KS", "Q", preset)
    assert result.score == 6 + 19 + 28 + 20  # one sequence only: every card counts


# -- hand score ------------------------------------------------------------------------------


def test_seed000_player1_scores_35_not_45():
    """indian-rummy.md Decision: seed prints 45, but QS is a joker with Q wild: 35."""
    result = declared("2H 3H 4H | 5C 6C QH | 8D 8S 5C | 2H 2C | KS QS", "Q")
    assert (result.valid, result.score) == (False, 35)


def test_seed000_player2_without_two_sequences_every_card_counts():
    """indian-rummy.md: `4S 4H 4C | 4D 5D QH | 3S 7S 8S | QD KD | 10C 9C`, all cards: 68."""
    result = declared("4S 4H 4C | 4D 5D QH | 3S 7S 8S | QD KD | 10C 9C", "Q")
    assert result.score == 68


def test_seed000_player3_only_unmatched_cards_count():
    """indian-rummy.md: `3H 4H 5H | 5C 6C 7C QH | 8D 5C | 2H 2C 2D | KS`: 8 + 5 + 10 = 23."""
    result = declared("3H 4H 5H | 5C 6C 7C QH | 8D 5C | 2H 2C 2D | KS", "Q")
    assert result.score == 23


def test_cards_in_valid_sets_do_not_count_with_two_sequences():
    """indian-rummy.md: with two sequences (one pure) cards in valid sets do not count."""
    result = declared("2H 3H 4H | 5C 6C JK | KS KH KD | 9S 9H | 7C 8D", "3C")
    assert result.score == 9 + 9 + 7 + 8


def test_jokers_in_invalid_groups_count_zero():
    """indian-rummy.md: cards in invalid groups count, every joker is worth 0."""
    result = declared("2H 3H 4H | 5C 6C 7C | JK 9D 8C | KS KH KD | 9C", "Q")
    assert result.score == 9 + 8 + 9


def test_score_is_capped_at_80():
    """indian-rummy.md: the hand score is capped at 80."""
    result = declared("KS KH | QS QH | JS JH | 10S 10H | 9S 9H 9D | AC 8C", "2")
    assert result.score == 80
    uncapped = declared("KS KH | QS QH | JS JH | 10S 10H | 9S 9H 9D | AC 8C", "2", BIG_CAP)
    assert uncapped.score == 125


def test_pure_sequence_relief_is_off_by_default():
    """indian-rummy.md: `pure_sequence_relief` off by default, the seeds count every card."""
    text = "2H 3H 4H | 9S 9H 9D | 2S 2D | 5C 7C | 6D 8D 3S"
    assert declared(text, "Q").score == 9 + 27 + 4 + 12 + 17
    assert IndianPreset().pure_sequence_relief is False


def test_pure_sequence_relief_excuses_the_pure_sequence_only():
    """indian-rummy.md preset option: with `pure_sequence_relief` the cards of a pure sequence are
    excused even when the second sequence is missing (sets still count)."""
    text = "2H 3H 4H | 9S 9H 9D | 2S 2D | 5C 7C | 6D 8D 3S"
    assert declared(text, "Q", RELIEF).score == 27 + 4 + 12 + 17
    # no pure sequence: nothing is excused
    text = "2H 3H JK | 9S 9H 9D | 2S 2D | 5C 7C | 6D 8D 3S"
    assert declared(text, "Q", RELIEF).score == 5 + 27 + 4 + 12 + 17


def test_score_groups_any_size_and_result_helpers():
    groups = parse_hand_text("2H 3H 4H | 5C 6C 7C")
    result = score_groups(groups, 8)
    assert result.valid and result.score == 0
    assert [str(card) for card in result.cards] == ["2H", "3H", "4H", "5C", "6C", "7C"]
    assert result.as_dict()["groups"][0] == {"cards": ["2H", "3H", "4H"], "kind": "pure_sequence"}


GROUP_OF_KIND = {  # with Q wild: each group, and the points its cards are worth
    "pure_sequence": ("2S 3S 4S", 9),
    "impure_sequence": ("5H 6H JK", 11),
    "set": ("9C 9D 9H", 27),
    "invalid": ("KC 2D", 12),
}


@pytest.mark.parametrize(
    ("kinds", "why"),
    [
        (["pure_sequence", "impure_sequence", "set", "invalid"], None),
        (["pure_sequence", "pure_sequence", "invalid"], None),
        (["impure_sequence", "impure_sequence", "set"], "no_pure_sequence"),
        (["set", "set", "invalid"], "no_pure_sequence"),
        (["pure_sequence", "set", "set", "invalid"], "one_sequence"),
    ],
)
def test_rule_two_sequences_one_pure_else_every_card_counts_names_why(kinds, why):
    """indian-rummy.md, hand score: the reason the deal page gives for a loser's whole hand
    counting follows the same rule as the score."""
    assert why_every_card_counts(kinds) == why
    hand = [parse_hand_text(GROUP_OF_KIND[kind][0])[0] for kind in kinds]
    result = score_groups(hand, parse_wild("QH"))
    assert [group.kind for group in result.groups] == kinds
    counted = [kind for kind in kinds if why is not None or kind == "invalid"]
    assert result.score == min(sum(GROUP_OF_KIND[kind][1] for kind in counted), 80)
