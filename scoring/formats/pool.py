"""Pool rummy (101, 201, 61): scores accumulate; at the pool limit a player is out; the last one
in wins the prize pool. Rejoins and agreed splits.

In the ledger, a deal posts each loser's points as a negative ``points`` amount against the game
account (the winner adds nothing), so a player's pool score is minus their ``points`` balance.
Entry fees (and rejoin fees) move ``money`` from the player to the game's pot; the payout moves the
pot to the winner (or to the players of a split) and the club's fee to the club."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from config.errors import Conflict
from rules import pool as pool_rules
from rules.errors import RuleViolation
from rules.money import prize_pool
from scoring.formats.common import (
    Checked,
    FormatBase,
    IndianDealMixin,
    account_balance,
    game_mark_finished,
    require_latest_deal,
    require_open_game,
    seated_balances,
    seated_players,
)
from scoring.formats.pot import entry_fee_lines, payout_lines, pot_checked
from scoring.ledger import Line, ledger_entry_create
from scoring.models import AccountKind, Deal, Game, LedgerEntry, Posting, Quantity
from scoring.presets import GameRules


def pool_scores(game: Game, *, excluding_deal: Deal | None = None) -> dict[int, int]:
    """Every seated player's pool score (0 for one who has not lost a point yet)."""
    balances = seated_balances(game, Quantity.POINTS, excluding_deal=excluding_deal)
    return {pid: -balance for pid, balance in balances.items()}


def rejoins_used(game: Game) -> dict[int, int]:
    rows = (
        Posting.objects.filter(
            game=game, entry__kind=LedgerEntry.Kind.REJOIN, account=AccountKind.PLAYER,
            quantity=Quantity.POINTS,
        )
        .values_list("player_id")
        .annotate(n=Count("entry_id", distinct=True))
    )  # fmt: skip
    return dict(rows)


def entry_count(game: Game) -> int:
    """Entries into the pool: one per seat, plus one per rejoin."""
    return len(seated_players(game)) + sum(rejoins_used(game).values())


class PoolFormat(IndianDealMixin, FormatBase):
    def game_opened(self, *, game: Game, rules: GameRules) -> None:
        if not game.entry_fee_minor:
            return
        lines: list[Line] = []
        for player_id in seated_players(game):
            lines += entry_fee_lines(player_id, game.entry_fee_minor)
        ledger_entry_create(
            game=game, kind=LedgerEntry.Kind.ENTRY_FEE, lines=lines, memo="entry fees"
        )

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        super().deal_check_can_start(game=game, rules=rules, is_tiebreaker=is_tiebreaker)
        unfinished = game.deals.exclude(status=Deal.Status.FINAL).values_list("number", flat=True)
        if unfinished:
            raise Conflict(
                f"deal {unfinished[0]} has no counted result yet; a pool deal starts after the "
                "last one counted",
                code="previous_deal_open",
            )

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        require_latest_deal(deal, "pool")

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        assert rules.pool is not None
        scores = pool_scores(deal.game, excluding_deal=deal)
        seated = seated_players(deal.game)
        return {pid: name for pid, name in seated.items() if scores[pid] < rules.pool.limit}

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        evaluation = checked.evaluation
        lines = [
            Line.player(Quantity.POINTS, score.player, -score.points) for score in evaluation.scores
        ]
        lines.append(Line.game(Quantity.POINTS, sum(score.points for score in evaluation.scores)))
        return lines, {}

    def game_after_deal(self, *, game: Game, rules: GameRules) -> None:
        assert rules.pool is not None
        scores = pool_scores(game)
        active = [pid for pid, score in scores.items() if score < rules.pool.limit]
        if len(active) == 1:
            pool_payout(game=game, rules=rules, shares=None, winner=active[0])

    def game_state(self, *, game: Game, rules: GameRules) -> dict[str, Any]:
        assert rules.pool is not None
        scores = pool_scores(game)
        used = rejoins_used(game)
        seated = seated_players(game)
        active = {pid: s for pid, s in scores.items() if s < rules.pool.limit}
        pot = account_balance(game, Quantity.MONEY, AccountKind.GAME)
        entries = len(seated) + sum(used.values())
        pool_minor, fee_minor = prize_pool(entries, game.entry_fee_minor, rules.fee)
        players = []
        for pid, name in seated.items():
            score = scores[pid]
            out = score >= rules.pool.limit
            players.append(
                {
                    "player": pid,
                    "name": name,
                    "score": score,
                    "status": "eliminated" if out else "active",
                    "rejoins": used.get(pid, 0),
                    "drops_remaining": 0 if out else pool_rules.drops_remaining(score, rules.pool),
                    "can_rejoin": out and _rejoin_refusal(active, rules, used.get(pid, 0)) is None,
                }
            )
        offers: list[str] = []
        if game.status == Game.Status.OPEN and len(active) >= 2:
            try:
                offers = list(pool_rules.split_options(active, len(seated), rules.pool))
            except RuleViolation:
                offers = []
        return {
            "format": "pool",
            "status": game.status,
            "limit": rules.pool.limit,
            "entry_fee_minor": game.entry_fee_minor,
            "entries": entries,
            "pot_minor": pot,
            "prize_pool_minor": pool_minor,
            "club_fee_minor": fee_minor,
            "players": players,
            "split_offers": offers,
            "winner": next(iter(active))
            if game.status == "finished" and len(active) == 1
            else None,
        }


def _rejoin_refusal(active: dict[int, int], rules: GameRules, used: int) -> str | None:
    assert rules.pool is not None
    try:
        pool_rules.rejoin_score(active, rules.pool, used)
    except RuleViolation as exc:
        return exc.message
    return None


def pool_payout(
    *, game: Game, rules: GameRules, shares: dict[int, int] | None, winner: int | None
) -> LedgerEntry:
    """Pay the pot out: the club's fee, and the prize to the winner or the split shares."""
    pot, prize, club_fee = pot_checked(game, entries=entry_count(game), fee=rules.fee)
    memo = "pool won" if shares is None else "split"
    if shares is None:
        assert winner is not None
        shares = {winner: prize}
    entry = ledger_entry_create(
        game=game,
        kind=LedgerEntry.Kind.PAYOUT,
        lines=payout_lines(pot, club_fee, shares),
        memo=memo,
    )
    game_mark_finished(game)
    return entry


def pool_rejoin_lines(*, game: Game, rules: GameRules, player_id: int) -> tuple[list[Line], int]:
    """The lines of a rejoin and the score the player comes back at; refused (``RuleViolation``)
    when the rules do not allow it."""
    assert rules.pool is not None
    require_open_game(game)
    scores = pool_scores(game)
    if player_id not in scores:
        raise RuleViolation("not_seated", "this player has no seat in this game")
    old = scores[player_id]
    if old < rules.pool.limit:
        raise RuleViolation("not_eliminated", f"this player is still in, at {old}")
    active = {pid: s for pid, s in scores.items() if s < rules.pool.limit}
    new = pool_rules.rejoin_score(active, rules.pool, rejoins_used(game).get(player_id, 0))
    lines = [
        Line.player(Quantity.POINTS, player_id, old - new),
        Line.game(Quantity.POINTS, new - old),
    ]
    if game.entry_fee_minor:
        lines += entry_fee_lines(player_id, game.entry_fee_minor)
    return lines, new


def pool_split_shares(
    *, game: Game, rules: GameRules, kind: str
) -> tuple[dict[int, int], dict[int, int]]:
    """The shares of an agreed split, and the remaining players' scores."""
    assert rules.pool is not None
    require_open_game(game)
    scores = pool_scores(game)
    active = {pid: s for pid, s in scores.items() if s < rules.pool.limit}
    prize, _ = prize_pool(entry_count(game), game.entry_fee_minor, rules.fee)
    seats = len(seated_players(game))
    if kind == "drops":
        shares = pool_rules.split_by_drops(
            prize, game.entry_fee_minor, active, rules.pool, players_at_start=seats
        )
    elif kind == "equal":
        shares = pool_rules.split_equal(prize, active, rules.pool, players_at_start=seats)
    else:
        raise RuleViolation("bad_split", f"kind must be drops or equal, not {kind!r}", kind)
    return shares, active
