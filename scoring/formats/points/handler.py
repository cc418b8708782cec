"""Points rummy: every deal stands alone; losers pay points x value to the winner. Players may sit
down between deals; the organiser closes the table when the night is done."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_noop
from rest_framework import serializers

from config.errors import Conflict
from ledger.models import Quantity
from ledger.writer import Line
from rules.indian.points import points_deal
from rules.indian.preset import IndianPreset
from rules.ranking import competition_ranks
from scoring.formats.base import (
    MONEY,
    Checked,
    Column,
    EndEntry,
    Ending,
    FormatBase,
    GameEnd,
    GameState,
    Words,
)
from scoring.formats.indian.deal import IndianDeal, house_rules, indian_rules
from scoring.formats.points.schema import PointsPayloadOutput, PointsResultOutput, PointsStateOutput
from scoring.formats.reads import player_balances, require_no_deal_waiting, seated_balances
from scoring.models import Game
from scoring.presets import FormatRules, GameRules

POINTS = Column("points", gettext_noop("Points"), Quantity.POINTS, gettext_noop("rummy points"))


@dataclass
class PointsPlayer:
    player: int
    name: str
    position: int
    points: int
    money_minor: int


@dataclass
class PointsState(GameState):
    players: list[PointsPlayer] = field(default_factory=list)


class PointsFormat(IndianDeal, FormatBase):
    format: ClassVar[str] = "points"
    result_output: ClassVar[type[serializers.Serializer[Any]]] = PointsResultOutput
    payload_output: ClassVar[type[serializers.Serializer[Any]]] = PointsPayloadOutput
    state_output: ClassVar[type[serializers.Serializer[Any]]] = PointsStateOutput
    words: ClassVar[Words] = Words(
        unit="deal",
        finish=gettext_noop("Close the table"),
        finished=gettext_noop("The table is closed."),
        deal_note=gettext_noop(
            "Points each player counted in the deal; the winner (★) counts 0 and collects the rest."
        ),
    )
    columns: ClassVar[tuple[Column, ...]] = (POINTS, MONEY)
    seats_open: ClassVar[bool] = True
    imports_results: ClassVar[bool] = True

    def preset_rules(self, *, variant: str, params: dict[str, Any]) -> FormatRules:
        return FormatRules(
            2,
            6,
            indian=indian_rules(IndianPreset.points(), params),
            house_rules=house_rules(params),
        )

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

    def state(self, *, game: Game, rules: GameRules) -> PointsState:
        points = player_balances(game, Quantity.POINTS)
        money = player_balances(game, Quantity.MONEY)
        players = [
            PointsPlayer(
                seat.player_id,
                seat.player.name,
                seat.position,
                points.get(seat.player_id, 0),
                money.get(seat.player_id, 0),
            )
            for seat in game.seats.select_related("player").order_by("position")
        ]
        return PointsState(format=self.format, status=game.status, players=players)

    def endings(self, *, game: Game, rules: GameRules) -> list[Ending]:
        return [
            Ending(
                GameEnd.BY_ORGANISER,
                gettext("Close the table"),
                gettext("Each deal is already settled; closing the table ends the game."),
            )
        ]

    def end_entries(
        self, *, game: Game, rules: GameRules, end: GameEnd, shares: dict[int, int] | None
    ) -> list[EndEntry]:
        # A tie-breaker's one deal ends it (``Game.breaks_tie``); any other table is closed.
        if end != GameEnd.BY_ORGANISER and not (end == GameEnd.PLAYED_OUT and game.breaks_tie):
            raise Conflict(
                gettext("a points table ends when the organiser closes it"), code="cannot_finish"
            )
        require_no_deal_waiting(game)
        return []

    def finishing_order(self, *, game: Game, rules: GameRules) -> dict[int, int] | None:
        return competition_ranks(seated_balances(game, Quantity.POINTS))
