"""Entering a list of players at once at the desk: names pasted with commas or one a line, each
matched to the club's roster by name (ignoring case) or added to it as a new player."""

from __future__ import annotations

import re

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from clubs import selectors as club_selectors
from clubs import services as club_services
from config.errors import InvalidInput
from config.names import name_checked, require_length
from tournaments.models import Entry, Tournament
from tournaments.services.entries import entry_add

#: The most names one paste enters.
PASTE_LIMIT = 200


def names_pasted(text: str) -> list[str]:
    """The names of a paste (commas or new lines between them), each once in the order given
    (a name twice, in any case, is one player)."""
    seen: dict[str, str] = {}
    for part in re.split(r"[,\n\r;]+", str(text)):
        name = name_checked(part, field="players")
        if name and name.lower() not in seen:
            seen[name.lower()] = name
    names = list(seen.values())
    if not names:
        raise InvalidInput("players: " + _("paste at least one name (commas or one a line)"))
    if len(names) > PASTE_LIMIT:
        raise InvalidInput(
            "players: "
            + _("at most %(most)s names at once (%(count)s pasted)")
            % {"most": PASTE_LIMIT, "count": len(names)}
        )
    for name in names:
        require_length(name, field=f"players: {name[:20]}…", limit=80)
    return names


@transaction.atomic
def entries_add_names(
    *, tournament: Tournament, actor: AbstractBaseUser, text: str, paid: bool = False
) -> list[Entry]:
    """Enter every name of the paste (a roster player by name, else a new player); beyond the
    field's size they wait. All or none: a name that cannot be entered refuses the lot."""
    entries = []
    for name in names_pasted(text):
        player = club_selectors.player_named(
            club=tournament.club, name=name
        ) or club_services.player_create(club=tournament.club, actor=actor, name=name)
        entries.append(entry_add(tournament=tournament, actor=actor, player=player, paid=paid))
    return entries
