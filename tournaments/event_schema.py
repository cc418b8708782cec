"""The tournaments' webhook events as the API schema describes them (``webhooks.schema``)."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.models import Round
from webhooks.schema import event_webhook


class TournamentEventData(serializers.Serializer[dict]):
    tournament = serializers.IntegerField()
    url = serializers.URLField(help_text="The tournament in the API.")


class RoundReleasedData(TournamentEventData):
    round = serializers.IntegerField(help_text="The round's number.")
    stage = serializers.ChoiceField(choices=Round.Stage.choices)
    tables = serializers.ListField(
        child=serializers.IntegerField(), help_text="The game of each table, in table order."
    )


class TournamentFinishedData(TournamentEventData):
    places = serializers.IntegerField(help_text="How many entries were placed.")
    prizes_minor = serializers.IntegerField(help_text="The prizes paid, in minor units.")


round_released = event_webhook(
    "tournament.round_released",
    RoundReleasedData(),
    "A round's draw was released: its tables' games are open for results.",
)
tournament_finished = event_webhook(
    "tournament.finished", TournamentFinishedData(), "A tournament's final was settled."
)
