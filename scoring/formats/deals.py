"""Deals rummy (best of 2, 3, 6): everyone starts with 80 chips a deal; each deal the winner takes
each loser's points (capped at 80) in chips; after the last deal the most chips wins the prize,
and players level at the top play a tie-breaker deal.

In the ledger the opening chips come from the game's bank (``chips``: player +start, game
-total), so a player's ``chips`` balance is their chip count and the table's total never changes.
"""

from __future__ import annotations

from typing import Any

from config.errors import Conflict
from rules import deals as deals_rules
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
from scoring.models import AccountKind, Deal, Game, LedgerEntry, Quantity
from scoring.presets import GameRules


def chip_counts(game: Game, *, excluding_deal: Deal | None = None) -> dict[int, int]:
    return seated_balances(game, Quantity.CHIPS, excluding_deal=excluding_deal)


def _regular_deals_counted(game: Game, excluding_deal: Deal | None = None) -> int:
    deals = game.deals.filter(status=Deal.Status.FINAL, is_tiebreaker=False)
    if excluding_deal is not None:
        deals = deals.exclude(pk=excluding_deal.pk)
    return deals.count()


class DealsFormat(IndianDealMixin, FormatBase):
    def game_opened(self, *, game: Game, rules: GameRules) -> None:
        assert rules.deals is not None
        seated = list(seated_players(game))
        start = deals_rules.starting_chips(seated, rules.deals)
        lines = [Line.player(Quantity.CHIPS, pid, chips) for pid, chips in start.items()]
        lines.append(Line.game(Quantity.CHIPS, -sum(start.values())))
        if game.entry_fee_minor:
            for pid in seated:
                lines += entry_fee_lines(pid, game.entry_fee_minor)
        ledger_entry_create(
            game=game, kind=LedgerEntry.Kind.OPENING, lines=lines, memo="opening chips"
        )

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        assert rules.deals is not None
        require_open_game(game)
        unfinished = game.deals.exclude(status=Deal.Status.FINAL).values_list("number", flat=True)
        if unfinished:
            raise Conflict(
                f"deal {unfinished[0]} has no counted result yet",
                code="previous_deal_open",
            )
        regular = game.deals.filter(is_tiebreaker=False).count()
        if not is_tiebreaker and regular >= rules.deals.deals:
            raise Conflict(
                f"all {rules.deals.deals} deals are played; only a tie-breaker deal can follow",
                code="deals_complete",
            )
        if is_tiebreaker:
            standing = deals_rules.deals_standing(chip_counts(game))
            if regular < rules.deals.deals or not standing.tie_break:
                raise Conflict(
                    "a tie-breaker deal is played only after the last deal, between players "
                    "level on chips at the top",
                    code="no_tiebreaker",
                )

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        require_latest_deal(deal, "deals game")

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        seated = seated_players(deal.game)
        if not deal.is_tiebreaker:
            return seated
        standing = deals_rules.deals_standing(chip_counts(deal.game, excluding_deal=deal))
        return {pid: seated[pid] for pid in standing.leaders}

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        assert rules.deals is not None
        evaluation = checked.evaluation
        assert evaluation.winner is not None
        moves = deals_rules.chip_transfer(evaluation.points(), evaluation.winner, rules.deals)
        lines = [Line.player(Quantity.CHIPS, pid, amount) for pid, amount in moves.items()]
        return lines, {"chips": {str(pid): amount for pid, amount in moves.items()}}

    def game_after_deal(self, *, game: Game, rules: GameRules) -> None:
        assert rules.deals is not None
        if _regular_deals_counted(game) < rules.deals.deals:
            return
        standing = deals_rules.deals_standing(chip_counts(game))
        if standing.winner is None:
            return  # level at the top: a tie-breaker deal decides
        pot, prize, club_fee = pot_checked(game, entries=len(seated_players(game)), fee=rules.fee)
        if pot:
            ledger_entry_create(
                game=game,
                kind=LedgerEntry.Kind.PAYOUT,
                lines=payout_lines(pot, club_fee, {standing.winner: prize}),
                memo="deals won",
            )
        game_mark_finished(game)

    def game_state(self, *, game: Game, rules: GameRules) -> dict[str, Any]:
        assert rules.deals is not None
        chips = chip_counts(game)
        seated = seated_players(game)
        counted = _regular_deals_counted(game)
        standing = deals_rules.deals_standing(chips)
        done = counted >= rules.deals.deals
        pot = account_balance(game, Quantity.MONEY, AccountKind.GAME)
        prize, club_fee = prize_pool(len(seated), game.entry_fee_minor, rules.fee)
        return {
            "format": "deals",
            "status": game.status,
            "deals": rules.deals.deals,
            "deals_counted": counted,
            "drops_allowed": rules.deals.drops_allowed,
            "starting_chips": rules.deals.starting_chips,
            "table_chips": sum(chips.values()),
            "pot_minor": pot,
            "prize_minor": prize,
            "club_fee_minor": club_fee,
            "players": [
                {"player": pid, "name": name, "chips": chips[pid]} for pid, name in seated.items()
            ],
            "leaders": list(standing.leaders),
            "tiebreaker_needed": done and standing.tie_break and game.status == Game.Status.OPEN,
            "winner": standing.winner if game.status == Game.Status.FINISHED else None,
        }
