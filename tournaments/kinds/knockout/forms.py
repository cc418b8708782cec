"""The create form's field of a knock-out."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy


class KnockoutFields(forms.Form):
    advance_per_table = forms.IntegerField(
        label=gettext_lazy("Go on from each table"), min_value=1, max_value=5, initial=2
    )
