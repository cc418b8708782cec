"""Chip levels: each round plays a level whose points turn into chips kept in the purse; the
level's end says who is out, who plays it again and who goes on; the final places by chips.
Its tables play points rummy, its settings are ``chip_levels``, its figure is each player's
chips, a late entrant gets the opening stack, a complete level stands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from clubs.models import Club
from config.errors import Conflict, InvalidInput
from scoring.formats import handler_for
from scoring.models import RulePreset
from tournaments.figures import chips_held
from tournaments.kinds.base import KindBase, KindSettings, RoundShown
from tournaments.kinds.chips.forms import ChipLevelsFields, chip_levels_typed
from tournaments.kinds.chips.levels import (
    chip_rules_checked,
    chips_open,
    level_complete,
    rules_of,
    stage_of,
)
from tournaments.kinds.chips.pages import chips_panel
from tournaments.kinds.chips.serializers import ChipLevelsInput
from tournaments.models import Entry, Round, Tournament


class ChipsKind(KindBase):
    kind = Tournament.Kind.CHIPS.value
    form_fields = ChipLevelsFields
    input_fields = ChipLevelsInput
    panel_template = "tournaments/kinds/chips/panel.html"

    def settings_checked(
        self, settings: KindSettings, *, table_max: int, preset: RulePreset
    ) -> KindSettings:
        """Its ``chip_levels`` checked (the default preset when none); its tables must play a
        format whose figure is points won and lost between the players (zero-sum), which turn
        into chips: pool's penalties and Rummikub's scores do not convert."""
        checked = chip_rules_checked(settings.chip_levels).as_dict()
        if "points" not in {column.key for column in handler_for(preset.format).columns}:
            raise InvalidInput(
                "preset: "
                + _(
                    "a chip-level tournament's tables play points rummy (each deal's points turn "
                    "into chips)"
                ),
                code="chips_need_points",
            )
        return KindSettings(settings.advance_per_table, settings.rounds, settings.cut, checked)

    def form_settings(
        self, data: Mapping[str, Any], *, chosen: str, minor_places: int
    ) -> dict[str, Any]:
        typed = chip_levels_typed(data, minor_places=minor_places)
        return {"chip_levels": typed if chosen == self.kind else None}

    def stage_for(self, tournament: Tournament, players: int, number: int) -> str:
        return stage_of(tournament, players)

    def first_round(self, tournament: Tournament, entries: Sequence[Entry]) -> Round:
        """Everyone starts with the opening stack and plays level 1."""
        chips_open(tournament, list(entries))
        first = super().first_round(tournament, entries)
        first.level = 1
        first.save(update_fields=["level"])
        return first

    def round_done(self, tournament: Tournament, played: Round) -> None:
        level_complete(tournament, played)

    def went_on(self, played: Round, advancing: list[int]) -> list[int]:
        """A table ends with its chips: the level's end says who went on."""
        return [e for e in advancing if e in played.advanced]

    def late_entrant(self, tournament: Tournament, entry: Entry) -> None:
        chips_open(tournament, [entry])  # a late entrant's stack, as everyone's

    def correction_check(self, tournament: Tournament, played: Round) -> None:
        raise Conflict(
            _(
                "this table's level is complete: its chips are posted and decided who went on, "
                "so its result stands"
            ),
            code="level_complete",
        )

    def unwind_check(self, tournament: Tournament) -> None:
        raise Conflict(
            _("a chip-level tournament's levels stand once complete"), code="level_complete"
        )

    def chips_held(self, tournament: Tournament) -> dict[int, int] | None:
        return chips_held(tournament=tournament)

    def level_minimum(self, tournament: Tournament, level: int | None) -> int | None:
        levels = rules_of(tournament).levels
        return levels[level - 1].minimum if level and 0 < level <= len(levels) else None

    def panel(
        self, *, club: Club, tournament: Tournament, entries: Sequence[Entry],
        rounds: Sequence[RoundShown], draft_open: bool,
    ) -> dict[str, Any] | None:  # fmt: skip
        return chips_panel(
            club=club, tournament=tournament, entries=entries, rounds=rounds,
            draft_open=draft_open,
        )  # fmt: skip
