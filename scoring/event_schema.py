"""The scoring app's webhook events as the API schema describes them (``webhooks.schema``): the
data ``scoring.events`` writes, typed, one component per event."""

from __future__ import annotations

from rest_framework import serializers

from scoring.models import Deal, Game, GameFormat
from webhooks.schema import event_webhook


class DealEventPlayer(serializers.Serializer[dict]):
    """One player's line of a counted version."""

    player = serializers.IntegerField()
    name = serializers.CharField()
    outcome = serializers.CharField(help_text="As in the version's `result`.")
    points = serializers.IntegerField(
        help_text="What the deal moved for the player in points, signed as the ledger moves "
        "them (+ gained, − given up); 0 in deals rummy, whose deals move chips."
    )
    against = serializers.IntegerField(
        required=False,
        help_text="Indian rummy: the points the rules counted against the player (a loser's "
        "count or drop; the winner 0). Absent in Rummikub, whose `points` are the score.",
    )
    chips = serializers.IntegerField(
        required=False, help_text="Deals rummy: the chips the deal moved for the player, signed."
    )


class DealEventReason(serializers.Serializer[dict]):
    """Why a version was refused, as in the version's `reasons`."""

    player = serializers.IntegerField(allow_null=True)
    code = serializers.CharField()
    message = serializers.CharField()


class DealEventData(serializers.Serializer[dict]):
    deal = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The deal's number in its game.")
    status = serializers.ChoiceField(choices=Deal.Status.choices)
    game = serializers.IntegerField()
    session = serializers.IntegerField()
    url = serializers.URLField(help_text="The deal in the API.")
    game_url = serializers.URLField(help_text="The deal's game in the API.")


class DealScoredData(DealEventData):
    submission = serializers.IntegerField(help_text="The version counted.")
    version = serializers.IntegerField()
    players = DealEventPlayer(many=True)


class DealCorrectedData(DealEventData):
    submission = serializers.IntegerField(
        required=False, help_text="The version now counted; absent when the deal was voided."
    )
    version = serializers.IntegerField(required=False)
    players = DealEventPlayer(many=True, required=False, help_text="Absent when voided.")


class DealRejectedData(DealEventData):
    submission = serializers.IntegerField(help_text="The version refused.")
    version = serializers.IntegerField()
    reasons = DealEventReason(many=True)


class GameFinishedData(serializers.Serializer[dict]):
    game = serializers.IntegerField()
    format = serializers.ChoiceField(choices=GameFormat.choices)
    end = serializers.ChoiceField(choices=Game.End.choices, help_text="How the game ended.")
    session = serializers.IntegerField()
    url = serializers.URLField(help_text="The game in the API.")
    state_url = serializers.URLField(help_text="The game's final state in the API.")


class SessionClosedData(serializers.Serializer[dict]):
    session = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.URLField(help_text="The night in the API.")
    settlement_url = serializers.URLField(help_text="Who pays whom, in the API.")


deal_scored = event_webhook("deal.scored", DealScoredData(), "A deal's first version was counted.")
deal_corrected = event_webhook(
    "deal.corrected",
    DealCorrectedData(),
    "A later version of a deal was counted in place of the earlier one, or the deal was voided "
    "(`status` `void`, no players). Shares its order with the deal's other events.",
)
deal_rejected = event_webhook(
    "deal.rejected", DealRejectedData(), "A version of a deal was refused by the rules."
)
game_finished = event_webhook("game.finished", GameFinishedData(), "A game ended.")
session_closed = event_webhook("session.closed", SessionClosedData(), "A night was closed.")
