"""End of a game and scores, Sabra and American (rummikub.md)."""

import pytest

from rules.errors import RuleViolation
from rules.rummikub import (
    AMERICAN_JOKER_25,
    SABRA_JOKER_25,
    game_scores,
    match_leaders,
    match_totals,
    pool_exhausted_scores,
    rack_total,
)


def test_losers_score_minus_their_rack_and_the_winner_the_sum():
    """rummikub.md: each other player scores minus the total of the tiles left on their rack; the
    winner scores plus the sum of the losers' totals. Every game sums to zero."""
    scores = game_scores(
        {"ann": ["R5", "JK"], "bob": [], "cy": ["K1", "B13", "O13"]}, "bob", "sabra"
    )
    assert scores == {"ann": -35, "bob": 62, "cy": -27}
    assert sum(scores.values()) == 0


def test_number_tiles_at_face_value_joker_30():
    """rummikub.md: number tiles at face value, a joker 30; a 1 counts 1."""
    assert rack_total(["R1", "K13", "JK"]) == 44
    assert game_scores({"a": ["JK"], "b": []}, "b", "american") == {"a": -30, "b": 30}


@pytest.mark.parametrize("preset", [SABRA_JOKER_25, AMERICAN_JOKER_25, "sabra-joker-25"])
def test_joker_counts_25_in_the_variant(preset):
    """rummikub.md: a joker left on a rack counts 30 (variant 25)."""
    assert game_scores({"a": ["JK", "R2"], "b": []}, "b", preset) == {"a": -27, "b": 27}


def test_the_winner_has_got_rid_of_all_tiles():
    """rummikub.md: the player who gets rid of all tiles (American: all but one final discard)
    wins; docs/rules.md Decision: the winner's rack is empty (a final discard is not on it)."""
    with pytest.raises(RuleViolation) as caught:
        game_scores({"a": ["R5"], "b": ["K3"]}, "b", "american")
    assert (caught.value.code, caught.value.token) == ("winner_has_tiles", "b")
    assert game_scores({"a": ["R5"], "b": []}, "b", "american") == {"a": -5, "b": 5}


def test_pool_exhausted_lowest_total_wins_the_differences():
    """rummikub.md: pool exhausted: the lowest total wins; each other player loses the difference
    between their total and the winner's; the winner gains the sum of those differences."""
    scores = game_scores({"a": ["R10"], "b": ["K3"], "c": ["B7", "O8"]}, None, "sabra")
    assert scores == {"a": -7, "b": 19, "c": -12}


def test_pool_exhausted_applies_to_american_too():
    """rummikub.md: seed 002 suggests the same for American."""
    assert game_scores({"a": ["R10"], "b": ["K3"]}, None, "american") == {"a": -7, "b": 7}


def test_tied_lowest_racks_share_the_gain_equally():
    """rummikub.md Decision: when several players tie for the lowest total, they share the gain
    equally."""
    scores = pool_exhausted_scores({"a": 5, "b": 5, "c": 15, "d": 9})
    assert scores == {"a": 7, "b": 7, "c": -10, "d": -4}


def test_indivisible_remainder_goes_in_seating_order_after_the_last_mover():
    """rummikub.md Decision: an indivisible remainder goes one point at a time in seating order
    starting after the last player who moved, so the game still sums to zero."""
    totals = {"a": 4, "b": 9, "c": 4, "d": 4}  # gain 5 shared by a, c, d: 1 each, 2 left
    assert pool_exhausted_scores(totals, "a") == {"a": 1, "b": -5, "c": 2, "d": 2}
    assert pool_exhausted_scores(totals, "c") == {"a": 2, "b": -5, "c": 1, "d": 2}
    assert pool_exhausted_scores(totals, "d") == {"a": 2, "b": -5, "c": 2, "d": 1}
    assert pool_exhausted_scores(totals, "b") == {"a": 1, "b": -5, "c": 2, "d": 2}


def test_last_mover_defaults_to_the_last_seat():
    """docs/rules.md Decision: without last_mover the last seat (last in racks) moved last, so the
    remainder starts with the first seat."""
    totals = {"a": 4, "b": 9, "c": 4, "d": 4}
    assert pool_exhausted_scores(totals) == pool_exhausted_scores(totals, "d")
    scores = game_scores({"x": ["R2"], "y": ["K2"], "z": ["B5"]}, None, "sabra")
    assert scores == {"x": 2, "y": 1, "z": -3}
    moved = game_scores({"x": ["R2"], "y": ["K2"], "z": ["B5"]}, None, "sabra", last_mover="x")
    assert moved == {"x": 1, "y": 2, "z": -3}


def test_everyone_tied_scores_zero():
    assert pool_exhausted_scores({"a": 3, "b": 3}) == {"a": 0, "b": 0}


def test_penalties_change_racks_not_scores():
    """rummikub.md: penalty draws (3 tiles, or 1) change racks, not scores: the scores only read
    the racks left at the end."""
    before = game_scores({"a": ["R5"], "b": []}, "b", "sabra")
    after_penalty = game_scores({"a": ["R5", "K1", "K2", "K3"], "b": []}, "b", "sabra")
    assert (before["a"], after_penalty["a"]) == (-5, -11)


def test_match_highest_total_wins():
    """rummikub.md: a match is a set number of games, a time or a target score; the highest total
    wins the match."""
    games = [{"a": 10, "b": -10}, {"a": -25, "b": 25}, {"a": 5, "b": -5}]
    totals = match_totals(games)
    assert totals == {"a": -10, "b": 10}
    assert match_leaders(totals) == ["b"]
    assert match_leaders({"a": 3, "b": 3, "c": -6}) == ["a", "b"]


def test_errors_name_what_is_wrong():
    with pytest.raises(RuleViolation) as caught:
        game_scores({"a": ["R5"], "b": []}, "zed", "sabra")
    assert (caught.value.code, caught.value.token) == ("unknown_player", "zed")
    with pytest.raises(RuleViolation) as caught:
        game_scores({"a": ["R5", "R5", "R5"], "b": []}, "b", "sabra")
    assert (caught.value.code, caught.value.token) == ("too_many_copies", "R5")
    with pytest.raises(RuleViolation) as caught:
        game_scores({"a": ["Q5"], "b": []}, "b", "sabra")
    assert (caught.value.code, caught.value.token) == ("bad_tile", "Q5")
    with pytest.raises(RuleViolation) as caught:
        game_scores({"a": []}, "a", "sabra")
    assert caught.value.code == "bad_players"
    with pytest.raises(RuleViolation) as caught:
        game_scores({"a": [], "b": [], "c": [], "d": [], "e": []}, "a", "sabra")
    assert caught.value.code == "bad_players"
    with pytest.raises(RuleViolation) as caught:
        game_scores({"a": [], "b": ["R1"]}, "a", "international")
    assert caught.value.code == "bad_variant"
    with pytest.raises(RuleViolation) as caught:
        game_scores({"a": ["R2"], "b": ["R1"]}, None, "sabra", last_mover="q")
    assert caught.value.code == "unknown_player"


def test_two_to_four_players():
    """docs/rules.md Decision: a game has 2 to 4 players (preset min_players / max_players)."""
    assert game_scores({"a": [], "b": ["R1"], "c": [], "d": []}, "a", "sabra")["a"] == 1
    for table in ({"a": []}, {name: [] for name in "abcde"}):
        with pytest.raises(RuleViolation) as caught:
            game_scores(table, "a", "sabra")
        assert caught.value.code == "bad_players"
