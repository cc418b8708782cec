"""The interface every game format implements, and what the Indian rummy formats share."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Protocol

from django.db.models import Sum
from django.utils import timezone

from config.errors import Conflict
from rules.deal import DealEvaluation, PlayerEntry, evaluate_indian_deal
from scoring.models import AccountKind, Deal, Game, LedgerEntry, Posting, Submission
from scoring.presets import GameRules


@dataclass(frozen=True)
class Checked:
    """A submission as the rules see it: the evaluation, and its JSON form for the record."""

    evaluation: DealEvaluation[int]
    result: dict[str, Any] | None
    reasons: list[dict[str, Any]]


class GameFormatHandler(Protocol):
    def game_opened(self, *, game: Game, rules: GameRules) -> None:
        """Entries written when the game starts (entry fees, opening chips)."""

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        """Refuse (``Conflict``) a new deal the game cannot have now."""

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        """Refuse (``Conflict``) a new version of a deal that already has a decided one."""

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        """Who must appear in the deal, in seat order: player id -> name."""

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked:
        """Check and score a submission through the rules engine."""

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Any], dict[str, Any]]:
        """The ledger lines of a counted deal, and what to add to its result record."""

    def game_after_deal(self, *, game: Game, rules: GameRules) -> None:
        """Eliminations, the end of the game and its payout, after a deal counted."""

    def game_state(self, *, game: Game, rules: GameRules) -> dict[str, Any]:
        """The game as it stands, from the ledger."""


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


def seated_players(game: Game) -> dict[int, str]:
    """Every seat of the game in seat order: player id -> name."""
    return dict(game.seats.order_by("position").values_list("player_id", "player__name"))


def player_balances(
    game: Game, quantity: str, *, excluding_deal: Deal | None = None
) -> dict[int, int]:
    """Each player's balance of ``quantity`` in the game (one query); with ``excluding_deal``,
    as it stood without that deal's entries (its result, and the reversals of its versions)."""
    postings = Posting.objects.filter(game=game, quantity=quantity, account=AccountKind.PLAYER)
    if excluding_deal is not None:
        postings = postings.exclude(entry__deal=excluding_deal)
    totals: dict[int, int] = defaultdict(int)
    for player_id, total in postings.values_list("player_id").annotate(total=Sum("amount")):
        totals[player_id] = total
    return totals


def seated_balances(
    game: Game, quantity: str, *, excluding_deal: Deal | None = None
) -> dict[int, int]:
    """Every seated player's balance of ``quantity`` in seat order, 0 for one with none yet."""
    balances = player_balances(game, quantity, excluding_deal=excluding_deal)
    return {pid: balances.get(pid, 0) for pid in seated_players(game)}


def account_balance(game: Game, quantity: str, account: str) -> int:
    total = (
        Posting.objects.filter(game=game, quantity=quantity, account=account)
        .aggregate(total=Sum("amount"))
        .get("total")
    )
    return int(total or 0)


def game_mark_finished(game: Game) -> None:
    """The game is over: its row and this instance say so."""
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    game.status = Game.Status.FINISHED


def require_open_game(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise Conflict("this game has finished", code="game_finished")


def require_latest_deal(deal: Deal, what: str) -> None:
    """In games where each deal builds on the last (pool, deals, a match), only the latest deal
    can be corrected, and only before anything else was posted after it."""
    game = deal.game
    require_open_game(game)
    if game.deals.filter(number__gt=deal.number).exists():
        raise Conflict(
            f"only the latest deal of a {what} can be corrected; deal {deal.number} has later "
            "deals",
            code="not_latest_deal",
        )
    first_entry = deal.entries.order_by("id").values_list("id", flat=True).first()
    if first_entry is not None and (
        LedgerEntry.objects.filter(game=game, id__gt=first_entry).exclude(deal=deal).exists()
    ):
        raise Conflict(
            f"deal {deal.number} was followed by a rejoin, split or payout; it can no longer be "
            "corrected",
            code="not_latest_deal",
        )


class FormatBase:
    """Defaults shared by the formats."""

    def game_opened(self, *, game: Game, rules: GameRules) -> None:
        return None

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        require_open_game(game)
        if is_tiebreaker:
            raise Conflict(
                f"{game.get_format_display()} has no tie-breaker deals", code="no_tiebreaker"
            )

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        return None

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        return seated_players(deal.game)

    def game_after_deal(self, *, game: Game, rules: GameRules) -> None:
        return None


class IndianDealMixin:
    """Checking and scoring an Indian rummy deal, shared by points, pool and deals."""

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked:
        assert rules.indian is not None
        payload = submission.payload
        if "results" not in payload:
            evaluation: DealEvaluation[int] = DealEvaluation(
                (),
                (
                    reason_for(
                        "missing_field", "an Indian rummy deal needs results for every player"
                    ),
                ),
                None,
            )
            return Checked(evaluation, None, reason_dicts(evaluation, players))
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


def reason_for(code: str, message: str, player: int | None = None) -> Any:
    from rules.deal import Reason

    return Reason(player, code, message)
