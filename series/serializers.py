"""The series' API input and output."""

from __future__ import annotations

from rest_framework import serializers

from config.fields import id_field
from series.models import Series
from series.services import SETTINGS


class AwardField(serializers.Serializer[dict]):
    kind = serializers.ChoiceField(choices=["most_wins", "best_average", "most_improved"])
    name = serializers.CharField(max_length=80)


class SeriesInput(serializers.Serializer[dict]):
    name = serializers.CharField(max_length=120)
    points_by = serializers.ChoiceField(choices=Series.PointsBy.choices, default="place")
    points_table = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=1_000_000),
        max_length=500,
        default=list,
        help_text="By place: the points of places 1, 2, ... (none beyond).",
    )
    share_top = serializers.IntegerField(
        min_value=0,
        max_value=1_000_000,
        default=0,
        help_text="By share of the field: the winner's points, top x (N - place) / (N - 1).",
    )
    tiers = serializers.DictField(
        child=serializers.CharField(max_length=12),
        default=lambda: {"regular": "1"},
        help_text='Tier name -> multiplier as a decimal string, e.g. {"regular": "1", '
        '"major": "1.5"}.',
    )
    best_n = serializers.IntegerField(
        min_value=1,
        max_value=1000,
        required=False,
        allow_null=True,
        default=None,
        help_text="The best results that count (null: all).",
    )
    min_events = serializers.IntegerField(min_value=1, max_value=1000, default=1)
    awards = AwardField(many=True, default=list)


class SeriesOutput(serializers.ModelSerializer[Series]):
    awards = AwardField(many=True)
    tiers = serializers.DictField(child=serializers.CharField())
    points_table = serializers.ListField(child=serializers.IntegerField())

    class Meta:
        model = Series
        fields = ["id", *SETTINGS, "created_at", "updated_at"]


class SeriesEventInput(serializers.Serializer[dict]):
    session = id_field(required=False, allow_null=True, help_text="A night of the club.")
    tournament = id_field(required=False, allow_null=True, help_text="A tournament of the club.")
    tier = serializers.CharField(max_length=40, help_text="One of the series' tiers.")


class SeriesEventOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    session = serializers.IntegerField(source="session_id", allow_null=True)
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)
    name = serializers.CharField()
    tier = serializers.CharField()
    multiplier = serializers.CharField()


class EventResultOutput(serializers.Serializer[dict]):
    event = serializers.IntegerField()
    place = serializers.IntegerField()
    field_size = serializers.IntegerField()
    points = serializers.DecimalField(max_digits=12, decimal_places=2)
    counted = serializers.BooleanField()


class SeriesLineOutput(serializers.Serializer[dict]):
    rank = serializers.IntegerField(allow_null=True, help_text="Null until min_events played.")
    ranked = serializers.BooleanField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.DecimalField(max_digits=14, decimal_places=2)
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    average = serializers.DecimalField(max_digits=14, decimal_places=2)
    counted = serializers.ListField(child=serializers.IntegerField())
    results = EventResultOutput(many=True)


class AwardOutput(serializers.Serializer[dict]):
    kind = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    player_ids = serializers.ListField(child=serializers.IntegerField())
    players = serializers.ListField(child=serializers.CharField())
    value = serializers.CharField()


class SeriesTableOutput(serializers.Serializer[dict]):
    series = SeriesOutput()
    events = SeriesEventOutput(many=True)
    lines = SeriesLineOutput(many=True)
    awards = AwardOutput(many=True)


class SeriesEventsOutput(serializers.Serializer[dict]):
    results = SeriesEventOutput(many=True)


class SeriesListOutput(serializers.Serializer[dict]):
    results = SeriesOutput(many=True)
