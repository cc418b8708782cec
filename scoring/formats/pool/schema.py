"""The API schema's components of pool rummy: a counted deal, a deal as entered, and the pool as
it stands (scores, eliminations, rejoins, the pot, the split offers)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring.formats.base import format_tag, game_status_field
from scoring.formats.indian.schema import IndianPayloadOutput, IndianResultOutput

FORMAT = "pool"
#: The splits of the prize a pool may offer.
SPLIT_KINDS = ["drops", "equal"]
PLAYER_STATUSES = ["active", "eliminated"]


class PoolResultOutput(IndianResultOutput):
    format = format_tag(FORMAT)


class PoolPayloadOutput(IndianPayloadOutput):
    format = format_tag(FORMAT)


class NoRejoinOutput(serializers.Serializer[dict[str, Any]]):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField()


class PoolPlayerOutput(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.IntegerField(help_text="Points taken toward the limit.")
    status = serializers.ChoiceField(choices=PLAYER_STATUSES)
    rejoins = serializers.IntegerField()
    drops_remaining = serializers.IntegerField()
    can_rejoin = serializers.BooleanField()
    no_rejoin = NoRejoinOutput(
        allow_null=True, help_text="Why a player out of an open pool cannot rejoin now."
    )


class PoolStateOutput(serializers.Serializer[dict[str, Any]]):
    """A pool game: scores, who is out, rejoins, drops remaining, the pot, splits, the winner."""

    format = format_tag(FORMAT)
    status = game_status_field()
    limit = serializers.IntegerField(help_text="101 or 201: a score reaching it is out.")
    entry_fee_minor = serializers.IntegerField()
    entries = serializers.IntegerField(help_text="Entry fees paid, rejoins included.")
    pot_minor = serializers.IntegerField()
    prize_pool_minor = serializers.IntegerField()
    club_fee_minor = serializers.IntegerField()
    players = PoolPlayerOutput(many=True)
    split_offers = serializers.ListField(child=serializers.ChoiceField(choices=SPLIT_KINDS))
    winner = serializers.IntegerField(allow_null=True)
