"""The create form's fields of a round-based tournament."""

from __future__ import annotations

from django import forms


class RoundsFields(forms.Form):
    rounds = forms.IntegerField(label="Rounds before the cut", min_value=0, max_value=50, initial=0)
    cut = forms.IntegerField(label="Players after the cut", min_value=0, max_value=1000, initial=0)
