"""The pool's page forms: an eliminated player's rejoin, and an agreed split of the prize."""

from __future__ import annotations

from typing import Any

from django import forms

from config.fields import id_form_field


class RejoinForm(forms.Form):
    player = id_form_field(label="Player")


class SplitForm(forms.Form):
    """An agreed split: its kind, and a tick for every remaining player who agrees."""

    kind = forms.ChoiceField(label="Split", choices=[("drops", "By drops"), ("equal", "Equal")])

    def __init__(self, *args: Any, remaining: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["agreed"] = forms.MultipleChoiceField(
            label="Agreed",
            required=False,
            choices=[(str(pid), name) for pid, name in remaining],
            widget=forms.CheckboxSelectMultiple,
        )

    def agreed_ids(self) -> list[int]:
        return [int(pid) for pid in self.cleaned_data.get("agreed") or []]
