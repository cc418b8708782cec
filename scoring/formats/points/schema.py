"""The API schema's components of points rummy: a counted deal (with its money at the table's
rate), a deal as entered, and the table as it stands."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring.formats.base import format_tag, game_status_field
from scoring.formats.indian.schema import IndianPayloadOutput, IndianResultOutput

FORMAT = "points"


class PointsMoneyOutput(serializers.Serializer[dict[str, Any]]):
    point_value_minor = serializers.IntegerField(help_text="The table's rate per point.")
    winnings_minor = serializers.IntegerField(help_text="What the winner collects.")
    club_fee_minor = serializers.IntegerField(help_text="The club's cut of the winnings.")
    by_player = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each player's money, by player id."
    )


class PointsResultOutput(IndianResultOutput):
    """A counted points rummy deal (``money`` once counted at a table with a rate)."""

    format = format_tag(FORMAT)
    money = PointsMoneyOutput(required=False)


class PointsPayloadOutput(IndianPayloadOutput):
    format = format_tag(FORMAT)


class PointsPlayerOutput(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    position = serializers.IntegerField()
    points = serializers.IntegerField(help_text="The ledger's points: won (+) or paid (-).")
    money_minor = serializers.IntegerField()


class PointsStateOutput(serializers.Serializer[dict[str, Any]]):
    """A points table: each seat's points and money."""

    format = format_tag(FORMAT)
    status = game_status_field()
    players = PointsPlayerOutput(many=True)
