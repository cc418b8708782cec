"""The club page's forms of a series: its settings, and an event to add."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from series.models import Series


def _numbers(raw: str) -> list[int]:
    try:
        return [int(part) for part in raw.replace(";", ",").split(",") if part.strip()]
    except ValueError:
        raise forms.ValidationError(_("write whole numbers, separated by commas")) from None


def _tiers(raw: str) -> dict[str, str]:
    tiers: dict[str, str] = {}
    for part in raw.split(","):
        if not part.strip():
            continue
        name, _sep, multiplier = part.partition("=")
        if not name.strip() or not multiplier.strip():
            raise forms.ValidationError(_("write each tier as name=multiplier, e.g. major=2"))
        tiers[name.strip()] = multiplier.strip()
    return tiers


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    points_by = forms.ChoiceField(
        choices=Series.PointsBy.choices, initial="place", label=_("Points by")
    )
    points_table = forms.CharField(
        required=False,
        max_length=2000,
        initial="25, 18, 15, 12, 10, 8, 6, 4, 2, 1",
        label=_("Points by place"),
        help_text=_("Places 1, 2, 3, ... separated by commas."),
    )
    share_top = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=1_000_000,
        initial=0,
        label=_("Winner's points (by share of the field)"),
    )
    tiers = forms.CharField(
        max_length=500,
        initial="regular=1, major=2",
        label=_("Tiers"),
        help_text=_("name=multiplier, separated by commas."),
    )
    best_n = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        label=_("Best results that count"),
        help_text=_("Empty: all."),
    )
    min_events = forms.IntegerField(
        min_value=1, max_value=1000, initial=1, label=_("Events to be ranked")
    )
    most_wins = forms.CharField(required=False, max_length=80, label=_("Award for most wins"))
    best_average = forms.CharField(required=False, max_length=80, label=_("Award for best average"))
    most_improved = forms.CharField(
        required=False, max_length=80, label=_("Award for most improved rating")
    )

    def clean_points_table(self) -> list[int]:
        return _numbers(self.cleaned_data.get("points_table") or "")

    def clean_tiers(self) -> dict[str, str]:
        return _tiers(self.cleaned_data["tiers"])

    def settings(self) -> dict[str, Any]:
        """The service's keywords."""
        data = self.cleaned_data
        awards = [
            {"kind": kind, "name": data[kind].strip()}
            for kind in ("most_wins", "best_average", "most_improved")
            if data.get(kind, "").strip()
        ]
        return {
            "name": data["name"],
            "points_by": data["points_by"],
            "points_table": data["points_table"],
            "share_top": data.get("share_top") or 0,
            "tiers": data["tiers"],
            "best_n": data.get("best_n"),
            "min_events": data["min_events"],
            "awards": awards,
        }


def series_initial(series: Series) -> dict[str, Any]:
    """A series' settings as the form shows them."""
    names = {award["kind"]: award["name"] for award in series.awards or []}
    return {
        "name": series.name,
        "points_by": series.points_by,
        "points_table": ", ".join(str(p) for p in series.points_table or []),
        "share_top": series.share_top,
        "tiers": ", ".join(f"{name}={value}" for name, value in series.tiers.items()),
        "best_n": series.best_n,
        "min_events": series.min_events,
        **names,
    }


class SeriesEventForm(forms.Form):
    event = forms.CharField(max_length=40, help_text=_("A night or a tournament of the club."))
    tier = forms.CharField(max_length=40)

    def clean_event(self) -> dict[str, int]:
        """``session:12`` or ``tournament:3`` as the service's keywords."""
        kind, _sep, raw = self.cleaned_data["event"].partition(":")
        if kind not in ("session", "tournament") or not raw.isdigit() or len(raw) > 18:
            raise forms.ValidationError(_("pick a night or a tournament"))
        return {f"{kind}_id": int(raw)}
