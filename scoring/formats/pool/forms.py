"""The pool's page forms: an eliminated player's rejoin, and an agreed split of the prize."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from config.fields import id_form_field


class RejoinForm(forms.Form):
    player = id_form_field(label=_("Player"))


class SplitForm(forms.Form):
    """An agreed split: its kind, and a tick for every remaining player who agrees."""

    kind = forms.ChoiceField(
        label=_("Split"), choices=[("drops", _("By drops")), ("equal", _("Equal"))]
    )

    def __init__(self, *args: Any, remaining: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["agreed"] = forms.MultipleChoiceField(
            label=_("Agreed"),
            required=False,
            choices=[(str(pid), name) for pid, name in remaining],
            widget=forms.CheckboxSelectMultiple,
        )

    def agreed_ids(self) -> list[int]:
        return [int(pid) for pid in self.cleaned_data.get("agreed") or []]
