"""What the three Indian rummy formats (points, pool, deals) share: the outcomes a deal may have
and how a deal is checked and scored, both from the rules engine (``rules/indian/deal.py``)."""

from __future__ import annotations

from typing import Any, ClassVar

from rules.indian.deal import (
    DealEvaluation,
    OutcomeOption,
    PlayerEntry,
    Reason,
    evaluate_indian_deal,
    outcome_options,
)
from rules.indian.preset import IndianPreset
from scoring.formats.base import Checked
from scoring.models import Submission
from scoring.presets import GameRules, preset_replace, preset_section


def reason_dicts(evaluation: DealEvaluation[int], names: dict[int, str]) -> list[dict[str, Any]]:
    return [
        {
            "player": reason.player,
            "player_name": names.get(reason.player) if reason.player is not None else None,
            "code": reason.code,
            "message": reason.message,
            "token": reason.token,
            "details": reason.details,
        }
        for reason in evaluation.reasons
    ]


def refused(players: dict[int, str], reasons: list[Reason[int]]) -> Checked:
    evaluation: DealEvaluation[int] = DealEvaluation((), tuple(reasons), None)
    return Checked(evaluation, None, reason_dicts(evaluation, players))


def indian_rules(base: IndianPreset, params: dict[str, Any]) -> IndianPreset:
    """The ``indian`` section of a preset over a format's base numbers."""
    return preset_replace("indian", base, preset_section(params, "indian"))


class IndianDeal:
    """Checking and scoring an Indian rummy deal."""

    family: ClassVar[str] = "indian"
    variants: ClassVar[frozenset[str]] = frozenset({"indian"})

    def outcomes(self, *, rules: GameRules) -> tuple[OutcomeOption, ...]:
        assert rules.indian is not None
        return outcome_options(rules.indian)

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked:
        assert rules.indian is not None
        payload = submission.payload
        if "results" not in payload:
            return refused(
                players,
                [
                    Reason(
                        None, "missing_field", "an Indian rummy deal needs results for every player"
                    )
                ],
            )
        entries = [
            PlayerEntry(
                player=line.get("player"),
                outcome=line.get("outcome"),
                groups=line.get("groups"),
                cards=line.get("cards"),
                points=line.get("points"),
            )
            for line in payload.get("results", [])
        ]
        wild = payload.get("wild") or submission.deal.wild or None
        evaluation = evaluate_indian_deal(
            entries=entries, expected=players, wild=wild, preset=rules.indian
        )
        if not evaluation.ok:
            return Checked(evaluation, None, reason_dicts(evaluation, players))
        result = {
            "wild": wild,
            "winner": evaluation.winner,
            "players": [
                {
                    "player": score.player,
                    "name": players[score.player],
                    "outcome": score.outcome,
                    "points": score.points,
                    "basis": score.basis,
                    "hand": score.hand.as_dict() if score.hand is not None else None,
                }
                for score in evaluation.scores
            ],
        }
        return Checked(evaluation, result, [])
