"""Properties (hypothesis): zero-sum scores and settlements, jokers never break a meld, and the
closed-hand classifier checked against an independent slow reading of the table."""

import random
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.rummikub import build_hand, full_set, random_hand, with_jokers
from rules.rummikub import (
    classify_closed_hand,
    fit_closed_hand_type,
    game_scores,
    settle_session,
    validate_meld,
)

from . import oracle

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def racks(draw):
    players = draw(st.integers(2, 4))
    tiles = random.Random(draw(st.integers(0, 2**32))).sample(full_set(), 40)
    cuts = sorted(draw(st.lists(st.integers(0, 40), min_size=players - 1, max_size=players - 1)))
    bounds = [0, *cuts, 40]
    names = [f"p{i}" for i in range(players)]
    return {
        name: [str(t) for t in tiles[bounds[i] : bounds[i + 1]]] for i, name in enumerate(names)
    }


@FAST
@given(
    racks(),
    st.sampled_from(["sabra", "american", "sabra-joker-25"]),
    st.data(),
)
def test_sabra_and_american_scores_always_sum_to_zero(table, rules, data):
    """rummikub.md: every game sums to zero (winner, pool exhausted, ties)."""
    names = list(table)
    winner = data.draw(st.sampled_from([None, *names]))
    if winner is not None:
        table[winner] = []
    last_mover = data.draw(st.sampled_from([None, *names]))
    scores = game_scores(table, winner, rules, last_mover=last_mover)
    assert list(scores) == names
    assert sum(scores.values()) == 0


@FAST
@given(
    st.dictionaries(st.text(min_size=1, max_size=5), st.integers(-(10**6), 10**6), min_size=2),
    st.decimals(min_value=0, max_value=1000, places=4, allow_nan=False, allow_infinity=False),
)
def test_international_settlement_nets_sum_to_zero(scores, rate):
    """rummikub.md: net_i = r x (n x score_i - sum of scores), which sums to zero."""
    nets = settle_session(scores, rate)
    assert sum(nets.values()) == 0
    count, total = len(scores), sum(scores.values())
    for name, score in scores.items():
        assert nets[name] == rate * (count * score - total)


@st.composite
def valid_melds(draw):
    variant = draw(st.sampled_from(["sabra", "american", "international"]))
    colours = "KRBO"
    if draw(st.booleans()):
        number = draw(st.integers(1, 13))
        size = draw(st.integers(3, 4))
        tiles = [f"{c}{number}" for c in draw(st.permutations(colours))[:size]]
    else:
        top = 13 if variant == "sabra" else 14
        length = draw(st.integers(3, 13))
        start = draw(st.integers(1, top - length + 1))
        if start == 1 and start + length - 1 == 14:
            start = 2
        colour = draw(st.sampled_from(colours))
        tiles = [f"{colour}{1 if p == 14 else p}" for p in range(start, start + length)]
        if draw(st.booleans()) and draw(st.booleans()):
            tiles.reverse()
    if draw(st.booleans()):
        tiles[draw(st.integers(0, len(tiles) - 1))] = "JK"
    return variant, tiles


@FAST
@given(valid_melds(), st.data())
def test_a_valid_meld_stays_valid_when_a_tile_is_replaced_by_a_joker(meld, data):
    """rummikub.md: a joker stands for any tile (it stands for the tile it replaced)."""
    variant, tiles = meld
    before = validate_meld(tiles, variant)
    assert before.valid, before.reason
    index = data.draw(st.sampled_from([i for i, t in enumerate(tiles) if t != "JK"]))
    replaced = [*tiles[:index], "JK", *tiles[index + 1 :]]
    after = validate_meld(replaced, variant)
    assert after.valid, (replaced, after.reason)
    if after.kind == before.kind and sum(1 for t in replaced if t != "JK") >= 2:
        assert after.value == before.value  # the joker stands for the tile it replaced


@st.composite
def closed_hands(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    if draw(st.integers(0, 3)) == 0:
        return [str(t) for t in random_hand(rng)]
    number = draw(st.integers(1, 40))
    return [str(t) for t in with_jokers(rng, build_hand(rng, number), draw(st.integers(0, 2)))]


FACTS = st.fixed_dictionaries(
    {"first_turn": st.booleans(), "original_hand": st.booleans(), "is_first_player": st.booleans()}
)


@FAST
@given(closed_hands(), FACTS)
def test_the_arrangement_really_satisfies_the_type_it_names(hand, facts):
    """rummikub.md Decision: the classifier returns one arrangement that proves the type."""
    result = classify_closed_hand(hand, **facts)
    if result is not None:
        arrangement = [[str(t) for t in meld] for meld in result.arrangement]
        oracle.check_arrangement(hand, result.type, arrangement)
        assert result.value == oracle.TABLE[result.type][1][result.jokers]


@FAST
@given(closed_hands(), st.integers(0, 2**32))
def test_shuffling_the_tiles_never_changes_the_classification(hand, seed):
    shuffled = list(hand)
    random.Random(seed).shuffle(shuffled)
    assert classify_closed_hand(shuffled) == classify_closed_hand(hand)


@SLOW
@given(closed_hands(), FACTS)
def test_the_classifier_finds_the_most_valuable_type_an_exhaustive_search_finds(hand, facts):
    """rummikub.md: a hand scores only its most valuable type; the classifier must find a type
    whenever one exists (checked against the slow independent reading in oracle.py)."""
    result = classify_closed_hand(hand, **facts)
    expected_type, expected_value = oracle.best([oracle.read(t) for t in hand], **facts)
    assert (result.type if result else None) == expected_type
    assert (result.value if result else 0) == expected_value


@SLOW
@given(closed_hands(), st.integers(1, 40), FACTS)
def test_each_type_fits_exactly_when_the_exhaustive_search_says_so(hand, number, facts):
    arrangement = fit_closed_hand_type(hand, number, **facts)
    assert (arrangement is not None) == oracle.fits([oracle.read(t) for t in hand], number, **facts)


def test_every_type_fits_its_built_hands_with_0_1_and_2_jokers():
    rng = random.Random(5)
    for number in range(1, 41):
        for jokers in range(3):
            hand = with_jokers(rng, build_hand(rng, number), jokers)
            facts = {"first_turn": True, "original_hand": True}
            arrangement = fit_closed_hand_type(hand, number, **facts)
            assert arrangement is not None, (number, [str(t) for t in hand])
            oracle.check_arrangement(
                [str(t) for t in hand], number, [[str(t) for t in m] for m in arrangement]
            )


def test_settlement_is_exact_with_many_decimal_places():
    nets = settle_session({"a": 7, "b": -3, "c": 11}, Decimal("0.000000000000000001"))
    assert sum(nets.values()) == 0
    assert nets["a"] == Decimal("0.000000000000000006")
