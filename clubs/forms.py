"""Input checks of the club pages' forms. The services decide everything else."""

from __future__ import annotations

from django import forms

from clubs.models import Role


class PlayerForm(forms.Form):
    name = forms.CharField(label="Name", max_length=80)


class MemberForm(forms.Form):
    username = forms.CharField(label="Username", max_length=150)
    role = forms.ChoiceField(label="Role", choices=Role.choices, initial=Role.PLAYER)
