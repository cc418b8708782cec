"""Properties of the engine, checked on generated hands (hypothesis)."""

from __future__ import annotations

from collections import Counter
from itertools import chain

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.indian import (
    CARDS,
    PRINTED_JOKER,
    GroupKind,
    IndianPreset,
    arrange,
    best_arrangement,
    classify_group,
    format_card,
    is_joker,
    parse_card,
    score_declaration,
    score_groups,
)

from .reference import brute_force

FAST = settings(max_examples=150, deadline=None)
RELIEF = IndianPreset(pure_sequence_relief=True)
TWO_DECKS = [CARDS[i % 53] for i in range(106)]  # every card twice, two printed jokers

ranks = st.integers(1, 13)
suits = st.integers(0, 3)


def natural(rank: int, suit: int) -> int:
    return CARDS[suit * 13 + (rank - 1) % 13]  # rank 14 is the ace, high


@st.composite
def hands(draw, size=13):
    """``size`` cards drawn from two decks, and a wild rank."""
    picks = draw(st.lists(st.integers(0, 105), min_size=size, max_size=size, unique=True))
    return [TWO_DECKS[i] for i in picks], draw(ranks)


@st.composite
def dense_hands(draw, min_size=4, max_size=8):
    """Small hands from a few suits and a narrow band of ranks, plus jokers: many groups."""
    wild = draw(ranks)
    band = draw(st.integers(1, 10))
    pool = [
        natural(r, s)
        for s in draw(st.sets(suits, min_size=1, max_size=3))
        for r in range(band, band + 5)
    ]
    pool = pool * 2 + [PRINTED_JOKER] * 2 + [natural(wild, s) for s in range(4)]
    size = draw(st.integers(min_size, max_size))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    cards = [pool[i] for i in picks]
    assume(max(Counter(cards).values()) <= 2)
    return cards, wild


@st.composite
def declarations(draw, printed_jokers_only=False):
    """A valid 13-card declaration: a pure run, another run, then runs or sets."""
    sizes = draw(st.sampled_from([(3, 3, 3, 4), (4, 3, 3, 3), (4, 4, 5), (3, 5, 5), (3, 4, 6)]))
    wild = draw(ranks)
    groups = []
    printed_left = 2  # two decks hold two printed jokers
    for index, size in enumerate(sizes):
        kind = (
            "pure" if index == 0 else "run" if index == 1 else draw(st.sampled_from(["run", "set"]))
        )
        if kind == "set":
            rank = draw(ranks)
            chosen = draw(st.permutations(range(4)))[: min(size, 4)]
            group = [natural(rank, s) for s in chosen] + [PRINTED_JOKER] * (size - len(chosen))
        else:
            suit = draw(suits)
            start = draw(st.integers(1, 15 - size))
            group = [natural(r, suit) for r in range(start, start + size)]
        if kind != "pure":
            most = max(0, min(size - 1, printed_left)) if printed_jokers_only else size - 1
            for k in draw(st.sets(st.integers(0, size - 1), max_size=most)):
                group[k] = (
                    PRINTED_JOKER
                    if printed_jokers_only or draw(st.booleans())
                    else (natural(wild, draw(suits)))
                )
            printed_left -= sum(card.is_printed_joker for card in group)
        groups.append(group)
    cards = [card for group in groups for card in group]
    assume(max(Counter(cards).values()) <= 2)
    if printed_jokers_only:
        present = {card.rank for card in cards if not card.is_printed_joker}
        free = [rank for rank in range(1, 14) if rank not in present]
        assume(free)
        wild = draw(st.sampled_from(free))
    assume(score_declaration(groups, wild).valid)
    return groups, wild


@st.composite
def groupings(draw, cards):
    """Some grouping of ``cards`` (shuffled, cut into random sizes)."""
    order = draw(st.permutations(cards))
    groups, at = [], 0
    while at < len(order):
        size = draw(st.integers(1, 6))
        groups.append(list(order[at : at + size]))
        at += size
    return groups


@FAST
@given(st.data())
def test_order_of_groups_and_cards_never_changes_the_score(data):
    """Order of entry does not matter (indian-rummy.md, Groups): groups and cards shuffled."""
    cards, wild = data.draw(
        st.one_of(hands(), declarations().map(lambda d: (list(chain(*d[0])), d[1])))
    )
    groups = data.draw(groupings(cards))
    result = score_groups(groups, wild)
    shuffled = [data.draw(st.permutations(group)) for group in data.draw(st.permutations(groups))]
    again = score_groups(shuffled, wild)
    assert (again.valid, again.score) == (result.valid, result.score)
    assert Counter(g.kind for g in again.groups) == Counter(g.kind for g in result.groups)


@FAST
@given(hands(), st.data())
def test_order_of_cards_never_changes_the_best_arrangement(hand, data):
    cards, wild = hand
    result = arrange(cards, wild)
    assert arrange(data.draw(st.permutations(cards)), wild) == result


@FAST
@given(st.data())
def test_best_arrangement_is_never_worse_than_any_grouping(data):
    """Best arrangement: the lowest score; 0 exactly when a valid declaration exists."""
    cards, wild = data.draw(
        st.one_of(hands(), declarations().map(lambda d: (list(chain(*d[0])), d[1])))
    )
    result = best_arrangement(cards, wild)
    for _ in range(5):
        grouped = score_groups(data.draw(groupings(cards)), wild)
        assert result.score <= grouped.score
        assert not grouped.valid or result.valid
    assert (result.score == 0) == result.valid
    assert 0 <= result.score <= 80
    assert sorted(result.cards) == sorted(cards)
    again = score_groups([group.cards for group in result.groups], wild)
    assert (again.valid, again.score) == (result.valid, result.score)


@FAST
@given(declarations())
def test_a_valid_declaration_is_found_from_its_cards(declaration):
    groups, wild = declaration
    cards = list(chain(*groups))
    assert (best_arrangement(cards, wild).valid, best_arrangement(cards, wild).score) == (True, 0)


@FAST
@given(st.data())
def test_scores_are_within_0_and_80(data):
    """indian-rummy.md: the hand score is capped at 80 (and never negative)."""
    cards, wild = data.draw(hands())
    result = score_groups(data.draw(groupings(cards)), wild)
    assert 0 <= result.score <= 80


@FAST
@given(declarations(), st.data())
def test_a_joker_in_place_of_a_natural_card_keeps_a_group_valid(declaration, data):
    """indian-rummy.md: a joker may stand for any card in a set or an impure sequence."""
    groups, wild = declaration
    candidates = [
        group
        for group in groups
        if classify_group(group, wild) in (GroupKind.IMPURE_SEQUENCE, GroupKind.SET)
    ]
    assume(candidates)
    group = list(data.draw(st.sampled_from(candidates)))
    naturals = [k for k, card in enumerate(group) if not is_joker(card, wild)]
    assume(naturals)
    group[data.draw(st.sampled_from(naturals))] = PRINTED_JOKER
    assert classify_group(group, wild) is not GroupKind.INVALID


@FAST
@given(declarations(printed_jokers_only=True))
def test_declaration_with_only_printed_jokers_is_valid_whatever_the_wild_rank(declaration):
    """A wild rank only adds jokers: a card of it is natural at its place, a joker elsewhere.

    The one exception is the Decision that a group made only of jokers is a set: a sequence whose
    natural cards are all of the new wild rank (``JK JK 3S`` with 3 wild) becomes such a group
    (see ``test_groups.py::test_sequence_of_wild_rank_cards_and_jokers_only_becomes_a_set``)."""
    groups, _ = declaration
    for wild in range(1, 14):
        emptied = [
            group
            for group in groups
            if all(card.is_printed_joker or card.rank == wild for card in group)
        ]
        if emptied:
            assert all(classify_group(group, wild) is GroupKind.SET for group in emptied)
            continue
        assert score_declaration(groups, wild).valid, wild


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CARDS), st.sampled_from([str.upper, str.lower, str.title]))
def test_parse_format_round_trip(card, case):
    assert parse_card(format_card(card)) is card
    assert parse_card(case(format_card(card))) is card


@settings(max_examples=150, deadline=None)
@given(dense_hands(), st.booleans())
def test_best_arrangement_agrees_with_brute_force(hand, relief):
    """The exact search agrees with trying every partition (small hands, many groups)."""
    cards, wild = hand
    preset = RELIEF if relief else IndianPreset()
    result = arrange(cards, wild, preset)
    assert (result.score, result.valid) == brute_force(cards, wild, preset)
