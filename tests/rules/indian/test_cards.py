"""Cards and notation (indian-rummy.md, "Cards and notation")."""

from __future__ import annotations

import pytest

from rules.errors import RuleViolation
from rules.indian import (
    CARDS,
    PRINTED_JOKER,
    Card,
    card_value,
    check_copies,
    check_deal_copies,
    format_card,
    format_hand_text,
    is_joker,
    parse_card,
    parse_cards,
    parse_groups,
    parse_hand_text,
    parse_wild,
)


def test_rank_then_suit_letter_or_symbol_canonical_output():
    """indian-rummy.md: rank A 2-10 J Q K then suit S H D C or ♠ ♥ ♦ ♣; canonical 10H QS AD 7C."""
    assert str(parse_card("10H")) == "10H"
    assert str(parse_card("QS")) == "QS"
    assert str(parse_card("AD")) == "AD"
    assert str(parse_card("7C")) == "7C"
    assert parse_card("10♥") is parse_card("10H")
    assert parse_card("Q♠") is parse_card("QS")
    assert parse_card("A♦") is parse_card("AD")
    assert parse_card("7♣") is parse_card("7C")
    assert parse_card("7♣\ufe0f") is parse_card("7C")  # emoji presentation of the symbol


def test_t_is_accepted_for_ten():
    """indian-rummy.md: T accepted for 10."""
    assert parse_card("TH") is parse_card("10H")
    assert parse_card("t♦") is parse_card("10D")


def test_input_is_case_insensitive():
    """indian-rummy.md: text notation input is case-insensitive, output canonical."""
    for token in ("qs", "Qs", "qS", "q♠"):
        assert format_card(parse_card(token)) == "QS"
    assert format_card(parse_card("10h")) == "10H"
    assert parse_card(" 10H ") is parse_card("10H")


def test_printed_joker_is_jk_and_accepts_pj_and_joker():
    """indian-rummy.md: printed joker JK (accept PJ and JOKER too)."""
    for token in ("JK", "jk", "PJ", "pj", "JOKER", "Joker", "joker"):
        assert parse_card(token) is PRINTED_JOKER
    assert str(PRINTED_JOKER) == "JK"
    assert PRINTED_JOKER.is_printed_joker
    assert PRINTED_JOKER.rank is None and PRINTED_JOKER.suit is None


def test_ranks_ace_to_king_and_four_suits():
    """indian-rummy.md: ranks A 2 .. 10 J Q K, suits spades, hearts, diamonds, clubs."""
    assert len(CARDS) == 53
    assert [Card.natural(rank, 0).rank for rank in range(1, 14)] == list(range(1, 14))
    assert [str(Card.natural(1, suit)) for suit in range(4)] == ["AS", "AH", "AD", "AC"]
    assert {card.suit for card in CARDS[:52]} == {0, 1, 2, 3}


def test_card_is_a_cheap_hashable_small_int_and_parse_format_round_trip():
    """Card type: a small interned int; parse(format(card)) is the card."""
    for card in CARDS:
        assert parse_card(format_card(card)) is card
        assert isinstance(card, int) and hash(card) == int(card)
    assert repr(parse_card("QS")) == "Card(QS)"
    with pytest.raises(ValueError):
        Card(53)


@pytest.mark.parametrize("token", ["4X", "1H", "11S", "", "H10", "JKR", "Q", "10", "♥", "ZZ"])
def test_unknown_card_is_rejected_naming_the_token(token):
    """indian-rummy.md: anything else (unknown rank or suit) is rejected naming the token."""
    with pytest.raises(RuleViolation) as caught:
        parse_card(token)
    assert caught.value.code == "bad_card"
    assert caught.value.token == token


@pytest.mark.parametrize(("token", "named"), [(5, "5"), (None, "null"), (["2H"], "<list>")])
def test_non_text_tokens_are_bad_cards(token, named):
    with pytest.raises(RuleViolation) as caught:
        parse_card(token)
    assert (caught.value.code, caught.value.token) == ("bad_card", named)


def test_bad_card_in_a_group_says_where():
    with pytest.raises(RuleViolation) as caught:
        parse_groups([["2H", "3H"], ["4H", "4X"]])
    assert caught.value.token == "4X"
    assert caught.value.details == {"group": 1, "position": 1}
    with pytest.raises(RuleViolation) as caught:
        parse_cards(["2H", "nope"])
    assert caught.value.details == {"position": 1}


def test_plain_text_hand_groups_separated_by_bars():
    """indian-rummy.md: groups separated by | and cards by spaces."""
    groups = parse_hand_text("2H 3H 4H | 5C 6C QD | 5H 5C JK QH QS")
    assert [len(group) for group in groups] == [3, 3, 5]
    assert format_hand_text(groups) == "2H 3H 4H | 5C 6C QD | 5H 5C JK QH QS"


def test_each_card_at_most_decks_times_in_a_hand():
    """indian-rummy.md: each natural card at most `decks` times in one hand (default 2)."""
    check_copies(parse_cards(["2H", "2H"]))
    with pytest.raises(RuleViolation) as caught:
        check_copies(parse_cards(["2H", "2H", "3S", "2h"]), tokens=["2H", "2H", "3S", "2h"])
    assert caught.value.code == "too_many_copies"
    assert caught.value.token == "2h"
    check_copies(parse_cards(["2H", "2H", "2H"]), decks=3)
    with pytest.raises(RuleViolation):
        check_copies(parse_cards(["2H", "2H"]), decks=1)


def test_printed_jokers_at_most_decks_times():
    """indian-rummy.md: printed jokers at most `decks` times (one per deck)."""
    check_copies(parse_cards(["JK", "PJ"]))
    with pytest.raises(RuleViolation) as caught:
        check_copies(parse_cards(["JK", "JK", "JOKER"]))
    assert caught.value.code == "too_many_copies"
    assert caught.value.details["card"] == "JK"


def test_copies_across_a_whole_deal():
    """indian-rummy.md: each card at most `decks` times in one deal (all hands together)."""
    hands = [parse_cards(["2H", "3H"]), parse_cards(["2H", "JK"]), parse_cards(["JK", "QS"])]
    check_deal_copies(hands)
    with pytest.raises(RuleViolation) as caught:
        check_deal_copies([*hands, parse_cards(["5C", "2H"])])
    assert caught.value.code == "too_many_copies"
    assert caught.value.token == "2H"
    assert caught.value.details == {"card": "2H", "decks": 2, "hand": 3}
    check_deal_copies([*hands, parse_cards(["2H"])], decks=3)


def test_deal_copies_count_the_cut_card_when_known():
    """Decision: the face-up cut card takes one copy of its card in the deal (not of one hand)."""
    hands = [parse_cards(["QH"]), parse_cards(["QH"])]
    check_deal_copies(hands)
    with pytest.raises(RuleViolation) as caught:
        check_deal_copies(hands, cut=parse_card("QH"))
    assert caught.value.details["hand"] == 1
    check_copies(parse_cards(["QH", "QH"]))  # one hand alone never counts the cut card


def test_wild_given_as_card_rank_or_printed_joker():
    """indian-rummy.md: the wild joker is a rank; a printed joker cut makes Aces wild (seed 004)."""
    assert parse_wild("QH") == 12
    assert parse_wild("Q") == 12
    assert parse_wild("q") == 12
    assert parse_wild("10") == 10
    assert parse_wild("T") == 10
    assert parse_wild("10♦") == 10
    assert parse_wild("A") == 1
    for token in ("JK", "PJ", "joker"):
        assert parse_wild(token) == 1


@pytest.mark.parametrize("token", ["", "X", "11", "QX", 12, None, "JKK"])
def test_bad_wild_is_rejected_naming_it(token):
    with pytest.raises(RuleViolation) as caught:
        parse_wild(token)
    assert caught.value.code == "bad_wild"


def test_every_card_of_the_wild_rank_is_a_joker_and_printed_jokers_always_are():
    """indian-rummy.md: wild Q makes QS QH QD QC all jokers; printed jokers are always jokers."""
    wild = parse_wild("Q")
    assert all(is_joker(parse_card(token), wild) for token in ("QS", "QH", "QD", "QC", "JK"))
    assert not is_joker(parse_card("KS"), wild)
    assert is_joker(PRINTED_JOKER, parse_wild("7"))


def test_card_values():
    """indian-rummy.md: A K Q J = 10; 2 to 10 face value; every joker (printed or wild) = 0."""
    wild = parse_wild("5")
    values = {token: card_value(parse_card(token), wild) for token in ("AS", "KH", "QD", "JC")}
    assert values == {"AS": 10, "KH": 10, "QD": 10, "JC": 10}
    assert [card_value(Card.natural(rank, 2), wild) for rank in (2, 3, 4, 6, 9, 10)] == [
        2,
        3,
        4,
        6,
        9,
        10,
    ]
    assert card_value(parse_card("5H"), wild) == 0
    assert card_value(PRINTED_JOKER, wild) == 0
