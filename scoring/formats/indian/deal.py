"""What the three Indian rummy formats (points, pool, deals) share: the outcomes a deal may have
and how a deal is checked and scored, both from the rules engine (``rules/indian/deal.py``); the
API's input of a result, its entry form, how the deal page shows it, and its standing tallies."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext_noop
from rest_framework import serializers

from clubs.models import Club
from clubs.page_kit.forms import initial_for_players
from rules.families import Family
from rules.indian.deal import (
    OutcomeOption,
    PlayerEntry,
    Reason,
    evaluate_indian_deal,
    outcome_options,
)
from rules.indian.preset import DEFAULT_HOUSE_RULES, HouseRules, IndianPreset
from scoring.formats.base import (
    POINTS_CONCEDED,
    Checked,
    EntryForm,
    Initial,
    Tally,
    reason_dicts,
    refused,
)
from scoring.formats.indian import pages
from scoring.formats.indian.forms import OUTCOME_WORDS, DealEntryForm
from scoring.formats.indian.payload import entered_against, payload_fields
from scoring.formats.indian.preset import INDIAN_SECTIONS, indian_preview
from scoring.formats.indian.schema import OUTCOMES
from scoring.formats.sections import PresetPreview, PresetSection
from scoring.models import Game, Submission
from scoring.presets import GameRules, preset_replace, preset_section

#: Outcomes the standings count as a drop, and as a full count.
DROPS = {"first_drop", "middle_drop"}
FULL_COUNTS = {"wrong_show", "late_declare"}


def indian_rules(base: IndianPreset, params: dict[str, Any]) -> IndianPreset:
    """The ``indian`` section of a preset over a format's base numbers."""
    replaced: IndianPreset = preset_replace("indian", base, preset_section(params, "indian"))
    return replaced


def house_rules(params: dict[str, Any]) -> HouseRules:
    """The ``house_rules`` section of a preset over the seeds' rules (``HouseRules``)."""
    replaced: HouseRules = preset_replace(
        "house_rules", DEFAULT_HOUSE_RULES, preset_section(params, "house_rules")
    )
    return replaced


class IndianDeal:
    """Checking, scoring, entering and showing an Indian rummy deal."""

    family: ClassVar[str] = Family.INDIAN
    variants: ClassVar[Collection[str]] = ("indian",)
    tiebreak_preset: ClassVar[str] = "points"
    entered_as: ClassVar[str] = "hands"
    entry_template: ClassVar[str] = "scoring/formats/indian/entry.html"
    result_template: ClassVar[str] = "scoring/formats/indian/result.html"
    outcome_words: ClassVar[Mapping[str, str]] = OUTCOME_WORDS
    payload_key: ClassVar[str] = "results"
    result_outcomes: ClassVar[tuple[str, ...]] = tuple(OUTCOMES)
    preset_sections: ClassVar[tuple[PresetSection, ...]] = INDIAN_SECTIONS

    def preset_preview(self, *, rules: GameRules) -> PresetPreview:
        return indian_preview(rules)

    tallies: ClassVar[tuple[Tally, ...]] = (
        POINTS_CONCEDED,
        Tally("drops", "fewest_drops", gettext_noop("Drops"),
              gettext_noop("Fewest drops (first and middle).")),
        Tally(
            "full_counts", "fewest_full_counts", gettext_noop("Full counts"),
            gettext_noop("Fewest wrong shows and late declarations."),
        ),
    )  # fmt: skip

    def payload_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return payload_fields()

    def deal_tallies(self, *, outcome: str, points: int, won: bool) -> dict[str, int]:
        return {
            "deals_played": 1,
            "deals_won": int(won),
            "drops": int(outcome in DROPS),
            "full_counts": int(outcome in FULL_COUNTS),
            "points_conceded": -points if points < 0 else (0 if won else points),
        }

    def entry_form(
        self, *, rules: GameRules, players: dict[int, str], data: Any, initial: Initial
    ) -> EntryForm:
        return DealEntryForm(
            data,
            seats=list(players.items()),
            outcomes=self.outcomes(rules=rules),
            initial=initial,
        )

    def entry_initial(
        self, *, payload: dict[str, Any] | None, wild: str, aliases: dict[int, int]
    ) -> dict[str, Any]:
        return initial_for_players(DealEntryForm.initial_from(payload, wild), aliases)

    def entry_context(self, *, game: Game, rules: GameRules, form: EntryForm) -> dict[str, Any]:
        return pages.entry_context(rules, self.outcomes(rules=rules))

    def result_view(
        self,
        *,
        club: Club,
        game: Game,
        rules: GameRules,
        submission: Submission,
        names: dict[int, str],
    ) -> dict[str, Any]:
        return pages.result_view(
            club, submission, names, rules.indian, rules.house_rules or DEFAULT_HOUSE_RULES
        )

    def outcomes(self, *, rules: GameRules) -> tuple[OutcomeOption, ...]:
        assert rules.indian is not None
        return outcome_options(rules.indian)

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked:
        assert rules.indian is not None
        payload = submission.payload
        if "results" not in payload:
            return refused(
                players,
                [
                    Reason(
                        None, "missing_field", "an Indian rummy deal needs results for every player"
                    )
                ],
            )
        entries = [
            PlayerEntry(
                player=line.get("player"),
                outcome=line.get("outcome"),
                groups=line.get("groups"),
                cards=line.get("cards"),
                points=entered_against(line),
            )
            for line in payload.get("results", [])
        ]
        wild = payload.get("wild") or submission.deal.wild or None
        evaluation = evaluate_indian_deal(
            entries=entries,
            expected=players,
            wild=wild,
            preset=rules.indian,
            house=rules.house_rules or DEFAULT_HOUSE_RULES,
        )
        if not evaluation.ok:
            return Checked(evaluation, None, reason_dicts(evaluation, players))
        result = {
            "wild": wild,
            "winner": evaluation.winner,
            "players": [
                {
                    "player": score.player,
                    "name": players[score.player],
                    "outcome": score.outcome,
                    # What the rules counted against the player (the winner 0); the signed
                    # ``points`` the deal moves are added beside it (``result_moved``).
                    "against": score.points,
                    "basis": score.basis,
                    "hand": score.hand.as_dict() if score.hand is not None else None,
                }
                for score in evaluation.scores
            ],
        }
        return Checked(evaluation, result, [])
