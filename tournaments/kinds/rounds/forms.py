"""The create form's fields of a round-based tournament."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy


class RoundsFields(forms.Form):
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds before the cut"), min_value=0, max_value=50, initial=0
    )
    cut = forms.IntegerField(
        label=gettext_lazy("Players after the cut"), min_value=0, max_value=1000, initial=0
    )
