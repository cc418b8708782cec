"""The Okey engine (docs/rules.md "Okey"): tiles, melds, finished hands and scores. Each hand
search is checked against an exact search over every partition of the tiles (hypothesis)."""

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.okey import built_hand
from rules.errors import RuleViolation
from rules.evaluate import evaluate_request
from rules.okey import (
    HOUSE_OPTIONS,
    OKEY,
    OKEY_COUNTDOWN_20,
    OkeyPreset,
    arrange,
    book_share,
    check_copies,
    check_finish,
    counts_left,
    deal_scores,
    game_winners,
    meld_kind,
    okey_of,
    parse_tile,
    parse_tiles,
)
from rules.okey.hands import melds_finish, pairs_finish
from rules.okey.melds import is_pair
from rules.okey.tiles import FALSE_JOKER, NUMBER_TILES, TILES_PER_GAME

DECK = [tile for tile in NUMBER_TILES for _ in range(2)] + [FALSE_JOKER] * 2


def _tiles(text):
    return list(parse_tiles(text.split()))


def test_a_game_has_106_tiles():
    assert TILES_PER_GAME == len(DECK) == 106


@pytest.mark.parametrize(
    ("indicator", "okey"), [("R7", "R8"), ("K13", "K1"), ("B1", "B2"), ("Y12", "Y13")]
)
def test_the_okey_is_the_indicator_plus_one_and_1_follows_13(indicator, okey):
    assert okey_of(parse_tile(indicator)) == parse_tile(okey)


def test_a_false_joker_cannot_be_the_indicator():
    with pytest.raises(RuleViolation) as caught:
        okey_of(FALSE_JOKER)
    assert caught.value.code == "bad_tile"


def test_the_indicator_has_one_copy_in_play():
    check_copies(_tiles("R5 B5"), parse_tile("R5"))
    with pytest.raises(RuleViolation) as caught:
        check_copies(_tiles("R5 R5"), parse_tile("R5"))
    assert caught.value.token == "R5"


@pytest.mark.parametrize(
    ("tiles", "kind"),
    [
        ("R4 R5 R6", "run"),
        ("R12 R13 R1", "run"),
        ("R11 R12 R13 R1", "run"),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "run"),
        ("R13 R1 R2", None),
        ("R4 R5", None),
        ("R4 B5 R6", None),
        ("R5 B5 Y5", "set"),
        ("R5 B5 Y5 K5", "set"),
        ("R5 R5 B5", None),
        ("K8 R3 R5", "run"),  # the okey K8 is wild
        ("K8 K8 Y1", "set"),  # two wilds and one face: a set first
        ("FJ K9 K10", "run"),  # the false joker is K8's face
        ("FJ R9 R10", None),
    ],
)
def test_meld_kind(tiles, kind):
    assert meld_kind(_tiles(tiles), parse_tile("K8")) == kind


def test_one_after_thirteen_off_refuses_12_13_1():
    okey = parse_tile("K8")
    assert meld_kind(_tiles("R12 R13 R1"), okey, one_after_thirteen=False) is None
    assert meld_kind(_tiles("R12 R13 K8"), okey, one_after_thirteen=False) == "run"


def test_pairs_take_an_okey_as_any_tile():
    okey = parse_tile("K8")
    assert is_pair(_tiles("R5 R5"), okey)
    assert is_pair(_tiles("R5 K8"), okey)
    assert is_pair(_tiles("FJ FJ"), okey)
    assert not is_pair(_tiles("R5 B5"), okey)


def test_check_finish_names_the_group_that_is_no_meld():
    groups = [
        _tiles("R1 R2 R3"),
        _tiles("K5 B5 Y5"),
        _tiles("B9 B10 B11 B12"),
        _tiles("Y1 Y2 K4 K8"),
    ]
    with pytest.raises(RuleViolation) as caught:
        check_finish(groups, parse_tile("R8"))
    assert caught.value.code == "not_a_meld" and caught.value.details == {"group": 3}


def test_check_finish_needs_14_tiles():
    with pytest.raises(RuleViolation) as caught:
        check_finish([_tiles("R1 R2 R3")], parse_tile("R8"))
    assert caught.value.code == "wrong_tile_count"


# An exact search: every partition of the tiles into groups, each judged on its own.
def _partitions(items: list) -> Iterator[list[list]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1 :]]


def _finishes_by_partition(tiles, okey, one_after_thirteen=True) -> bool:
    return any(
        all(meld_kind(g, okey, one_after_thirteen=one_after_thirteen) for g in partition)
        for partition in _partitions(list(tiles))
    )


@st.composite
def _small_hands(draw):
    size = draw(st.integers(3, 8))
    indices = draw(
        st.lists(st.integers(0, len(DECK) - 1), min_size=size, max_size=size, unique=True)
    )
    okey = draw(st.sampled_from(NUMBER_TILES))
    return [DECK[i] for i in indices], okey


@settings(max_examples=300, deadline=None)
@given(_small_hands(), st.booleans())
def test_the_meld_search_agrees_with_every_partition(hand, one_after_thirteen):
    tiles, okey = hand
    found = melds_finish(tiles, okey, one_after_thirteen=one_after_thirteen)
    assert (found is not None) == _finishes_by_partition(tiles, okey, one_after_thirteen)
    if found is not None:
        assert sorted(map(str, (t for g in found for t in g))) == sorted(map(str, tiles))
        assert all(meld_kind(g, okey, one_after_thirteen=one_after_thirteen) for g in found)


@st.composite
def _near_hands(draw):
    colour = draw(st.sampled_from("RKBY"))
    low = draw(st.integers(1, 9))
    pool = [
        t
        for t in DECK
        if t.is_false_joker
        or (
            t.number is not None
            and ((t.colour == colour and low <= t.number <= low + 4) or t.number in (low, low + 1))
        )
    ]
    size = draw(st.integers(3, 8))
    indices = draw(
        st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True)
    )
    okey = draw(st.sampled_from([t for t in NUMBER_TILES if t.colour == colour]))
    return [pool[i] for i in indices], okey


@settings(max_examples=300, deadline=None)
@given(_near_hands())
def test_the_meld_search_agrees_with_every_partition_on_close_tiles(hand):
    tiles, okey = hand
    found = melds_finish(tiles, okey)
    assert (found is not None) == _finishes_by_partition(tiles, okey)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, len(DECK) - 1), min_size=14, max_size=14, unique=True),
    st.sampled_from(NUMBER_TILES),
)
def test_seven_pairs_agree_with_every_pairing(indices, okey):
    tiles = [DECK[i] for i in indices]
    found = pairs_finish(tiles, okey)

    # Exact: pair the first tile with each other tile in turn.
    def pairs(rest):
        if not rest:
            return True
        return any(
            is_pair([rest[0], rest[j]], okey) and pairs(rest[1:j] + rest[j + 1 :])
            for j in range(1, len(rest))
        )

    assert (found is not None) == pairs(tiles)
    if found is not None:
        assert len(found) == 7 and all(is_pair(list(pair), okey) for pair in found)


def test_arrange_finds_melds_then_pairs():
    okey = parse_tile("R8")
    melds = arrange(_tiles("R1 R2 R3 K5 B5 Y5 B10 B11 B12 B13 B1 R8 FJ R9"), okey)
    assert melds is not None and melds.kind == "melds"
    pairs = arrange(_tiles("R1 R1 K5 K5 B9 B9 Y2 Y2 FJ FJ R8 K3 Y7 Y7"), okey)
    assert pairs is not None and pairs.kind == "pairs"


# Scores


PLAYERS = ["Ali", "Banu", "Cem", "Deniz"]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([*PLAYERS, None]),
    st.sampled_from(["melds", "pairs"]),
    st.booleans(),
    st.lists(st.sampled_from(PLAYERS), unique=True, max_size=4),
    st.sampled_from([OKEY, OKEY_COUNTDOWN_20]),
)
def test_a_deal_with_the_book_sums_to_zero(finisher, finish, okey_discard, shown, preset):
    if finisher is None:
        finish, okey_discard = "melds", False
    scores = deal_scores(
        PLAYERS, finisher, preset, finish=finish, okey_discard=okey_discard, indicator_shown=shown
    )
    assert sum(scores.values()) + book_share(scores) == 0
    worth = 2 * (2 if finish == "pairs" else 1) * (2 if okey_discard else 1)
    if finisher is not None and preset is OKEY:
        assert scores[finisher] == -len([s for s in shown if s != finisher])
    if finisher is not None and preset is OKEY_COUNTDOWN_20:
        assert scores[finisher] == worth + (1 if finisher in shown else 0)


def test_countdown_ends_when_a_count_reaches_zero():
    assert counts_left({"Ali": 18, "Banu": 4}, OKEY_COUNTDOWN_20) == {"Ali": 2, "Banu": 16}
    assert game_winners({"Ali": 18, "Banu": 4}, OKEY_COUNTDOWN_20) == []
    assert game_winners({"Ali": 20, "Banu": 4}, OKEY_COUNTDOWN_20) == ["Ali"]
    assert game_winners({"Ali": 40}, OKEY) == []


def test_a_deal_nobody_finished_has_no_finish():
    with pytest.raises(RuleViolation) as caught:
        deal_scores(PLAYERS, None, OKEY, okey_discard=True)
    assert caught.value.token == "finisher"


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["loss", "countdown"]),
    st.integers(0, 50),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(0, 5),
    st.sampled_from(["melds", "pairs"]),
    st.booleans(),
)
def test_the_scoring_options_scale_a_finish_as_documented(
    scoring, points, okey_factor, pairs_factor, indicator, finish, okey_discard
):
    preset = OkeyPreset(
        "house",
        scoring,
        finish_points=points,
        okey_discard_factor=okey_factor,
        pairs_factor=pairs_factor,
        indicator_points=indicator,
    )
    scores = deal_scores(
        PLAYERS, "Ali", preset, finish=finish, okey_discard=okey_discard, indicator_shown=["Cem"]
    )
    worth = (
        points * (pairs_factor if finish == "pairs" else 1) * (okey_factor if okey_discard else 1)
    )
    if scoring == "loss":
        assert scores == {
            "Ali": -indicator,
            "Banu": -worth - indicator,
            "Cem": -worth,
            "Deniz": -worth - indicator,
        }
    else:
        assert scores == {"Ali": worth, "Banu": 0, "Cem": indicator, "Deniz": 0}
    assert sum(scores.values()) + book_share(scores) == 0


@pytest.mark.parametrize("option", sorted(HOUSE_OPTIONS))
def test_every_house_option_is_taken_by_the_batch_and_a_bad_value_named(option):
    good = True if HOUSE_OPTIONS[option].kind is bool else 3
    request = {"game": "okey", "players": PLAYERS, "finisher": "Ali", option: good}
    assert "scores" in evaluate_request(request)
    answer = evaluate_request({**request, option: "three"})
    assert answer["error"]["code"] == "bad_field" and answer["error"]["token"] == option


def test_every_hand_built_from_melds_finishes_and_its_arrangement_is_a_finish():
    """Hands made of melds (0 to 2 okeys; the benchmark's builder): ``arrange`` finds a finish,
    and the groups it answers pass ``check_finish`` over the same 14 tiles."""
    rng = random.Random(46)
    for _ in range(300):
        indicator = rng.choice(NUMBER_TILES)
        okey = okey_of(indicator)
        hand = built_hand(rng, indicator)
        found = arrange(hand, okey)
        assert found is not None, " ".join(map(str, hand))
        assert check_finish(found.groups, okey).kind == found.kind
        shown = sorted(str(t) for g in found.groups for t in g)
        assert shown == sorted(str(t) for t in hand)
