"""The tournament kinds: one package per kind (``knockout``, ``rounds``, ``chips``), each a
handler behind one protocol (``base.TournamentKindHandler``) and everything else of its own
slice; and the registry that finds a tournament's handler. Adding a kind is a package here, one
line in ``KINDS`` and its value in ``tournaments.models.Tournament.Kind`` (the database's
choices)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from config.errors import InvalidInput
from tournaments.kinds.base import TournamentKindHandler
from tournaments.kinds.chips.handler import ChipsKind
from tournaments.kinds.knockout.handler import KnockoutKind
from tournaments.kinds.rounds.handler import RoundsKind
from tournaments.models import Tournament

KINDS: dict[str, TournamentKindHandler] = {
    handler.kind: handler for handler in (KnockoutKind(), RoundsKind(), ChipsKind())
}
#: The kind a new tournament is when none is chosen.
DEFAULT_KIND: str = Tournament.Kind.KNOCKOUT.value


def kind_for(tournament: Tournament | str) -> TournamentKindHandler:
    """The handler of a tournament (or of a kind's id)."""
    key = tournament if isinstance(tournament, str) else tournament.kind
    try:
        return KINDS[key]
    except KeyError:
        raise InvalidInput(
            "kind: "
            + _("one of %(kinds)s, not %(given)r") % {"kinds": ", ".join(KINDS), "given": key},
            code="bad_kind",
        ) from None


def settings_of_form(data: Mapping[str, Any], *, minor_places: int) -> dict[str, Any]:
    """The kinds' settings as the create form typed them, for ``tournament_create``: every
    kind's fields (the chosen kind's are checked there)."""
    settings: dict[str, Any] = {}
    for handler in KINDS.values():
        settings |= handler.form_settings(data, chosen=data["kind"], minor_places=minor_places)
    return settings
