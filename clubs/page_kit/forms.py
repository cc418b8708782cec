"""What the pages' forms share: a form posted at most once, and an earlier version's values
with the players merged since replaced."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django import forms


class OnceForm(forms.Form):
    """A form posted at most once: a token made when the page is shown, so the same form sent
    twice (a double tap, back and resubmit) does its work once
    (``clubs.page_kit.pages.form_post_once``)."""

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
