"""The API schema's components of an Indian rummy deal, shared by the three Indian formats (each
adds its own ``format`` and extras): a player's counted line, the hand as the rules grouped it,
and the result as entered."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from rules.indian.deal import OUTCOME_NAMES
from rules.indian.groups import GroupKind
from scoring.formats.indian.payload import payload_fields

#: Every outcome an Indian rummy line may have (``IndianOutcomeEnum``).
OUTCOMES = list(OUTCOME_NAMES)
#: How a line's points were found: scored as grouped, by the best arrangement, as entered, or
#: the outcome's fixed points.
BASES = ["grouped", "arranged", "entered", "fixed"]
GROUP_KINDS = [kind.value for kind in GroupKind]


class IndianGroupOutput(serializers.Serializer[dict[str, Any]]):
    cards = serializers.ListField(child=serializers.CharField(), help_text="E.g. 2H 3H 4H.")
    kind = serializers.ChoiceField(choices=GROUP_KINDS)


class IndianHandOutput(serializers.Serializer[dict[str, Any]]):
    valid = serializers.BooleanField(help_text="A valid declaration.")
    score = serializers.IntegerField(help_text="The points the hand counts (capped).")
    groups = IndianGroupOutput(
        many=True, help_text="In order; a best arrangement's unused cards last, as `invalid`."
    )


class IndianLineOutput(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    points = serializers.IntegerField(
        help_text="What the deal moved for the player, signed as the ledger moves it: won (+) "
        "or given up (-); 0 where the deal moves no points (deals rummy moves chips)."
    )
    against = serializers.IntegerField(
        help_text="The points the rules counted against the player: a loser's count, a drop's "
        "or a missed declaration's fixed points; the winner 0."
    )
    chips = serializers.IntegerField(
        required=False, help_text="Deals rummy: the chips the deal moved for the player, signed."
    )
    basis = serializers.ChoiceField(choices=BASES)
    hand = IndianHandOutput(allow_null=True, help_text="Null when no cards were given.")


class IndianResultOutput(serializers.Serializer[dict[str, Any]]):
    """A counted Indian rummy deal: the wild joker, the winner, each player's line in seat
    order. Each format's component adds its ``format`` and its own figures."""

    wild = serializers.CharField(allow_null=True, help_text="The cut card, or null.")
    winner = serializers.IntegerField()
    players = IndianLineOutput(many=True)


class IndianPayloadOutput(serializers.Serializer[dict[str, Any]]):
    """An Indian rummy deal as entered."""

    wild = serializers.CharField(required=False, allow_blank=True, allow_null=True)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {**super().get_fields(), **payload_fields()}
