"""Input checks of the club pages' forms. The services decide everything else."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django import forms

from clubs.models import Club, Role
from config.fields import id_form_field


class PlayerForm(forms.Form):
    name = forms.CharField(label="Name", max_length=80)


class MemberForm(forms.Form):
    username = forms.CharField(label="Username", max_length=150)
    role = forms.ChoiceField(label="Role", choices=Role.choices, initial=Role.PLAYER)


class StandingsOrderForm(forms.Form):
    """The metrics that rank the standings, one per place: the first ranks, the next break ties.
    Empty places are skipped; all empty means the default order."""

    def __init__(
        self, *args: object, metrics: list[tuple[str, str]], places: int, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.places = places
        for place in range(1, places + 1):
            self.fields[f"metric_{place}"] = forms.ChoiceField(
                label="Rank by" if place == 1 else f"Then by ({place})",
                required=False,
                choices=[("", "—"), *metrics],
            )

    def place_fields(self) -> list[forms.BoundField]:
        return [self[f"metric_{place}"] for place in range(1, self.places + 1)]

    def order(self) -> list[str]:
        chosen = [self.cleaned_data.get(f"metric_{p}") for p in range(1, self.places + 1)]
        return [metric for metric in chosen if metric]


class PublicStandingsForm(forms.Form):
    public = forms.BooleanField(label="Show the standings to anyone, without login", required=False)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label="Role", choices=Role.choices)


class PlayerEditForm(forms.Form):
    name = forms.CharField(label="Name", max_length=80)


class PlayerMergeForm(forms.Form):
    """Merge a duplicate roster entry into the player who stays: by name, as typed in the
    picker (or by id)."""

    into = id_form_field(label="Merge into", required=False)
    into_name = forms.CharField(label="Merge into", max_length=80, required=False)
    confirm = forms.BooleanField(
        label="The two are one person: move the whole history",
        error_messages={"required": "tick the box: a merge cannot be undone"},
    )


TABLE_ENTRY = Club._meta.get_field("table_entry").choices


class ClubForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120)
    currency = forms.CharField(label="Currency", max_length=3)
    timezone = forms.CharField(label="Time zone", max_length=64)
    requires_confirmation = forms.BooleanField(
        label="A second person confirms each deal", required=False
    )
    table_entry = forms.ChoiceField(
        label="Tables enter their own results", choices=TABLE_ENTRY, required=False
    )

    def clean_table_entry(self) -> str:
        # Left out (an older form): unchanged is "off" only for a club that never chose.
        return self.cleaned_data.get("table_entry") or "off"


class OnceForm(forms.Form):
    """A form posted at most once: a token made when the page is shown, so the same form sent
    twice (a double tap, back and resubmit) does its work once (``clubs.pages.form_post_once``)."""

    # static/js/form-once.js keeps the token of a form sent, for a page reached again by going
    # back (browsers restore what was typed but not a hidden field).
    form_token = forms.CharField(
        required=False,
        max_length=64,
        widget=forms.HiddenInput(attrs={"data-form-once": "1"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("form_token", secrets.token_hex(16))

    def token(self) -> str:
        return (self.cleaned_data.get("form_token") or "").strip()


_PLAYER_KEY = re.compile(r"^p(\d+)-")


def initial_for_players(
    initial: dict[str, Any], aliases: dict[int, int], player_fields: tuple[str, ...] = ()
) -> dict[str, Any]:
    """An earlier version's initial values with the ids of players merged since replaced by the
    player who holds their seat now: in the per-player fields (``p<id>-...``) and in the fields
    whose value is a player (``player_fields``)."""
    if not aliases:
        return initial
    moved: dict[str, Any] = {}
    for key, value in initial.items():
        match = _PLAYER_KEY.match(key)
        if match and int(match.group(1)) in aliases:
            key = f"p{aliases[int(match.group(1))]}-{key[match.end() :]}"
        elif key in player_fields and str(value).isdigit():
            value = str(aliases.get(int(value), value))
        moved[key] = value
    return moved
