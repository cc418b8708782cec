"""Rummikub house rules as preset numbers (docs/rules.md "House rules"): the joker's penalty,
the penalty for never opening, the 13-1 run outside closed hands and the opening threshold; the
defaults are the published rules."""

from __future__ import annotations

import dataclasses

import pytest

from rules.errors import RuleViolation
from rules.rummikub import SABRA, game_scores, validate_meld, validate_melds
from rules.rummikub.preset import RummikubPreset

RACKS = {"ana": [], "ben": ["R5", "JK"], "cy": ["B13", "K1"]}


@pytest.mark.parametrize(("joker_value", "ben"), [(30, -35), (25, -30), (50, -55)])
def test_the_joker_penalty_is_the_preset_s(joker_value, ben):
    """30 by default, 25 in Belgian clubs, 50 at the MSO: a joker left on a rack."""
    preset = dataclasses.replace(SABRA, joker_value=joker_value)
    scores = game_scores(RACKS, "ana", preset)
    assert scores["ben"] == ben and sum(scores.values()) == 0


def test_a_loser_who_never_opened_scores_the_penalty_instead_of_the_rack():
    melded = {"ben": True, "cy": False}
    assert game_scores(RACKS, "ana", SABRA, melded=melded) == {"ana": 49, "ben": -35, "cy": -14}
    for penalty in (100, 200):
        preset = dataclasses.replace(SABRA, never_opened_penalty=penalty)
        scores = game_scores(RACKS, "ana", preset, melded=melded)
        assert scores == {"ana": 35 + penalty, "ben": -35, "cy": -penalty}
    # The pool ran out: the penalty is that player's count.
    preset = dataclasses.replace(SABRA, never_opened_penalty=100)
    racks = {"ana": ["R2"], "ben": ["R5"], "cy": ["B3"]}
    assert game_scores(racks, None, preset, melded={"cy": False}) == {
        "ana": 3 + 98, "ben": -3, "cy": -98,
    }  # fmt: skip
    with pytest.raises(RuleViolation) as caught:
        game_scores(RACKS, "ana", preset, melded={"dan": False})
    assert caught.value.code == "unknown_player"


def test_the_13_1_run_outside_closed_hands_is_the_preset_s_one_high():
    assert not validate_meld(["R12", "R13", "R1"], SABRA).valid
    assert validate_meld(["R12", "R13", "R1"], dataclasses.replace(SABRA, one_high=True)).valid
    assert not validate_meld(["R13", "R1", "R2"], dataclasses.replace(SABRA, one_high=True)).valid


@pytest.mark.parametrize(("threshold", "meets"), [(30, True), (31, False)])
def test_the_opening_threshold_is_the_preset_s(threshold, meets):
    preset = dataclasses.replace(SABRA, initial_meld_threshold=threshold)
    result = validate_melds([["R9", "R10", "R11"]], preset, initial_meld=True)
    assert result.meets_initial_meld is meets


def test_a_bad_penalty_is_refused_naming_it():
    with pytest.raises(ValueError, match="never_opened_penalty"):
        dataclasses.replace(SABRA, never_opened_penalty=-100)
    assert RummikubPreset("x", "sabra", 30, False).never_opened_penalty == 0
