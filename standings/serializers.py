"""The standings' and ratings' API shapes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.openapi import PageOutput
from standings.metrics import METRICS


class MetricOutput(serializers.Serializer[dict]):
    id = serializers.CharField()
    label = serializers.CharField()
    description = serializers.CharField()
    descending = serializers.BooleanField(help_text="Higher ranks first.")


@extend_schema_field(
    {"type": "array", "items": {"type": "string", "enum": list(METRICS)}, "uniqueItems": True}
)
class _MetricIdsField(serializers.ListField):
    """Metric ids, each once (the service names an unknown or repeated id)."""


class MetricOrderInput(serializers.Serializer[dict]):
    order = _MetricIdsField(
        child=serializers.CharField(max_length=40),
        allow_empty=True,
        help_text="Metric ids in the order they rank the standings (empty: the default).",
    )


class MetricOrderOutput(serializers.Serializer[dict]):
    order = serializers.ListField(child=serializers.CharField())
    metrics = MetricOutput(many=True)


class StandingLineOutput(serializers.Serializer[dict]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    metrics = serializers.DictField(
        help_text="The value of each ranking metric, by metric id (a ratio to three decimals; "
        "the rank compares exact fractions)."
    )
    totals = serializers.DictField(
        child=serializers.IntegerField(allow_null=True),
        help_text="The row's totals by field (`money_minor` is null in a club that plays for "
        "points only).",
    )
    points_by_format = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Each format's points, when the table mixes formats (see `formats`).",
    )


class StandingsOutput(PageOutput):
    scope = serializers.CharField()
    scope_id = serializers.IntegerField()
    metrics = serializers.SerializerMethodField()
    as_of_entry = serializers.IntegerField(allow_null=True)
    game_format = serializers.CharField(
        help_text="The game format counted, or empty for all formats."
    )
    formats = serializers.ListField(
        child=serializers.CharField(),
        help_text="A table of all formats whose points are different units: those formats, "
        "each with its own points (`points_by_format`); empty otherwise.",
    )
    left_out = serializers.SerializerMethodField(
        help_text="Metrics of the club's order in points, which cannot rank a table mixing units."
    )
    results = StandingLineOutput(many=True, source="lines", help_text="A page of the table.")

    def get_metrics(self, table: Any) -> list[str]:
        return [metric.id for metric in table.metrics]

    def get_left_out(self, table: Any) -> list[str]:
        return [metric.id for metric in table.left_out]


class RatingLineOutput(serializers.Serializer[dict]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: what the table ranks by.")
    games = serializers.IntegerField(help_text="Rated games in the family.")
    provisional = serializers.BooleanField(help_text="Fewer than 5 rated games.")


class RatingTableOutput(PageOutput):
    game_family = serializers.CharField()
    as_of_session = serializers.IntegerField(allow_null=True)
    results = RatingLineOutput(many=True)


class RatedGameOutput(serializers.Serializer[dict]):
    game = serializers.IntegerField(source="game_id")
    family = serializers.CharField()
    finished_at = serializers.DateTimeField()
    ranks = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Player id (as a string, a JSON object's key) -> finishing place (1 best).",
    )


class RatedGamesOutput(PageOutput):
    game_family = serializers.CharField()
    results = RatedGameOutput(many=True)


class RatingChangeOutput(serializers.Serializer[dict]):
    game = serializers.IntegerField()
    family = serializers.CharField()
    finished_at = serializers.DateTimeField()
    rank = serializers.IntegerField()
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()
    games = serializers.IntegerField()


class RatingChangePage(PageOutput):
    """A player's rating changes, a page at a time, in the one paging shape."""

    player = serializers.IntegerField()
    name = serializers.CharField()
    results = RatingChangeOutput(many=True)


class PlayerRatingsOutput(serializers.Serializer[dict]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    changes = RatingChangeOutput(many=True)
