"""Groups: sequences, sets and jokers (indian-rummy.md, "Jokers" and "Groups")."""

from __future__ import annotations

import itertools

import pytest

from rules.indian import GroupKind, classify_group, parse_cards, parse_wild

from .helpers import declared, kind

PURE = GroupKind.PURE_SEQUENCE
IMPURE = GroupKind.IMPURE_SEQUENCE
SET = GroupKind.SET
INVALID = GroupKind.INVALID


def test_sequence_is_three_or_more_consecutive_cards_of_one_suit():
    """indian-rummy.md: sequence, 3 or more cards of one suit with consecutive ranks."""
    assert kind("5H 6H 7H", "2") is PURE
    assert kind("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "2") is PURE
    assert kind("5H 6H", "2") is INVALID
    assert kind("5H 6H 7S", "2") is INVALID
    assert kind("5H 6H 8H", "2") is INVALID


def test_ace_low_or_high_never_both_never_wrapping():
    """indian-rummy.md: ace low (AH 2H 3H) or high (QH KH AH), never both; KH AH 2H is invalid."""
    assert kind("AH 2H 3H", "7") is PURE
    assert kind("QH KH AH", "7") is PURE
    assert kind("JH QH KH AH", "7") is PURE
    assert kind("KH AH 2H", "7") is INVALID
    assert kind("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "5") is PURE  # 5H at its place
    assert kind("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "5") is INVALID  # ace twice
    assert kind("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK", "5") is INVALID  # 14 places


def test_joker_never_makes_a_run_wrap():
    """indian-rummy.md: never wrapping, also with jokers (K A 2 via a joker)."""
    assert kind("KH JK 2H", "7") is INVALID
    assert kind("KH AH JK", "7") is IMPURE  # Q K A
    assert kind("2H AH JK", "7") is IMPURE  # A 2 3


def test_order_of_entry_does_not_matter():
    """indian-rummy.md: order of entry does not matter."""
    wild = parse_wild("Q")
    for text in ("5H 6H 7H 8H", "6H 7H QS 9H", "5H 5C JK QH QS", "KH AH 2H", "QH KH AH"):
        cards = parse_cards(text.split())
        kinds = {classify_group(order, wild) for order in itertools.permutations(cards)}
        assert len(kinds) == 1, text


def test_pure_sequence_has_no_joker_standing_in():
    """indian-rummy.md: pure sequence, no joker stands in for a missing card."""
    assert kind("9S 10S JS", "2") is PURE
    assert kind("9S 10S JS JK", "2") is IMPURE


def test_impure_sequence_has_a_joker_standing_in():
    """indian-rummy.md: impure sequence, `6H 7H QS 9H` with Q wild."""
    assert kind("6H 7H QS 9H", "Q") is IMPURE
    assert kind("6H QS 9H", "Q") is INVALID  # one joker cannot fill two gaps
    assert kind("5S QH 7S 8S JK", "Q") is IMPURE  # seed 000: Q for 6S and JK for 9S


def test_printed_joker_never_makes_a_pure_sequence():
    """indian-rummy.md: a printed joker never makes a pure sequence."""
    assert kind("5H 6H JK", "2") is IMPURE
    assert kind("JK 6H 7H 8H", "2") is IMPURE


def test_wild_card_at_its_natural_place_keeps_a_run_pure():
    """indian-rummy.md (seed 004): with 6 wild, 5H 6H 7H is a pure sequence."""
    assert kind("5H 6H 7H", "6") is PURE
    assert kind("6H 7H 8H", "6") is PURE
    assert kind("4H 5H 6H", "6C") is PURE
    assert kind("5H 6S 7H", "6") is IMPURE  # 6S is not at its place: a joker for 6H
    assert kind("5H 6H 6H 7H", "6") is IMPURE  # the second 6H stands for 4H or 8H


def test_wild_aces_at_their_place_when_a_printed_joker_is_cut():
    """indian-rummy.md: printed joker cut makes Aces wild; an ace at its place stays natural."""
    assert kind("AS 2S 3S", "JK") is PURE
    assert kind("QS KS AS", "JK") is PURE
    assert kind("2S 3S AH", "JK") is IMPURE


def test_set_is_three_or_more_cards_of_one_rank_all_different_suits():
    """indian-rummy.md: set, 3 or more cards of one rank, all of different suits."""
    assert kind("9D 9S 9C", "8") is SET
    assert kind("9D 9S 9C 9H", "8") is SET
    assert kind("9D 9S", "8") is INVALID
    assert kind("9D 9S 8C", "2") is INVALID


def test_set_without_jokers_has_three_or_four_cards():
    """indian-rummy.md: without jokers a set has 3 or 4 cards (a fifth repeats a suit)."""
    assert kind("9D 9S 9C 9H 9D", "8") is INVALID


def test_jokers_may_stand_in_and_make_a_set_longer_than_four():
    """indian-rummy.md: `5H 5C JK QH QS` with Q wild is a 5-card set."""
    assert kind("5H 5C JK QH QS", "Q") is SET
    assert kind("5S 5H 5D 5C JK QH", "Q") is SET
    assert kind("9H QS 9S", "Q") is SET


def test_duplicate_suit_invalidates_a_set_even_with_a_joker():
    """indian-rummy.md: `10S 10S 10H 10C QH` is invalid; set `QH QH QS`; `7S 7H 7D 7S QH`."""
    assert kind("10S 10S 10H 10C QH", "Q") is INVALID
    assert kind("7S 7H 7D 7S QH", "Q") is INVALID
    assert kind("QH QH QS", "2") is INVALID


def test_group_of_only_jokers_is_a_valid_set():
    """indian-rummy.md Decision: a group made only of jokers is a valid set, never a sequence."""
    assert kind("JK JK QH", "Q") is SET
    assert kind("QS QS QH", "Q") is SET  # wild-rank cards are jokers: their suits do not matter
    assert kind("6H JK JK", "6") is SET  # 6H is a joker here, so not "6H 7H 8H"
    assert kind("JK JK", "Q") is INVALID  # still 3 cards at least


def test_sequence_of_wild_rank_cards_and_jokers_only_becomes_a_set():
    """indian-rummy.md Decision (all jokers: a set, never a sequence), applied when the wild rank
    turns the only natural card of a run into a joker: `JK JK 3S` is a sequence with 4 wild, a set
    with 3 wild, so a declaration that needed it as its second sequence is no longer valid."""
    assert kind("JK JK 3S", "4") is IMPURE
    assert kind("JK JK 3S", "3") is SET
    text = "AS 2S 3S | JK JK 3S | AS AH AD | 2S 2H 2D 2C"
    assert declared(text, "4").valid
    assert not declared(text, "3").valid


def test_most_favourable_kind_when_a_group_reads_several_ways():
    """indian-rummy.md Decision: `5H JK JK` takes the most favourable kind: pure, impure, set."""
    assert kind("5H JK JK", "2") is IMPURE  # also a set of 5s
    assert kind("5H 5H JK", "2") is INVALID  # two 5H: neither a run nor a set
    assert kind("5H 6H 7H", "6") is PURE  # also impure (6H as joker)


@pytest.mark.parametrize("text", ["", "5H", "5H 6H"])
def test_fewer_than_three_cards_is_never_a_group(text):
    assert kind(text, "2") is INVALID


def test_group_kind_helpers():
    assert PURE.is_sequence and IMPURE.is_sequence and not SET.is_sequence
    assert SET.is_valid and not INVALID.is_valid
    assert str(PURE) == "pure_sequence"
