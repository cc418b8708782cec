"""Points of one player in one deal, from the player's outcome and the table's preset.

| outcome | points (default) |
| --- | --- |
| ``hand`` (a loser) | hand score, capped (80) |
| ``winner`` | 0 with a valid declaration; Decision: otherwise the wrong-show penalty (80) |
| ``first_drop`` / ``middle_drop`` | 20 / 40 (201 pool: 25 / 50); refused in no-drop games |
| ``missed_turns`` | three missed turns: the middle drop (40); Decision: allowed in no-drop games |
| ``wrong_show`` | 80 |
| ``late_declare`` | 80 |
| ``valid_not_declared`` | 2 with a valid hand; Decision: otherwise the hand score |
| ``deal_show`` | floor(hand score / 2), at least 2, at most 40 |
"""

from __future__ import annotations

import enum

from rules.errors import RuleViolation
from rules.indian.cards import token_text
from rules.indian.hand import HandResult
from rules.indian.preset import IndianPreset


class Outcome(enum.StrEnum):
    HAND = "hand"
    WINNER = "winner"
    FIRST_DROP = "first_drop"
    MIDDLE_DROP = "middle_drop"
    MISSED_TURNS = "missed_turns"
    WRONG_SHOW = "wrong_show"
    LATE_DECLARE = "late_declare"
    VALID_NOT_DECLARED = "valid_not_declared"
    DEAL_SHOW = "deal_show"

    @property
    def needs_hand(self) -> bool:
        """Whether the points depend on the player's cards."""
        return self in _NEEDS_HAND


_NEEDS_HAND = frozenset(
    {Outcome.HAND, Outcome.WINNER, Outcome.VALID_NOT_DECLARED, Outcome.DEAL_SHOW}
)


#: A submitted deal's word for ``hand`` (a loser who counts their cards): what the API's results
#: say, and so what it reads too (``hand`` is still read).
LOSER = "loser"


def parse_outcome(token: object) -> Outcome:
    """Read an outcome name (``loser`` or ``hand`` for a counted hand); raises ``bad_outcome``
    naming it."""
    if token == LOSER:
        return Outcome.HAND
    if isinstance(token, str):
        try:
            return Outcome(token)
        except ValueError:
            pass
    shown = token_text(token)
    names = [LOSER if o is Outcome.HAND else o.value for o in Outcome]
    raise RuleViolation(
        "bad_outcome", f"unknown outcome {shown!r}: use one of {', '.join(names)}", token=shown
    )


def deal_points(outcome: Outcome, preset: IndianPreset, hand: HandResult | None = None) -> int:
    """The points ``outcome`` scores under ``preset``.

    ``hand`` (the scored cards) is needed for ``hand``, ``winner``, ``valid_not_declared`` and
    ``deal_show``; ``hand_required`` is raised without it. A drop where ``preset.drops_allowed`` is
    false raises ``drop_not_allowed``."""
    if outcome in _NEEDS_HAND:
        if hand is None:
            raise RuleViolation(
                "hand_required", f"outcome {outcome.value} needs the player's cards", token=None
            )
        if outcome is Outcome.HAND:
            return hand.score
        if outcome is Outcome.WINNER:
            return preset.winner if hand.valid else preset.wrong_show
        if outcome is Outcome.VALID_NOT_DECLARED:
            return preset.valid_not_declared if hand.valid else hand.score
        share = hand.score // preset.deal_show_divisor
        return max(preset.deal_show_min, min(preset.deal_show_max, share))
    if outcome is Outcome.FIRST_DROP or outcome is Outcome.MIDDLE_DROP:
        if not preset.drops_allowed:
            raise RuleViolation(
                "drop_not_allowed",
                f"{outcome.value}: dropping is not allowed in this game",
                token=outcome.value,
            )
        return preset.first_drop if outcome is Outcome.FIRST_DROP else preset.middle_drop
    if outcome is Outcome.MISSED_TURNS:
        return preset.missed_turns_points
    if outcome is Outcome.WRONG_SHOW:
        return preset.wrong_show
    return preset.late_declare
