"""Rounds, then a cut: ``rounds`` rounds in which nobody goes out (the points count towards the
cut), then the top ``cut`` by their points over those rounds to a semi-final seated by rank (or,
with no cut, the top of a table straight to the final), the top ``table_max`` of it by their
semi-final points to the final; the final's order places its players."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring.figures import players_net_points
from scoring.models import RulePreset
from tournaments.changes import E, refused
from tournaments.kinds.base import KindBase, KindSettings
from tournaments.kinds.by_tables import round_complete
from tournaments.kinds.rounds.forms import RoundsFields
from tournaments.kinds.rounds.serializers import RoundsInput
from tournaments.models import Entry, Round, RoundTable, Tournament


class RoundsKind(KindBase):
    kind = Tournament.Kind.ROUNDS.value
    form_fields = RoundsFields
    input_fields = RoundsInput

    def settings_checked(
        self, settings: KindSettings, *, table_max: int, preset: RulePreset
    ) -> KindSettings:
        if settings.rounds < 1:
            raise refused("rounds", _("a rounds tournament plays one round or more before its cut"))
        return super().settings_checked(settings, table_max=table_max, preset=preset)

    def form_settings(
        self, data: Mapping[str, Any], *, chosen: str, minor_places: int
    ) -> dict[str, Any]:
        return {"rounds": data["rounds"], "cut": data["cut"]}

    def stage_for(self, tournament: Tournament, players: int, number: int) -> str:
        if number <= tournament.rounds:
            return Round.Stage.ROUND
        if players <= tournament.table_max:
            return Round.Stage.FINAL
        return Round.Stage.SEMIFINAL

    def advance_at(self, tournament: Tournament, played: Round, size: int) -> int:
        return size  # rounds before the cut eliminate nobody; a semi-final cuts on points

    def round_done(self, tournament: Tournament, played: Round) -> None:
        round_complete(self, tournament, played)

    def leaver_place(self, tournament: Tournament, number: int, at_table: int) -> int:
        """A round that ends in a cut places those cut by points from just below the cut: one
        who left in it goes below all of them, by where they stood at their table."""
        if number >= tournament.rounds:
            return tournament.entries.count() + at_table
        return at_table

    def cut(self, tournament: Tournament, played: Round, survivors: list[Entry]) -> list[Entry]:
        """After the last round before the cut, the top ``cut`` by their points over those
        rounds go on (seeded by them); after a semi-final, the top ``table_max`` by their
        semi-final points. The rest are out, placed by those points (ties share a place)."""
        if played.stage == Round.Stage.SEMIFINAL:
            points = points_in(tournament.round_set.filter(pk=played.pk))
            keep = tournament.table_max
        elif played.number < tournament.rounds:
            return survivors
        else:
            points = points_in(tournament.round_set.filter(stage=Round.Stage.ROUND))
            keep = tournament.cut or tournament.table_max
        ordered = sorted(survivors, key=lambda e: (-points.get(e.player_id, 0), e.seed or 0))
        place = keep + 1
        for index, entry in enumerate(ordered[keep:], start=keep + 1):
            if points.get(entry.player_id, 0) != points.get(ordered[index - 2].player_id, 0):
                place = index
            entry.status = E.ELIMINATED
            entry.out_in_round = played.number
            entry.table_place = place
            entry.save(update_fields=["status", "out_in_round", "table_place"])
        return ordered[:keep]


def points_in(rounds: Any) -> dict[int, int]:
    """Each player's net points over the tables of ``rounds``, from the ledger (the session's
    other games, and those of a round unwound, do not count)."""
    games = RoundTable.objects.filter(round__in=rounds).values("game_id")
    return players_net_points(games=games)
