"""House rules (``HouseRules``, docs/rules.md "House rules"): each option against an exact search
over every partition of small hands, with an independent, slow reading of the groups; and every
spelling of an option or of the cut card reads the same."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.evaluate import evaluate_request
from rules.indian import CARDS, PRINTED_JOKER, arrange, parse_card, parse_cards, score_groups
from rules.indian.cards import EXACT_WILD, FREE_CUT_WILD, parse_wild
from rules.indian.groups import GroupKind, classify_group
from rules.indian.hand import only_unmatched_count
from rules.indian.preset import (
    DEFAULT_HOUSE_RULES,
    DEFAULT_PRESET,
    Declaration,
    HouseRules,
    IndianPreset,
    JokerLimit,
    JokerLimitScope,
    WildJoker,
)

# Oracle: a group read card by card, every window of places tried.


def _is_joker(card: int, wild: int) -> bool:
    if card == 52:
        return True
    if wild < EXACT_WILD:
        return card % 13 + 1 == wild
    if wild >= FREE_CUT_WILD:  # the cut card's rank (aces for a printed joker cut)
        cut = wild - FREE_CUT_WILD
        return card % 13 + 1 == (1 if cut == 52 else cut % 13 + 1)
    return card == wild - EXACT_WILD


def _windows(size: int, wrap: bool) -> Iterator[list[int]]:
    """Every run of ``size`` places, as ranks (ace 1): low, ace high, or round the king."""
    if size > 13:
        return
    for start in range(1, 14 if wrap else 16 - size):
        places = [start + k for k in range(size)]
        if not wrap and places[-1] > 14:
            continue
        yield [(place - 1) % 13 + 1 for place in places]


def _oracle_kind(cards: list[int], wild: int, house: HouseRules) -> GroupKind:
    if len(cards) < 3:
        return GroupKind.INVALID
    if wild >= FREE_CUT_WILD:
        cut = wild - FREE_CUT_WILD
        wild_rank = 1 if cut == 52 else cut % 13 + 1
    else:
        wild_rank = wild if wild < EXACT_WILD else (wild - EXACT_WILD) % 13 + 1
    jokers = [card for card in cards if _is_joker(card, wild)]
    naturals = [card for card in cards if not _is_joker(card, wild)]
    # Pure: one suit, every card at its own place (a wild card too, at most one of them).
    if PRINTED_JOKER not in cards and len(jokers) <= 1 and len({c // 13 for c in cards}) == 1:
        ranks = sorted(card % 13 + 1 for card in cards)
        for window in _windows(len(cards), house.wrap_runs):
            if sorted(window) == ranks and (not jokers or wild_rank in ranks):
                return GroupKind.PURE_SEQUENCE
    set_fits = len(cards) <= 4 or not house.sets_up_to_four
    if not naturals:
        if house.jokers_only_sequence:  # jokers alone: a sequence, not a set
            return GroupKind.IMPURE_SEQUENCE
        # The wild rank's own natural set stands where jokers alone make no set.
        suits = {card // 13 for card in jokers}
        natural_set = PRINTED_JOKER not in cards and len(suits) == len(cards) <= 4
        jokers_set = house.jokers_only_set and set_fits
        return GroupKind.SET if jokers_set or natural_set else GroupKind.INVALID
    limited = (
        house.joker_limit is JokerLimit.ONE_IN_THREE and len(cards) == 3 and len(naturals) < 2
    ) or (house.joker_limit is JokerLimit.NOT_WITH_ONE_NATURAL and len(naturals) == 1)
    if limited and house.joker_limit_scope is JokerLimitScope.EVERY_GROUP:
        return GroupKind.INVALID
    ranks = [card % 13 + 1 for card in naturals]
    if not limited and len({c // 13 for c in naturals}) == 1 and len(set(ranks)) == len(ranks):
        for window in _windows(len(cards), house.wrap_runs):
            if set(ranks) <= set(window):
                return GroupKind.IMPURE_SEQUENCE
    if set_fits and len(set(ranks)) == 1 and len({c // 13 for c in naturals}) == len(naturals):
        return GroupKind.SET
    return GroupKind.INVALID


def _oracle_natural_set(cards: list[int]) -> bool:
    """Three or four cards of one rank, each of another suit, none a printed joker."""
    return (
        len(cards) in (3, 4)
        and PRINTED_JOKER not in cards
        and len({card % 13 for card in cards}) == 1
        and len({card // 13 for card in cards}) == len(cards)
    )


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1 :]]
        yield [[first], *partition]


def _oracle(
    cards: list[int], wild: int, preset: IndianPreset, house: HouseRules
) -> tuple[bool, int]:
    """The lowest score and whether a valid declaration exists, over every partition."""

    def value(card: int) -> int:
        # Under rank_cut_card_free only the printed joker and the cut card itself count 0.
        free = wild < FREE_CUT_WILD or card in (52, wild - FREE_CUT_WILD)
        if _is_joker(card, wild) and free:
            return 0
        rank = card % 13 + 1
        return house.ace_points if rank == 1 else min(rank, 10)

    best, valid = None, False
    for partition in _partitions(cards):
        kinds = [_oracle_kind(group, wild, house) for group in partition]
        pure = kinds.count(GroupKind.PURE_SEQUENCE)
        sequences = pure + kinds.count(GroupKind.IMPURE_SEQUENCE)
        groups = len(kinds) - kinds.count(GroupKind.INVALID)
        total = sum(value(card) for card in cards)
        if house.all_sets_declaration and all(_oracle_natural_set(group) for group in partition):
            valid, best = True, 0  # all triplets
            continue
        need_met = only_unmatched_count(sequences, pure, groups, house)
        if need_met or house.valid_groups_excused:
            score = sum(
                value(card)
                for group, kind in zip(partition, kinds, strict=True)
                if kind is GroupKind.INVALID
                for card in group
            )
            valid = valid or (need_met and GroupKind.INVALID not in kinds)
        elif pure and preset.pure_sequence_relief:
            score = total - max(
                sum(value(card) for card in group)
                for group, kind in zip(partition, kinds, strict=True)
                if kind is GroupKind.PURE_SEQUENCE
            )
        else:
            score = total
        score = min(score, preset.cap)
        best = score if best is None else min(best, score)
    assert best is not None
    return valid, best


# Hands: few suits and ranks round the king, so that groups form often.
_RANKS = [1, 2, 3, 4, 11, 12, 13]
_NATURALS = [suit * 13 + rank - 1 for suit in (0, 1) for rank in _RANKS]
_cards = st.lists(st.sampled_from([*_NATURALS, 52]), min_size=3, max_size=7).filter(
    lambda cards: all(cards.count(card) <= 2 for card in cards)
)
_house = st.builds(
    HouseRules,
    wild_joker=st.sampled_from(list(WildJoker)),
    wrap_runs=st.booleans(),
    joker_limit=st.sampled_from(list(JokerLimit)),
    joker_limit_scope=st.sampled_from(list(JokerLimitScope)),
    jokers_only_set=st.booleans(),
    sets_up_to_four=st.booleans(),
    ace_points=st.sampled_from([10, 1]),
    declaration=st.sampled_from(list(Declaration)),
    min_groups=st.integers(1, 3),
    valid_groups_excused=st.booleans(),
    all_sets_declaration=st.booleans(),
    jokers_only_sequence=st.booleans(),
)
_cut = st.sampled_from([*_NATURALS, 52])


def _wild(cut: int, house: HouseRules) -> int:
    name = str(CARDS[cut])
    return parse_wild(name, house.cut_card_only, house.cut_card_free)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=_cards, house=_house, cut=_cut, relief=st.booleans())
# Found by the search: with aces wild, the relief excuses A-2-3 of spades and the spare ace joker
# must not be moved into it (it would no longer be pure, and all would count).
@example(
    cards=[0, 0, 1, 2], house=HouseRules(declaration=Declaration.MIN_GROUPS, min_groups=2,
                                         jokers_only_set=False),
    cut=0, relief=True,
)  # fmt: skip
# Where no pure sequence is needed, the spare ace joker goes into Q-K-A: J-Q-K-A, one group.
@example(
    cards=[0, 0, 11, 12], house=HouseRules(declaration=Declaration.MIN_GROUPS, min_groups=1,
                                           jokers_only_set=False),
    cut=0, relief=False,
)  # fmt: skip
# Three jokers to spare are a set of their own, the second group: A-JK-3 and 2S 2S JK.
@example(
    cards=[0, 1, 2, 52, 52, 1], house=HouseRules(declaration=Declaration.MIN_GROUPS,
                                                  min_groups=2, jokers_only_set=True),
    cut=14, relief=False,
)  # fmt: skip
# Q-K-A leaves three jokers nowhere to go; K-A-2 round the king (the 2 at its own place) and
# Q with two jokers declare.
@example(
    cards=[11, 12, 0, 1, 1, 52], house=HouseRules(declaration=Declaration.PURE_SEQUENCE,
                                                   wrap_runs=True, jokers_only_set=False),
    cut=14, relief=False,
)  # fmt: skip
# Aces wild and a 2 left over: the three spare jokers are a set of their own (the second group
# the declaration counts), not put with the 2, where nothing would count as grouped.
@example(
    cards=[0, 0, 1, 1, 2, 13, 13],
    house=HouseRules(joker_limit=JokerLimit.NOT_WITH_ONE_NATURAL, jokers_only_set=True,
                     declaration=Declaration.MIN_GROUPS, min_groups=2),
    cut=0, relief=False,
)  # fmt: skip
def test_every_option_agrees_with_an_exact_search_over_all_partitions(cards, house, cut, relief):
    """The best arrangement's points and validity, and each group's kind, equal an exact search
    over every partition with an independent reading of the groups, under every option."""
    preset = IndianPreset(pure_sequence_relief=relief)
    wild = _wild(cut, house)
    hand = [CARDS[card] for card in cards]
    result = arrange(hand, wild, preset, house)
    assert (result.valid, result.score) == _oracle(cards, wild, preset, house)
    assert sorted(result.cards) == sorted(hand)
    assert score_groups([group.cards for group in result.groups], wild, preset, house) == result
    for group in result.groups:
        assert group.kind is _oracle_kind(list(group.cards), wild, house)


@settings(max_examples=300, deadline=None)
@given(cards=_cards, house=_house, cut=_cut)
def test_each_group_reads_as_the_oracle_reads_it(cards, house, cut):
    wild = _wild(cut, house)
    assert classify_group(cards, wild, house) is _oracle_kind(cards, wild, house)


_SPELLINGS = {"H": ("H", "h", "♥", "♥️"), "S": ("S", "s", "♠", "♠️")}


@settings(max_examples=200, deadline=None)
@given(cards=_cards, house=_house, cut=st.sampled_from(_NATURALS), data=st.data())
def test_no_hand_where_two_spellings_of_one_option_disagree(cards, house, cut, data):
    """An option given as its enum or its JSON string, and the cut card in any of its spellings,
    read the same."""
    as_text = HouseRules(
        **{
            field.name: getattr(house, field.name).value
            if isinstance(getattr(house, field.name), str)
            else getattr(house, field.name)
            for field in dataclasses.fields(house)
        }
    )
    assert as_text == house
    name = str(CARDS[cut])
    rank, suit = name[:-1], name[-1]
    spelled = data.draw(st.sampled_from(_SPELLINGS[suit])) + ""
    rank_spelled = data.draw(st.sampled_from([rank, rank.lower(), "T" if rank == "10" else rank]))
    wild_a = parse_wild(name, house.cut_card_only)
    wild_b = parse_wild(f" {rank_spelled}{spelled} ", as_text.cut_card_only)
    assert wild_a == wild_b
    hand = [CARDS[card] for card in cards]
    assert arrange(hand, wild_a, DEFAULT_PRESET, house) == arrange(
        hand, wild_b, DEFAULT_PRESET, as_text
    )


def _kind(text: str, wild: str, **options: object) -> GroupKind:
    house = HouseRules(**options)  # type: ignore[arg-type]
    return classify_group(parse_cards(text.split()), parse_wild(wild, house.cut_card_only), house)


def test_the_cut_card_only_is_wild():
    """wild_joker=cut_card: with 7H cut, 7H is a joker and 7S a natural card."""
    assert _kind("5S 6S 7S", "7H", wild_joker="cut_card") is GroupKind.PURE_SEQUENCE
    assert _kind("5C 7H 9C", "7H", wild_joker="cut_card") is GroupKind.INVALID
    assert _kind("5C 7H 6C", "7H", wild_joker="cut_card") is GroupKind.IMPURE_SEQUENCE
    assert _kind("5C 7S 6C", "7H") is GroupKind.IMPURE_SEQUENCE  # every 7 wild by default
    assert _kind("5C 7S 6C", "7H", wild_joker="cut_card") is GroupKind.INVALID


def test_a_bare_rank_is_refused_when_only_the_cut_card_is_wild():
    from rules.errors import RuleViolation

    with pytest.raises(RuleViolation) as caught:
        parse_wild("7", cut_card_only=True)
    assert caught.value.code == "bad_wild"
    assert parse_wild("JK", cut_card_only=True) == EXACT_WILD + 52  # no natural card wild


def test_runs_wrap_round_the_king_only_when_the_preset_says():
    for run in ("QH KH AH 2H", "KH AH 2H"):
        assert _kind(run, "5") is GroupKind.INVALID
        assert _kind(run, "5", wrap_runs=True) is GroupKind.PURE_SEQUENCE
    assert _kind("KH JK 2H", "5", wrap_runs=True) is GroupKind.IMPURE_SEQUENCE
    assert _kind("QH KH AH", "5") is GroupKind.PURE_SEQUENCE  # ace high as always


def test_joker_limits():
    assert _kind("5H JK JK", "9") is GroupKind.IMPURE_SEQUENCE
    assert _kind("5H JK JK", "9", joker_limit="one_in_three") is GroupKind.INVALID
    assert _kind("5H JK JK JK", "9", joker_limit="one_in_three") is GroupKind.IMPURE_SEQUENCE
    assert _kind("5H JK JK JK", "9", joker_limit="not_with_one_natural") is GroupKind.INVALID
    assert _kind("5H 5S JK", "9", joker_limit="not_with_one_natural") is GroupKind.SET


def test_the_joker_limit_for_sequences_only():
    """joker_limit_scope sequences: the limit holds for sequences; a set takes any jokers, so
    5H JK JK is a set of fives, never a sequence, and 5H 5S JK JK under one_in_three too."""
    for limit in ("one_in_three", "not_with_one_natural"):
        assert _kind("5H JK JK", "9", joker_limit=limit) is GroupKind.INVALID
        scoped = {"joker_limit": limit, "joker_limit_scope": "sequences"}
        assert _kind("5H JK JK", "9", **scoped) is GroupKind.SET
        assert _kind("5H 5S 5D JK JK", "9", **scoped) is GroupKind.SET
        assert _kind("5H 6H JK", "9", **scoped) is GroupKind.IMPURE_SEQUENCE
    assert _kind("5H 6H JK JK", "9", joker_limit="one_in_three", joker_limit_scope="sequences") is (
        GroupKind.IMPURE_SEQUENCE
    )
    # 5D with two jokers: a set under the scoped limit (a valid hand), refused under the limit.
    hand = parse_cards("2H 3H 4H 7C 8C 9C JS QS KS 10S 5D JK JK".split())
    limit = HouseRules(joker_limit="not_with_one_natural")  # type: ignore[arg-type]
    scoped = dataclasses.replace(limit, joker_limit_scope="sequences")
    assert arrange(hand, parse_wild("7"), DEFAULT_PRESET, limit).score == 5
    result = arrange(hand, parse_wild("7"), DEFAULT_PRESET, scoped)
    assert result.valid and [str(card) for card in result.groups[-1].cards] == ["5D", "JK", "JK"]


def test_sets_up_to_four_cards():
    """sets_up_to_four: a set has at most four cards, jokers included; runs are not capped."""
    assert _kind("5H 5S 5D 5C JK", "9") is GroupKind.SET
    assert _kind("5H 5S 5D 5C JK", "9", sets_up_to_four=True) is GroupKind.INVALID
    assert _kind("5H 5S 5D JK", "9", sets_up_to_four=True) is GroupKind.SET
    assert _kind("JK JK JK JK JK", "9", sets_up_to_four=True) is GroupKind.INVALID
    assert _kind("5H 6H 7H 8H JK", "9", sets_up_to_four=True) is GroupKind.IMPURE_SEQUENCE
    # Two spare jokers cannot join the set of fives: they go to the impure run instead.
    hand = parse_cards("2H 3H 4H 7C 8C JK 5H 5S 5D 5C JS QS JK".split())
    capped = arrange(hand, parse_wild("9"), DEFAULT_PRESET, HouseRules(sets_up_to_four=True))
    assert capped.valid
    assert all(len(g.cards) <= 4 for g in capped.groups if g.kind is GroupKind.SET)


def test_valid_groups_excused_without_the_declarations_need():
    """valid_groups_excused: a loser's valid groups never count, though without two sequences the
    hand is still no declaration."""
    groups = [
        parse_cards(text.split()) for text in ("2H 3H 4H", "5S 5D 5C", "9S 9D 9C", "KS QD JC AC")
    ]
    wild = parse_wild("7")
    default = score_groups(groups, wild)
    assert (default.valid, default.score) == (False, 80)  # every card counts: 91, capped
    excused = score_groups(groups, wild, DEFAULT_PRESET, HouseRules(valid_groups_excused=True))
    assert (excused.valid, excused.score) == (False, 40)  # KS QD JC AC only
    best = arrange([card for group in groups for card in group], wild, DEFAULT_PRESET,
                   HouseRules(valid_groups_excused=True))  # fmt: skip
    assert (best.valid, best.score) == (False, 40)
    whole = [*groups[:3], parse_cards("KS KD KC KH".split())]
    result = score_groups(whole, wild, DEFAULT_PRESET, HouseRules(valid_groups_excused=True))
    assert (result.valid, result.score) == (False, 0)


def test_a_set_of_jokers_only_allowed_or_refused():
    assert _kind("JK JK 9S", "9") is GroupKind.SET
    assert _kind("JK JK 9S", "9", jokers_only_set=False) is GroupKind.INVALID


def test_ace_low_in_points():
    hand = parse_cards("AH AS 5D 9C KC 2D 4S 6H 8C 10D JS QH 3C".split())
    assert arrange(hand, parse_wild("7")).score == 80
    low = arrange(hand, parse_wild("7"), DEFAULT_PRESET, HouseRules(ace_points=1))
    assert low.score == 79 and not low.valid  # 80 with two aces at 10: 98, capped
    two = parse_cards("AH AS 5D".split())
    assert arrange(two, 7, DEFAULT_PRESET, HouseRules(ace_points=1)).score == 7
    assert arrange(two, 7).score == 25


def test_what_a_declaration_needs():
    """One pure sequence and sets: valid under pure_sequence, not under the default; four sets
    are enough under min_groups 4."""
    groups = [parse_cards(g.split()) for g in "2H 3H 4H|5S 5D 5C|9S 9D 9C|KS KD KC JK".split("|")]
    wild = parse_wild("7")
    assert not score_groups(groups, wild).valid
    assert score_groups(groups, wild, DEFAULT_PRESET, HouseRules(declaration="pure_sequence")).valid
    sets = [parse_cards(g.split()) for g in "2H 2S 2D|5S 5D 5C|9S 9D 9C|KS KD KC JK".split("|")]
    assert not score_groups(
        sets, wild, DEFAULT_PRESET, HouseRules(declaration="pure_sequence")
    ).valid
    four = HouseRules(declaration="min_groups", min_groups=4)
    assert score_groups(sets, wild, DEFAULT_PRESET, four).valid
    cards = [card for group in sets for card in group]
    assert arrange(cards, wild, DEFAULT_PRESET, four).valid


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"wild_joker": "suit"}, "wild_joker"),
        ({"joker_limit": 1}, "joker_limit"),
        ({"ace_points": 5}, "ace_points"),
        ({"declaration": "three_sequences"}, "declaration"),
        ({"min_groups": 0}, "min_groups"),
        ({"wrap_runs": "yes"}, "wrap_runs"),
    ],
)
def test_a_bad_option_is_refused_naming_it(options, field):
    with pytest.raises(ValueError, match=field):
        HouseRules(**options)


def test_defaults_are_the_seeds_rules():
    assert HouseRules() == DEFAULT_HOUSE_RULES
    assert parse_card("7H") != parse_wild("7H")


def test_the_evaluate_contract_takes_the_house_rules():
    """The deal entry page sends its preset's house rules with each hand, so it checks hands as
    the deal check will; a bad option is ``bad_house_rules`` naming it."""
    from rules.errors import RuleViolation
    from rules.indian.evaluate import evaluate

    hand = {"game": "indian", "wild": "5D", "cards": "QH KH AH 2H".split()}
    hand["cards"] += "6S 7S 8S 9C 10C JC 3D 3C 3S".split()
    assert evaluate(hand)["against"] == 2  # QH KH AH, and 2H left over
    assert evaluate({**hand, "house_rules": {"wrap_runs": True}}) == {
        "valid": True,
        "against": 0,
        "points": 0,
        "groups": [
            {"cards": ["6S", "7S", "8S"], "kind": "pure_sequence"},
            {"cards": ["QH", "KH", "AH", "2H"], "kind": "pure_sequence"},
            {"cards": ["9C", "10C", "JC"], "kind": "pure_sequence"},
            {"cards": ["3S", "3D", "3C"], "kind": "set"},
        ],
    }
    for options, token in (({"ace_points": 2}, "ace_points"), ({"wrap": True}, "wrap")):
        with pytest.raises(RuleViolation) as caught:
            evaluate({**hand, "house_rules": options})
        assert caught.value.code == "bad_house_rules" and caught.value.token == token
    with pytest.raises(RuleViolation) as caught:
        evaluate({**hand, "house_rules": {"wild_joker": "cut_card"}, "wild": "5"})
    assert caught.value.code == "bad_wild"


# Hands of every suit round a wild 8 (and 2), so that natural sets of the wild rank form often.
_WILD_RANK_NATURALS = [suit * 13 + rank - 1 for suit in range(4) for rank in (2, 7, 8, 9)]
_wild_rank_cards = st.lists(
    st.sampled_from([*_WILD_RANK_NATURALS, 52]), min_size=3, max_size=8
).filter(lambda cards: all(cards.count(card) <= 2 for card in cards))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=_wild_rank_cards,
    house=_house.filter(lambda house: not house.jokers_only_set),
    cut=st.sampled_from([7, 20, 1, 52]),
    relief=st.booleans(),
)
# Found by the search: 2S 2H with the wild 8S make a set only if the other 8S stays out of the
# natural set of eights (8S 8H 8C), so a group takes its wild card from the suit with most left.
@example(
    cards=[1, 7, 7, 14, 20, 46], house=HouseRules(declaration=Declaration.MIN_GROUPS,
                                                  min_groups=2, jokers_only_set=False),
    cut=7, relief=False,
)  # fmt: skip
def test_natural_sets_of_the_wild_rank_agree_with_an_exact_search(cards, house, cut, relief):
    """With jokers_only_set false, a natural set of the wild rank (8H 8S 8D, 8 wild) is a set:
    the best arrangement's points and validity equal an exact search over every partition."""
    preset = IndianPreset(pure_sequence_relief=relief)
    wild = _wild(cut, house)
    hand = [CARDS[card] for card in cards]
    result = arrange(hand, wild, preset, house)
    assert (result.valid, result.score) == _oracle(cards, wild, preset, house)
    assert score_groups([group.cards for group in result.groups], wild, preset, house) == result
    for group in result.groups:
        assert group.kind is _oracle_kind(list(group.cards), wild, house)


def test_a_natural_set_of_the_wild_rank_is_no_wrong_show():
    """The club's meaning of jokers_only_set false: JK JK 9S (9 wild) is refused, but 8H 8S 8D
    with 8 wild is a natural set of eights, so the hand below is valid, not a wrong show (80)."""
    from rules.evaluate import evaluate_request

    request = {
        "game": "indian", "wild": "8H", "outcome": "winner",
        "house_rules": {"jokers_only_set": False},
        "groups": [["2H", "3H", "4H"], ["5C", "6C", "7C"], ["8H", "8S", "8D"],
                   ["KS", "KD", "KC", "KH"]],
    }  # fmt: skip
    answer = evaluate_request(request)
    assert (answer["valid"], answer["against"]) == (True, 0)
    assert answer["groups"][2] == {"cards": ["8H", "8S", "8D"], "kind": "set"}
    assert _kind("8H 8S 8D 8C", "8", jokers_only_set=False) is GroupKind.SET
    for refused in ("JK JK 9S", "8H 8S JK", "8H 8H 8S"):
        assert _kind(refused, "9" if "9S" in refused else "8", jokers_only_set=False) is (
            GroupKind.INVALID
        )
    assert _kind("8H 8S 8D", "8H", jokers_only_set=False, wild_joker="cut_card") is GroupKind.SET


# Hands of few ranks and every suit, so that a hand of natural sets only forms often.
_TRIPLET_NATURALS = [suit * 13 + rank - 1 for suit in range(4) for rank in (2, 8)]
_triplet_cards = st.lists(st.sampled_from([*_TRIPLET_NATURALS, 52]), min_size=3, max_size=8).filter(
    lambda cards: all(cards.count(card) <= 2 for card in cards)
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=_triplet_cards,
    house=_house.map(lambda house: dataclasses.replace(house, all_sets_declaration=True)),
    cut=st.sampled_from([7, 20, 1, 52]),
    relief=st.booleans(),
)
def test_all_sets_declaration_agrees_with_an_exact_search(cards, house, cut, relief):
    """all_sets_declaration: a hand of natural sets only is valid (0), under every other option:
    the best arrangement's points and validity equal an exact search over every partition."""
    preset = IndianPreset(pure_sequence_relief=relief)
    wild = _wild(cut, house)
    hand = [CARDS[card] for card in cards]
    result = arrange(hand, wild, preset, house)
    assert (result.valid, result.score) == _oracle(cards, wild, preset, house)
    assert sorted(result.cards) == sorted(hand)
    assert score_groups([group.cards for group in result.groups], wild, preset, house) == result


def test_all_triplets_is_a_declaration_only_under_the_option():
    groups = [parse_cards(text.split()) for text in ("2H 2S 2D", "5S 5D 5C", "9S 9D 9C 9H",
                                                       "KS KD KC")]  # fmt: skip
    wild = parse_wild("7")
    assert not score_groups(groups, wild).valid
    house = HouseRules(all_sets_declaration=True)
    assert score_groups(groups, wild, DEFAULT_PRESET, house)[:2] == (True, 0)
    best = arrange([card for group in groups for card in group], wild, DEFAULT_PRESET, house)
    assert (best.valid, best.score) == (True, 0)
    # A joker standing in makes it no natural set: every card counts as before.
    with_joker = [*groups[:3], parse_cards("KS KD JK".split())]
    assert not score_groups(with_joker, wild, DEFAULT_PRESET, house).valid
    # Two decks: six eights of four suits are two natural sets.
    eights = parse_cards("8H 8H 8S 8S 8D 8C".split())
    assert arrange(eights, wild, DEFAULT_PRESET, house)[:2] == (True, 0)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=_wild_rank_cards,
    house=_house.map(lambda house: dataclasses.replace(house, jokers_only_sequence=True)),
    cut=st.sampled_from([7, 20, 1, 52]),
    relief=st.booleans(),
)
def test_jokers_only_sequence_agrees_with_an_exact_search(cards, house, cut, relief):
    """jokers_only_sequence: a group of jokers only is an impure sequence (a declaration's second
    sequence); on joker-heavy hands, under every other option, the best arrangement's points and
    validity equal an exact search over every partition."""
    preset = IndianPreset(pure_sequence_relief=relief)
    wild = _wild(cut, house)
    hand = [CARDS[card] for card in cards]
    result = arrange(hand, wild, preset, house)
    assert (result.valid, result.score) == _oracle(cards, wild, preset, house)
    assert score_groups([group.cards for group in result.groups], wild, preset, house) == result
    for group in result.groups:
        assert group.kind is _oracle_kind(list(group.cards), wild, house)


def test_a_group_of_jokers_only_is_a_sequence_only_under_the_option():
    """JK 9S 9D with 9 wild: a set by default, the second sequence under jokers_only_sequence
    (a wrong show of 80 becomes a valid declaration); the best arrangement takes it too."""
    groups = [["2H", "3H", "4H"], ["JK", "9S", "9D"], ["5S", "5D", "5C"], ["KS", "KD", "KC", "KH"]]
    parsed = [parse_cards(group) for group in groups]
    wild = parse_wild("9C")
    house = HouseRules(jokers_only_sequence=True)
    assert _kind("JK 9S 9D", "9C") is GroupKind.SET
    assert _kind("JK 9S 9D", "9C", jokers_only_sequence=True) is GroupKind.IMPURE_SEQUENCE
    assert _kind("8H 8S 8D", "8H", jokers_only_set=False, jokers_only_sequence=True) is (
        GroupKind.IMPURE_SEQUENCE
    )
    assert not score_groups(parsed, wild).valid
    assert score_groups(parsed, wild, DEFAULT_PRESET, house).valid
    hand = [card for group in parsed for card in group]
    assert arrange(hand, wild, DEFAULT_PRESET, house).valid
    answer = evaluate_request(
        {"game": "indian", "wild": "9C", "outcome": "winner", "groups": groups,
         "house_rules": {"jokers_only_sequence": True}}
    )  # fmt: skip
    assert answer["valid"] is True and answer["against"] == 0


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=_wild_rank_cards,
    house=_house.map(lambda house: dataclasses.replace(house, wild_joker="rank_cut_card_free")),
    cut=st.sampled_from([7, 20, 1, 52, 33]),
    relief=st.booleans(),
)
# Found by the search: where every valid group is excused, the spare 2H (counting 2) joins the
# pure sequence, which then no longer needs to be the declaration's pure one.
@example(
    cards=[32, 33, 34, 14], cut=1, relief=False,
    house=HouseRules(wild_joker=WildJoker.RANK_CUT_CARD_FREE, valid_groups_excused=True,
                     declaration=Declaration.PURE_SEQUENCE),
)  # fmt: skip
# A set capped at four cards has no room for the spare 8S (8D cut), which counts.
@example(
    cards=[1, 34, 21, 7, 1, 47, 8], cut=33, relief=False,
    house=HouseRules(wild_joker=WildJoker.RANK_CUT_CARD_FREE, valid_groups_excused=True,
                     joker_limit=JokerLimit.ONE_IN_THREE, jokers_only_set=False,
                     sets_up_to_four=True, declaration=Declaration.MIN_GROUPS, min_groups=3),
)  # fmt: skip
def test_a_free_cut_card_agrees_with_an_exact_search(cards, house, cut, relief):
    """rank_cut_card_free: every 8 is wild in groups, but left unmatched only the cut card (and
    the printed joker) counts 0; on joker-heavy hands, under every other option, the best
    arrangement's points and validity equal an exact search over every partition, and its
    groups score as it says."""
    preset = IndianPreset(pure_sequence_relief=relief)
    wild = _wild(cut, house)
    hand = [CARDS[card] for card in cards]
    result = arrange(hand, wild, preset, house)
    assert (result.valid, result.score) == _oracle(cards, wild, preset, house)
    assert sorted(result.cards) == sorted(hand)
    assert score_groups([group.cards for group in result.groups], wild, preset, house) == result
    for group in result.groups:
        assert group.kind is _oracle_kind(list(group.cards), wild, house)
