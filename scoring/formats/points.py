"""Points rummy: every deal stands alone; losers pay points x value to the winner."""

from __future__ import annotations

from typing import Any

from rules.points import points_deal
from scoring.formats.common import Checked, FormatBase, IndianDealMixin, player_balances
from scoring.ledger import Line
from scoring.models import Game, Quantity
from scoring.presets import GameRules


class PointsFormat(IndianDealMixin, FormatBase):
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

    def game_state(self, *, game: Game, rules: GameRules) -> dict[str, Any]:
        points = player_balances(game, Quantity.POINTS)
        money = player_balances(game, Quantity.MONEY)
        players = [
            {
                "player": seat.player_id,
                "name": seat.player.name,
                "position": seat.position,
                "points": points.get(seat.player_id, 0),
                "money_minor": money.get(seat.player_id, 0),
            }
            for seat in game.seats.select_related("player").order_by("position")
        ]
        return {"format": "points", "status": game.status, "players": players}
