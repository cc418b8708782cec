"""What differs between game formats, behind one interface the submission flow calls.

Each format says who must appear in a deal, how a submission is checked and scored (through the
rules engine), which ledger lines a counted deal writes, and what happens to the game after it
(eliminations, a finished game, a payout)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from config.errors import Conflict
from rules.deal import DealEvaluation, PlayerEntry, evaluate_indian_deal
from rules.points import points_deal
from scoring.ledger import Line
from scoring.models import Deal, Game, Quantity, Submission
from scoring.presets import GameRules


@dataclass(frozen=True)
class Checked:
    """A submission as the rules see it: the evaluation, and its JSON form for the record."""

    evaluation: DealEvaluation[int]
    result: dict[str, Any] | None
    reasons: list[dict[str, Any]]


class GameFormatHandler(Protocol):
    def game_opened(self, *, game: Game, rules: GameRules) -> None: ...

    def deal_check_can_start(
        self, *, game: Game, rules: GameRules, is_tiebreaker: bool
    ) -> None: ...

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]: ...

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked: ...

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        """The ledger lines of a counted deal, and what to add to its result record."""
        ...

    def game_after_deal(self, *, game: Game, rules: GameRules) -> None: ...


def _reason_dicts(evaluation: DealEvaluation[int], names: dict[int, str]) -> list[dict[str, Any]]:
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


def seated_players(game: Game) -> dict[int, str]:
    """Every seat of the game in seat order: player id -> name."""
    return {
        seat.player_id: seat.player.name
        for seat in game.seats.select_related("player").order_by("position")
    }


class IndianDealMixin:
    """Checking and scoring an Indian rummy deal, shared by points, pool and deals."""

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked:
        assert rules.indian is not None
        payload = submission.payload
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
            return Checked(evaluation, None, _reason_dicts(evaluation, players))
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


class PointsFormat(IndianDealMixin):
    """Points rummy: every deal stands alone; losers pay points x value to the winner."""

    def game_opened(self, *, game: Game, rules: GameRules) -> None:
        return None

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        if is_tiebreaker:
            raise Conflict("points rummy has no tie-breaker deals", code="no_tiebreaker")

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        return seated_players(deal.game)

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        evaluation = checked.evaluation
        assert evaluation.winner is not None and rules.indian is not None
        settled = points_deal(
            evaluation.points(),
            evaluation.winner,
            game.point_value_minor,
            rules.fee,
            cap=rules.indian.cap,
        )
        lines = [Line.player(Quantity.POINTS, p, amount) for p, amount in settled.points.items()]
        if not game.point_value_minor:
            return lines, {}
        lines += [Line.player(Quantity.MONEY, p, amount) for p, amount in settled.money.items()]
        lines.append(Line.club(Quantity.MONEY, settled.club_fee))
        money = {
            "point_value_minor": game.point_value_minor,
            "winnings_minor": settled.winnings_minor,
            "club_fee_minor": settled.club_fee,
            "by_player": {str(p): amount for p, amount in settled.money.items()},
        }
        return lines, {"money": money}

    def game_after_deal(self, *, game: Game, rules: GameRules) -> None:
        return None


HANDLERS: dict[str, GameFormatHandler] = {"points": PointsFormat()}


def handler_for(game: Game) -> GameFormatHandler:
    try:
        return HANDLERS[game.format]
    except KeyError:
        raise Conflict(
            f"{game.get_format_display()} games cannot record deals yet", code="format_unsupported"
        ) from None


def game_opened(*, game: Game, rules: GameRules) -> None:
    handler_for(game).game_opened(game=game, rules=rules)


def deal_check_can_start(*, game: Game, is_tiebreaker: bool) -> None:
    from scoring.presets import game_rules

    handler_for(game).deal_check_can_start(
        game=game, rules=game_rules(game.preset), is_tiebreaker=is_tiebreaker
    )
