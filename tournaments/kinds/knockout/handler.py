"""Knock-out: ``advance_per_table`` of each table go on (at least one goes out of every table
while the field is larger than a final table), the final's order places its players, everyone
else by the round they went out in and their place at their table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring.models import RulePreset
from tournaments.changes import refused
from tournaments.kinds.base import KindBase, KindSettings
from tournaments.kinds.by_tables import round_complete
from tournaments.kinds.knockout.forms import KnockoutFields
from tournaments.kinds.knockout.serializers import KnockoutInput
from tournaments.models import Round, Tournament


class KnockoutKind(KindBase):
    kind = Tournament.Kind.KNOCKOUT.value
    form_fields = KnockoutFields
    input_fields = KnockoutInput

    def settings_checked(
        self, settings: KindSettings, *, table_max: int, preset: RulePreset
    ) -> KindSettings:
        if not 1 <= settings.advance_per_table < table_max:
            raise refused(
                "advance_per_table",
                _("1 to %(most)s of a table of %(table_max)s go on, not %(given)s")
                % {
                    "most": table_max - 1,
                    "table_max": table_max,
                    "given": settings.advance_per_table,
                },
            )
        return super().settings_checked(settings, table_max=table_max, preset=preset)

    def form_settings(
        self, data: Mapping[str, Any], *, chosen: str, minor_places: int
    ) -> dict[str, Any]:
        return {"advance_per_table": data["advance_per_table"]}

    def advance_at(self, tournament: Tournament, played: Round, size: int) -> int:
        """The tournament's number, but at least one goes out of every table while the field
        is larger than a final table (else the round would not shrink it); at a final,
        everyone is placed."""
        if played.stage == Round.Stage.FINAL:
            return size
        return max(1, min(tournament.advance_per_table, size - 1))

    def round_done(self, tournament: Tournament, played: Round) -> None:
        round_complete(self, tournament, played)
