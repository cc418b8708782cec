"""Input checks of the scoring pages' forms: shapes and numbers (each format's deal entry form is
its own, in its package). Whether a deal or a preset makes sense is for the services and the rules
engine."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms

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
    """A preset, players in seat order (empty seats are skipped), and money per point."""

    def __init__(
        self,
        *args: Any,
        presets: list[tuple[str, str]],
        players: list[tuple[str, str]],
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
        choices = [("", "— empty —"), *players]
        for seat in range(1, seats + 1):
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                label=f"Seat {seat}", choices=choices, required=False
            )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(1, self.seat_count + 1)]

    def player_ids(self) -> list[int]:
        return [
            int(self.cleaned_data[f"seat_{seat}"])
            for seat in range(1, self.seat_count + 1)
            if self.cleaned_data.get(f"seat_{seat}")
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = [data.get(f"seat_{seat}") for seat in range(1, self.seat_count + 1)]
        chosen = [value for value in chosen if value]
        if len(chosen) != len(set(chosen)):
            raise forms.ValidationError("a player can have only one seat")
        return data


class SeatAddForm(forms.Form):
    player = id_form_field(label="Player")
