"""The API schema's components of deals rummy: a counted deal (with the chips it moved), a deal as
entered, and the game as it stands."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring.formats.base import format_tag, game_status_field
from scoring.formats.indian.schema import IndianPayloadOutput, IndianResultOutput

FORMAT = "deals"


class DealsResultOutput(IndianResultOutput):
    """A counted deals rummy deal (``chips`` it moved, by player id, once counted)."""

    format = format_tag(FORMAT)
    chips = serializers.DictField(child=serializers.IntegerField(), required=False)


class DealsPayloadOutput(IndianPayloadOutput):
    format = format_tag(FORMAT)


class DealsPlayerOutput(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    chips = serializers.IntegerField()


class DealsStateOutput(serializers.Serializer[dict[str, Any]]):
    """A deals game: chips, deals counted, whether a tie-breaker deal is due, the winner."""

    format = format_tag(FORMAT)
    status = game_status_field()
    deals = serializers.IntegerField(help_text="Deals the game is played over.")
    deals_counted = serializers.IntegerField()
    drops_allowed = serializers.BooleanField()
    starting_chips = serializers.IntegerField()
    table_chips = serializers.IntegerField()
    pot_minor = serializers.IntegerField()
    prize_minor = serializers.IntegerField()
    club_fee_minor = serializers.IntegerField()
    players = DealsPlayerOutput(many=True)
    leaders = serializers.ListField(child=serializers.IntegerField())
    tiebreaker_needed = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
