"""The API schema's components of a game of Okey: a counted deal, a deal as entered, and the
game as it stands."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring.formats.base import format_tag, game_status_field
from scoring.formats.okey.payload import FINISHES, payload_fields

FORMAT = "okey"
#: A preset's variant is its way of scoring (``rules.okey.preset.SCORINGS``).
VARIANTS = ["loss", "countdown"]
#: A player's part in a deal: finished, or not, or the tiles ran out with nobody finished.
OUTCOMES = ["finisher", "other", "no_finisher"]


class OkeyLineOutput(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    points = serializers.IntegerField(help_text="The deal's score: gained (+) or lost (-).")
    indicator_shown = serializers.BooleanField()


class OkeyResultOutput(serializers.Serializer[dict[str, Any]]):
    """A counted deal of Okey: the indicator and its okey, the finish and what it was worth."""

    format = format_tag(FORMAT)
    variant = serializers.ChoiceField(choices=VARIANTS)
    indicator = serializers.CharField()
    okey = serializers.CharField(help_text="The wild tile: the indicator's next number.")
    finisher = serializers.IntegerField(allow_null=True, help_text="Null: the tiles ran out.")
    finish = serializers.ChoiceField(choices=FINISHES, allow_null=True)
    okey_discard = serializers.BooleanField()
    worth = serializers.IntegerField(help_text="What the finish was worth (0: nobody finished).")
    hand = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text="The finisher's tiles as the rules arranged them, when entered.",
    )
    players = OkeyLineOutput(many=True)


class OkeyPayloadOutput(serializers.Serializer[dict[str, Any]]):
    """A deal of Okey as entered."""

    format = format_tag(FORMAT)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {**super().get_fields(), **payload_fields()}


class OkeyPlayerOutput(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    left = serializers.IntegerField(
        allow_null=True, help_text="Countdown: the count left to reach 0; null under loss."
    )


class OkeyStateOutput(serializers.Serializer[dict[str, Any]]):
    """A game of Okey: each player's total, the deals counted and, under countdown, each
    player's count left and who reached 0."""

    format = format_tag(FORMAT)
    status = game_status_field()
    variant = serializers.ChoiceField(choices=VARIANTS)
    deals_counted = serializers.IntegerField()
    target = serializers.IntegerField(allow_null=True, help_text="Countdown: the starting count.")
    players = OkeyPlayerOutput(many=True)
    winners = serializers.ListField(child=serializers.IntegerField())
    settlement_minor = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="With a rate: each player's net at the end, by player id.",
    )
