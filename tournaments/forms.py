"""Input checks of the tournament pages' forms: shapes and numbers. Whether a tournament, an
entry or a swap makes sense is for the services."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.fields import id_form_field
from rules.prizes import STRUCTURES
from tournaments.kinds import DEFAULT_KIND, KINDS
from tournaments.models import Tournament

PAYOUT_WORDS = {
    "by_field": gettext_lazy("By the size of the field"),
    "seventy_thirty": "70 / 30",
    "winner_takes_all": gettext_lazy("Winner takes all"),
    "top_quarter": gettext_lazy("Top quarter of the field"),
    "custom": gettext_lazy("Our own percentages"),
}
MONEY = {"max_digits": 12, "decimal_places": 2, "min_value": Decimal(0)}


class TournamentBaseForm(forms.Form):
    """What every kind's tournament is created with; each kind adds its own fields
    (``TournamentForm``)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"), choices=Tournament.Kind.choices, initial=DEFAULT_KIND
    )
    preset = id_form_field(label=gettext_lazy("Each table plays"))
    table_max = forms.IntegerField(
        label=gettext_lazy("Players a table"), min_value=2, max_value=6, initial=6
    )
    table_min = forms.IntegerField(
        label=gettext_lazy("Fewest at a table"), min_value=2, max_value=6, initial=3
    )
    entry_fee = forms.DecimalField(label=gettext_lazy("Entry fee"), initial=Decimal(0), **MONEY)  # type: ignore[arg-type]
    club_fee = forms.DecimalField(
        label=gettext_lazy("Club's share of each entry fee"), initial=Decimal(0), **MONEY
    )  # type: ignore[arg-type]
    payout = forms.ChoiceField(
        label=gettext_lazy("Prizes"), choices=list(PAYOUT_WORDS.items()), initial="by_field"
    )
    custom_payout = forms.CharField(
        label=gettext_lazy("Percentages by place"), required=False, max_length=200,
        help_text=gettext_lazy("For our own: e.g. 50 30 20"),
    )  # fmt: skip
    seeding = forms.ChoiceField(label=gettext_lazy("Seeding"), choices=Tournament.Seeding.choices)
    avoid_same_club = forms.BooleanField(
        label=gettext_lazy("Keep players of one club apart"), required=False
    )
    table_entry = forms.ChoiceField(
        label=gettext_lazy("Tables enter their own results"),
        choices=Tournament._meta.get_field("table_entry").choices,
        required=False,
    )
    max_entries = forms.IntegerField(
        label=gettext_lazy("Most entries"), min_value=2, required=False
    )
    late_entry_until_round = forms.IntegerField(
        label=gettext_lazy("Late entry until round"), min_value=1, max_value=50, initial=1
    )

    def clean_custom_payout(self) -> list[str]:
        text = self.cleaned_data.get("custom_payout", "")
        parts = [part for part in text.replace(",", " ").replace("%", " ").split() if part]
        for part in parts:
            try:
                Decimal(part)
            except ArithmeticError:
                raise forms.ValidationError(
                    _("%(part)r is not a percentage") % {"part": part}
                ) from None
        return parts

    def payout_value(self) -> str | list[Any]:
        chosen = self.cleaned_data["payout"]
        if chosen == "custom":
            return list(self.cleaned_data["custom_payout"])
        assert chosen in STRUCTURES
        return str(chosen)


class TournamentForm(TournamentBaseForm, *(kind.form_fields for kind in KINDS.values())):
    """The create form: every kind's fields beside the shared ones (the chosen kind's are
    read by ``kinds.settings_of_form``)."""


class EntryForm(forms.Form):
    """A player of the club by id (the type-ahead's pick) or by name (a new player when no one
    of the club has it)."""

    player = id_form_field(required=False)
    name = forms.CharField(label=gettext_lazy("Player"), max_length=80, required=False)
    affiliation = forms.CharField(label=gettext_lazy("Home club"), max_length=120, required=False)
    paid = forms.BooleanField(label=gettext_lazy("Fee paid"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not (data.get("name") or "").strip():
            raise forms.ValidationError(_("give a player's name"))
        return data


class SwapForm(forms.Form):
    first = id_form_field(label=gettext_lazy("First player"))
    second = id_form_field(label=gettext_lazy("Second player"))


class RoundClockForm(forms.Form):
    minutes = forms.IntegerField(
        label=gettext_lazy("Round ends in (minutes)"), required=False, min_value=1
    )


class UnwindForm(forms.Form):
    confirm = forms.BooleanField(label=gettext_lazy("Take the later rounds out"), required=False)
