"""International Rummikub hand scores and session settlement (rummikub.md, formats.md)."""

from decimal import Decimal

import pytest

from rules.errors import RuleViolation
from rules.rummikub import (
    INTERNATIONAL,
    INTERNATIONAL_TRUMP,
    international_scores,
    melded_hand_value,
    settle_session,
    validate_melds,
)

ROYAL = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1".split()
RACKS = {"win": [], "mel": ["R5", "K10", "B1"], "not": ["O2", "O3"]}


def scores(**kwargs):
    kwargs.setdefault("racks", RACKS)
    kwargs.setdefault("melded", {"mel": True, "not": False})
    return international_scores(**kwargs).scores


def test_open_win_scores_100():
    """rummikub.md: Open: winner scores 100."""
    assert scores(winner="win", win="open") == {"win": 100, "mel": -25, "not": -100}


def test_open_win_scores_200_when_no_other_player_has_melded():
    """rummikub.md: Open: 200 when no other player has melded."""
    result = scores(winner="win", win="open", melded={"mel": False, "not": False})
    assert result == {"win": 200, "mel": -100, "not": -100}


def test_open_initial_meld_at_least_50():
    """rummikub.md: Open: initial meld at least 50."""
    assert validate_melds(
        [["K13", "R13", "B13"], ["O3", "O4", "O5"]], INTERNATIONAL, initial_meld=True
    ).meets_initial_meld
    short = validate_melds(
        [["K13", "R13", "B13"], ["O2", "O3", "O4"]], "international", initial_meld=True
    )
    assert (short.value, short.meets_initial_meld) == (48, False)


def test_foot_win_scores_200():
    """rummikub.md: Foot: winner scores 200; a player who has not melded loses 100."""
    assert scores(winner="win", win="foot") == {"win": 200, "mel": -25, "not": -100}


def test_closed_win_scores_the_best_hand_type_by_jokers():
    """rummikub.md: Closed: winner scores the value of the best hand type by the number of
    jokers; a player who has not melded loses what the winner won."""
    result = international_scores(
        RACKS, {"mel": True, "not": False}, "win", "closed", closed_hand=ROYAL
    )
    assert result.scores == {"win": 2400, "mel": -25, "not": -2400}
    assert result.closed_hand is not None and result.closed_hand.name == "Royal"
    with_joker = ["JK" if t == "R7" else t for t in ROYAL]
    assert scores(winner="win", win="closed", closed_hand=with_joker)["win"] == 2200


def test_closed_hand_that_fits_no_type_is_an_error():
    hand = "R1 K3 B5 O7 R9 K11 B13 O2 R4 K6 B8 O10 R12 K12".split()
    with pytest.raises(RuleViolation) as caught:
        scores(winner="win", win="closed", closed_hand=hand)
    assert caught.value.code == "not_a_closed_hand"


def test_melded_loser_counts_2_to_9_face_and_10_to_13_and_1_as_10():
    """rummikub.md: a player who has melded loses the tiles left in hand, 2 to 9 at face value and
    10, 11, 12, 13 and 1 as 10 each."""
    assert melded_hand_value(["R2", "K9", "B10", "O11", "R12", "K13", "B1"]) == 61


def test_melded_loser_joker_counts_30():
    """rummikub.md Decision: a joker left in hand counts 30, as in the other variants."""
    assert melded_hand_value(["JK", "R5"]) == 35
    assert (
        scores(winner="win", win="open", racks={"win": [], "mel": ["JK"], "not": []})["mel"] == -30
    )


def test_not_melded_loses_100_after_open_foot_or_no_winner():
    """rummikub.md: a player who has not melded loses 100 after an Open win, a Foot win or a game
    with no winner."""
    for win in ("open", "foot"):
        assert scores(winner="win", win=win)["not"] == -100
    racks = {"a": ["R5"], "b": ["K2", "K3"], "c": ["JK"]}
    result = scores(racks=racks, winner=None, win=None, melded={"a": True, "b": False, "c": True})
    assert result == {"a": -5, "b": -100, "c": -30}


def test_scores_do_not_sum_to_zero():
    """rummikub.md: International scores do not sum to zero per hand."""
    assert sum(scores(winner="win", win="open").values()) != 0


def test_final_discard_joker_doubles_every_score():
    """rummikub.md: if the winner's final discard is a joker, every score of that hand is
    doubled."""
    assert scores(winner="win", win="open", final_discard_joker=True) == {
        "win": 200,
        "mel": -50,
        "not": -200,
    }
    closed = scores(winner="win", win="closed", closed_hand=ROYAL, final_discard_joker=True)
    assert closed == {"win": 4800, "mel": -50, "not": -4800}


def test_final_discard_joker_counts_toward_the_two_jokers():
    """docs/rules.md Decision: the discarded joker is one of the game's two jokers."""
    racks = {"win": [], "mel": ["JK"], "not": ["JK"]}
    with pytest.raises(RuleViolation) as caught:
        scores(racks=racks, winner="win", win="open", final_discard_joker=True)
    assert caught.value.code == "too_many_copies"
    assert scores(racks=racks, winner="win", win="open")["mel"] == -30


def test_trump_bonus_is_off_by_default():
    """rummikub.md: variant (off by default): holding the tile identical to the trump scores 50
    more."""
    assert INTERNATIONAL.trump_bonus == 0
    plain = scores(winner="win", win="open")
    assert scores(winner="win", win="open", trump_holders=["mel"]) == plain


def test_trump_bonus_adds_50_to_each_holder_before_doubling():
    """docs/rules.md Decision: with the trump variant, each player named as having held the tile
    identical to the trump scores 50 more (winner or loser), doubled with the rest; it is not
    part of what the winner won."""
    result = scores(winner="win", win="open", trump_holders=["mel"], rules=INTERNATIONAL_TRUMP)
    assert result == {"win": 100, "mel": 25, "not": -100}
    doubled = scores(
        winner="win",
        win="closed",
        closed_hand=ROYAL,
        trump_holders=["win"],
        final_discard_joker=True,
        rules="international-trump",
    )
    assert doubled == {"win": 4900, "mel": -50, "not": -4800}


def test_international_inputs_are_checked():
    with pytest.raises(RuleViolation) as caught:
        scores(winner="win", win=None)
    assert caught.value.code == "bad_field"
    with pytest.raises(RuleViolation) as caught:
        scores(winner="win", win="open", melded={"mel": True})
    assert (caught.value.code, caught.value.token) == ("missing_field", "not")
    with pytest.raises(RuleViolation) as caught:
        scores(winner="win", win="closed")
    assert caught.value.code == "missing_field"
    with pytest.raises(RuleViolation) as caught:
        scores(winner="win", win="open", closed_hand=ROYAL)
    assert caught.value.code == "bad_field"
    with pytest.raises(RuleViolation) as caught:
        scores(
            winner=None,
            win=None,
            final_discard_joker=True,
            melded={"win": True, "mel": True, "not": False},
        )
    assert caught.value.code == "bad_field"
    with pytest.raises(RuleViolation) as caught:
        scores(winner="mel", win="open", melded={"win": True, "not": False})
    assert caught.value.code == "winner_has_tiles"
    with pytest.raises(RuleViolation) as caught:
        scores(winner="win", win="closed", closed_hand=ROYAL[:13])
    assert caught.value.code == "wrong_tile_count"
    with pytest.raises(RuleViolation) as caught:
        scores(winner="win", win="open", trump_holders=["zed"])
    assert caught.value.code == "unknown_player"


def test_settlement_net_is_rate_times_n_score_minus_sum():
    """rummikub.md: with rate r, player i's net is r x (n x score_i - sum of all scores), which sums
    to zero; formats.md: International sessions settle pairwise by score difference."""
    nets = settle_session({"a": 100, "b": -50, "c": 0}, Decimal("0.10"))
    assert nets == {"a": Decimal("25.00"), "b": Decimal("-20.00"), "c": Decimal("-5.00")}
    assert sum(nets.values()) == 0
    # Pairwise: a receives 0.10 x 150 from b and 0.10 x 100 from c.
    assert nets["a"] == Decimal("0.10") * (150 + 100)


def test_settlement_is_exact_and_refuses_floats():
    nets = settle_session({"a": 1, "b": 0, "c": 0}, Decimal("0.333333333333333333"))
    assert nets["a"] == Decimal("0.666666666666666666") and sum(nets.values()) == 0
    assert settle_session({"a": 3, "b": 1}, 2) == {"a": 4, "b": -4}
    for rate in (0.1, True, "0.10", Decimal("NaN"), Decimal("-1"), Decimal("1e-30")):
        with pytest.raises(RuleViolation) as caught:
            settle_session({"a": 1, "b": 2}, rate)
        assert caught.value.code == "bad_rate"
    with pytest.raises(RuleViolation):
        settle_session({"a": 1}, 1)
    with pytest.raises(RuleViolation):
        settle_session({"a": 1, "b": 1.5}, 1)


def test_not_melded_after_a_closed_win_loses_the_closed_value():
    """docs/rules.md Decision: after a Closed win a player who has not melded loses the closed
    hand's value (not the trump bonus), and a joker discard doubles it with everything else."""
    result = international_scores(
        RACKS,
        {"mel": True, "not": False},
        "win",
        "closed",
        closed_hand=ROYAL,
        trump_holders=["win"],
        rules=INTERNATIONAL_TRUMP,
    )
    assert result.scores == {"win": 2450, "mel": -25, "not": -2400}
    assert result.winner_score == 2400
