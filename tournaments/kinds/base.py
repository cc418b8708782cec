"""The one protocol every tournament kind implements, and its defaults.

A kind owns everything that differs between knock-out, round-based and chip-level
tournaments: its settings (checked at creation, with the form's and the API's fields for them),
its draw (how a round's stage is named), its advancement (who goes on from a table, what a round
complete leads to, the final's places), a late entrant, which corrections it takes, its figures
(chips) and its panels on the desk and the public page. Nothing outside ``tournaments/kinds``
compares a tournament's kind: it asks ``tournaments.kinds.kind_for``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from django import forms
from django.utils.translation import gettext as _
from rest_framework import serializers

from clubs.models import Club
from config.errors import InvalidInput
from scoring.models import RulePreset
from tournaments.kinds.seating import draw_round
from tournaments.models import Entry, Round, Tournament


@dataclass(frozen=True)
class KindSettings:
    """A new tournament's kind settings, as its columns keep them (each kind reads its own)."""

    advance_per_table: int = 2
    rounds: int = 0
    cut: int = 0
    chip_levels: dict[str, Any] = field(default_factory=dict)


class RoundShown(Protocol):
    """A round as the pages read it (``tournaments.selectors.RoundView``)."""

    number: int
    stage: str
    status: str
    advanced: list[int]
    level: int | None


class TournamentKindHandler(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def form_fields(self) -> type[forms.Form]:
        """The create form's fields of its settings (composed by ``tournaments.forms``)."""

    @property
    def input_fields(self) -> type[serializers.Serializer[Any]]:
        """The API's input fields of its settings (composed by ``tournaments.serializers``)."""

    @property
    def summary_template(self) -> str:
        """Its settings in words on the desk's summary line."""

    @property
    def after_round_template(self) -> str:
        """Who went on, in words, under a complete round of the results grid."""

    @property
    def panel_template(self) -> str:
        """Its own panel of the desk and the public page ("" for none)."""

    def settings_checked(
        self, settings: KindSettings, *, table_max: int, preset: RulePreset
    ) -> KindSettings: ...

    def form_settings(
        self, data: Mapping[str, Any], *, chosen: str, minor_places: int
    ) -> dict[str, Any]: ...

    def stage_for(self, tournament: Tournament, players: int, number: int) -> str: ...

    def first_round(self, tournament: Tournament, entries: Sequence[Entry]) -> Round: ...

    def advance_at(self, tournament: Tournament, played: Round, size: int) -> int: ...

    def cut(self, tournament: Tournament, played: Round, survivors: list[Entry]) -> list[Entry]: ...

    def round_done(self, tournament: Tournament, played: Round) -> None: ...

    def went_on(self, played: Round, advancing: list[int]) -> list[int]: ...

    def late_entrant(self, tournament: Tournament, entry: Entry) -> None: ...

    def correction_check(self, tournament: Tournament, played: Round) -> None: ...

    def unwind_check(self, tournament: Tournament) -> None: ...

    def chips_held(self, tournament: Tournament) -> dict[int, int] | None: ...

    def level_minimum(self, tournament: Tournament, level: int | None) -> int | None:
        """The chips a player must keep to stay in at ``level`` (``None``: a kind without)."""

    def panel(
        self, *, club: Club, tournament: Tournament, entries: Sequence[Entry],
        rounds: Sequence[RoundShown], draft_open: bool,
    ) -> dict[str, Any] | None: ...  # fmt: skip


class KindBase:
    """Defaults shared by the kinds: no chip-level settings, a final once the field fits one
    table, everyone goes on from a table (the round's end decides), nothing special for a late
    entrant or a correction, no chips and no panel of its own."""

    kind: ClassVar[str]
    form_fields: ClassVar[type[forms.Form]]
    input_fields: ClassVar[type[serializers.Serializer[Any]]]
    panel_template: ClassVar[str] = ""

    @property
    def summary_template(self) -> str:
        return f"tournaments/kinds/{self.kind}/summary.html"

    @property
    def after_round_template(self) -> str:
        return f"tournaments/kinds/{self.kind}/after_round.html"

    def settings_checked(
        self, settings: KindSettings, *, table_max: int, preset: RulePreset
    ) -> KindSettings:
        if settings.chip_levels:
            raise InvalidInput(
                "chip_levels: " + _("only a chip-level tournament (kind chips) has them")
            )
        return settings

    def stage_for(self, tournament: Tournament, players: int, number: int) -> str:
        return Round.Stage.FINAL if players <= tournament.table_max else Round.Stage.ROUND

    def first_round(self, tournament: Tournament, entries: Sequence[Entry]) -> Round:
        stage = self.stage_for(tournament, len(entries), 1)
        return draw_round(tournament, 1, stage, [e.pk for e in entries])

    def advance_at(self, tournament: Tournament, played: Round, size: int) -> int:
        return size

    def cut(self, tournament: Tournament, played: Round, survivors: list[Entry]) -> list[Entry]:
        return survivors

    def went_on(self, played: Round, advancing: list[int]) -> list[int]:
        return advancing

    def late_entrant(self, tournament: Tournament, entry: Entry) -> None:
        return None

    def leaver_place(self, tournament: Tournament, number: int, at_table: int) -> int:
        """The place among those out of round ``number`` of one who left the tournament after
        standing ``at_table`` at their table there: that place (the rules place a leaver by
        where they stood at their table)."""
        return at_table

    def correction_check(self, tournament: Tournament, played: Round) -> None:
        return None

    def unwind_check(self, tournament: Tournament) -> None:
        return None

    def chips_held(self, tournament: Tournament) -> dict[int, int] | None:
        return None

    def level_minimum(self, tournament: Tournament, level: int | None) -> int | None:
        return None

    def panel(
        self, *, club: Club, tournament: Tournament, entries: Sequence[Entry],
        rounds: Sequence[RoundShown], draft_open: bool,
    ) -> dict[str, Any] | None:  # fmt: skip
        return None
