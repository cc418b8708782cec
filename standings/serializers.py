"""The standings' and ratings' API shapes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.fields import ID_MAX
from config.openapi import PageOutput
from standings.metrics import METRICS
from standings.result_sheet import LAYOUTS


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


class ResultImportInput(serializers.Serializer[dict]):
    """A sheet of past results: its layout, the file (as base64, or CSV text) and the names of
    players not found on the roster mapped to roster players."""

    layout = serializers.ChoiceField(
        choices=list(LAYOUTS), help_text="The sheet's layout (docs/imports.md)."
    )
    file_base64 = serializers.CharField(
        required=False, max_length=11_200_000,
        help_text="A CSV or XLSX file, base64-encoded (at most 8 MB before encoding).",
    )  # fmt: skip
    text = serializers.CharField(
        required=False, max_length=8 * 1024 * 1024, trim_whitespace=False,
        help_text="The sheet as CSV text (instead of a file).",
    )  # fmt: skip
    filename = serializers.CharField(
        required=False, max_length=200, default="",
        help_text="The file's name: its ending (.csv or .xlsx) says what it is.",
    )  # fmt: skip
    preset = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=ID_MAX,
        help_text="The preset the games were played under, of the layout's format (default: "
        "the layout's built-in preset: points, pool-101, deals-2 or sabra).",
    )  # fmt: skip
    names = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX), required=False,
        default=dict,
        help_text='Names of the sheet not on the roster, each mapped to a roster player: '
        '{"Bhavana": 12}.',
    )  # fmt: skip


class ImportRowErrorOutput(serializers.Serializer[dict]):
    row = serializers.IntegerField(help_text="The row as the sheet numbers it (1: the header).")
    column = serializers.CharField()
    message = serializers.CharField()


class ImportSuggestionOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ImportUnknownNameOutput(serializers.Serializer[dict]):
    name = serializers.CharField()
    rows = serializers.ListField(child=serializers.IntegerField())
    suggestions = ImportSuggestionOutput(many=True, help_text="Roster players it may be.")


class ResultImportPreviewOutput(serializers.Serializer[dict]):
    layout = serializers.CharField()
    nights = serializers.IntegerField()
    tables = serializers.IntegerField()
    deals = serializers.IntegerField()
    first_night = serializers.CharField(allow_null=True)
    last_night = serializers.CharField(allow_null=True)
    errors = ImportRowErrorOutput(many=True, help_text="At most 500, by row.")
    error_count = serializers.IntegerField()
    unknown_names = ImportUnknownNameOutput(many=True)
    fingerprint = serializers.CharField()
    imported_as = serializers.IntegerField(
        allow_null=True, help_text="The import that already brought these results in, if any."
    )


class ResultImportOutput(serializers.Serializer[dict]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["queued", "running", "done", "cancelled", "failed"])
    written = serializers.IntegerField(help_text="Deals (or tables of totals) written so far.")
    total = serializers.IntegerField()
    nights = serializers.IntegerField()
    deals = serializers.IntegerField()
    error = serializers.CharField(allow_blank=True)
    cancel_asked = serializers.BooleanField()
