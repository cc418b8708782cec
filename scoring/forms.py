"""Input checks of the scoring pages' forms: shapes and numbers (each format's deal entry form is
its own, in its package). Whether a deal or a preset makes sense is for the services and the rules
engine."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext

from config.fields import INT32_MAX, id_form_field


def to_minor(value: Decimal | None, places: int) -> int | None:
    if value is None:
        return None
    return int((value * (10**places)).to_integral_value())


class SessionForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120)


class TableForm(forms.Form):
    name = forms.CharField(label="Table name", max_length=40, required=False)


class GameForm(forms.Form):
    """A preset, players in seat order (empty seats are skipped), and money per point. A seat's
    player is the name typed in its picker (``seat_<n>_name``), or an id (``seat_<n>``)."""

    def __init__(
        self,
        *args: Any,
        presets: list[tuple[str, str]],
        seats: int,
        places: int,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seat_count = seats
        self.fields["preset"] = forms.ChoiceField(label="Rules", choices=presets)
        step = Decimal(1).scaleb(-places) if places else Decimal(1)
        for name, label in (("point_value", "Money per point"), ("entry_fee", "Entry fee")):
            self.fields[name] = forms.DecimalField(
                label=label,
                required=False,
                min_value=Decimal(0),
                # Kept in minor units in an integer column.
                max_value=Decimal(INT32_MAX).scaleb(-places),
                max_digits=12,
                decimal_places=places,
                widget=forms.NumberInput(attrs={"step": str(step), "inputmode": "decimal"}),
            )
        for seat in range(1, seats + 1):
            label = gettext("Seat %(number)s") % {"number": seat}
            self.fields[f"seat_{seat}"] = id_form_field(label=label, required=False)
            self.fields[f"seat_{seat}_name"] = forms.CharField(
                label=label, max_length=80, required=False
            )

    def seat_fields(self) -> list[dict[str, Any]]:
        """Each seat as its picker shows it: the field it answers for, its label and the name
        typed."""
        return [
            {
                "field": f"seat_{seat}",
                "label": gettext("Seat %(number)s") % {"number": seat},
                "value": self[f"seat_{seat}_name"].value() or "",
            }
            for seat in range(1, self.seat_count + 1)
        ]

    def seats_taken(self) -> list[tuple[str, int | None, str]]:
        """The seats given, in order: (field, player id or None, name typed)."""
        taken = []
        for seat in range(1, self.seat_count + 1):
            player_id = self.cleaned_data.get(f"seat_{seat}")
            name = (self.cleaned_data.get(f"seat_{seat}_name") or "").strip()
            if player_id or name:
                taken.append((f"seat_{seat}", player_id, name))
        return taken

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = [data.get(f"seat_{seat}") for seat in range(1, self.seat_count + 1)]
        chosen = [value for value in chosen if value]
        if len(chosen) != len(set(chosen)):
            raise forms.ValidationError(gettext("a player can have only one seat"))
        return data


class SeatAddForm(forms.Form):
    """A player to seat: by name, as typed in the picker (or by id)."""

    player = id_form_field(label="Player", required=False)
    player_name = forms.CharField(label="Player", max_length=80, required=False)
