"""The API schema's components of a Rummikub match: a counted game (International adds how it
was won and the closed hand), a game as entered, and the match as it stands."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring.formats.base import format_tag, game_status_field
from scoring.formats.rummikub.payload import WINS, payload_fields

FORMAT = "rummikub"
VARIANTS = ["sabra", "american", "international"]
#: A player's part in a game: went out, or not, or nobody went out (the pool ran out).
OUTCOMES = ["winner", "loser", "no_winner"]


class RummikubLineOutput(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    points = serializers.IntegerField(help_text="The game's score: gained (+) or lost (-).")
    rack = serializers.ListField(child=serializers.CharField(), help_text="Tiles left.")


class ClosedHandOutput(serializers.Serializer[dict[str, Any]]):
    type = serializers.IntegerField(help_text="The closed hand type, 1 to 40.")
    name = serializers.CharField()
    value = serializers.IntegerField()
    jokers = serializers.IntegerField()
    arrangement = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))


class RummikubResultOutput(serializers.Serializer[dict[str, Any]]):
    """A counted game of a Rummikub match; International adds ``win`` and, for a closed win,
    ``closed_hand``."""

    format = format_tag(FORMAT)
    variant = serializers.ChoiceField(choices=VARIANTS)
    winner = serializers.IntegerField(allow_null=True, help_text="Null: the pool ran out.")
    players = RummikubLineOutput(many=True)
    win = serializers.ChoiceField(
        choices=WINS, allow_null=True, required=False, help_text="International only."
    )
    closed_hand = ClosedHandOutput(required=False, help_text="International, a closed win.")


class RummikubPayloadOutput(serializers.Serializer[dict[str, Any]]):
    """A game of a Rummikub match as entered."""

    format = format_tag(FORMAT)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {**super().get_fields(), **payload_fields()}


class RummikubPlayerOutput(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()


class MatchLimitsOutput(serializers.Serializer[dict[str, Any]]):
    games = serializers.IntegerField(allow_null=True)
    target_score = serializers.IntegerField(allow_null=True)


class RummikubStateOutput(serializers.Serializer[dict[str, Any]]):
    """A Rummikub match: totals, games counted, the limits, the leaders, and International's
    settlement at the game's rate."""

    format = format_tag(FORMAT)
    status = game_status_field()
    variant = serializers.ChoiceField(choices=VARIANTS)
    games_counted = serializers.IntegerField()
    match = MatchLimitsOutput()
    players = RummikubPlayerOutput(many=True)
    leaders = serializers.ListField(child=serializers.IntegerField())
    settlement_minor = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="International with a rate: each player's net at the end, by player id.",
    )
