"""The create form's fields of a chip-level tournament: left empty, the default preset's
value."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.forms import to_minor

MONEY: dict[str, Any] = {"max_digits": 12, "decimal_places": 2, "min_value": Decimal(0)}


class ChipLevelsFields(forms.Form):
    starting_chips = forms.IntegerField(
        label=gettext_lazy("Starting chips"), min_value=1, required=False
    )
    levels = forms.CharField(
        label=gettext_lazy("Levels"), required=False, max_length=400,
        help_text=gettext_lazy(
            "Point value/minimum/qualifying chips per level, e.g. 5/800/1200 10/1000/1400"
        ),
    )  # fmt: skip
    rebuys = forms.IntegerField(
        label=gettext_lazy("Rebuys a player"), min_value=0, max_value=10, required=False
    )
    rebuy_price = forms.DecimalField(label=gettext_lazy("Rebuy price"), required=False, **MONEY)
    rebuy_chips = forms.IntegerField(
        label=gettext_lazy("Chips a rebuy gives"), min_value=1, required=False
    )
    rebuy_until_level = forms.IntegerField(
        label=gettext_lazy("Rebuys until level"), min_value=1, max_value=20, required=False
    )

    def clean_levels(self) -> list[dict[str, int]]:
        """``5/800/1200 10/1000/1400``: each level's three whole numbers (their sense is checked
        by the rules)."""
        text = self.cleaned_data.get("levels", "")
        levels = []
        for part in text.replace(",", " ").split():
            numbers = part.split("/")
            if len(numbers) != 3 or not all(n.isdigit() for n in numbers):
                raise forms.ValidationError(
                    _("%(part)r: write each level as point value/minimum/qualifying chips")
                    % {"part": part}
                )
            value, minimum, qualify = (int(n) for n in numbers)
            levels.append({"point_value": value, "minimum": minimum, "qualify": qualify})
        return levels


def chip_levels_typed(data: Any, *, minor_places: int) -> dict[str, Any]:
    """The chip-level settings typed in (what is left empty takes the default's value)."""
    settings: dict[str, Any] = {}
    if data.get("levels"):
        settings["levels"] = data["levels"]
    for key in ("starting_chips", "rebuys", "rebuy_chips", "rebuy_until_level"):
        if data.get(key) is not None:
            settings[key] = data[key]
    rebuy_price_minor = to_minor(data.get("rebuy_price"), minor_places)
    if rebuy_price_minor is not None:
        settings["rebuy_price_minor"] = rebuy_price_minor
    return settings
