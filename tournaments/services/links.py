"""The tables of a round enter their own results: each table's link (``scoring.table_links``),
made for every table when the round is released (where the tournament, or else the club, has
table entry on) and on demand for a round's tables that have none (one revoked)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring.models import Game, TableEntry, TableLink
from scoring.table_links import table_links_ensure
from tournaments.changes import audit, lock, round_locked
from tournaments.models import Round, Tournament


def table_entry_of(tournament: Tournament) -> str:
    """The tournament's table entry setting, or its club's when it has none of its own."""
    return tournament.table_entry or tournament.club.table_entry


def round_links_make(
    tournament: Tournament, played: Round, actor: AbstractBaseUser | None
) -> list[TableLink]:
    tables = [
        g.table
        for g in Game.objects.filter(round_table__round=played)
        .select_related("table__session__club")
        .order_by("round_table__number")
    ]
    return table_links_ensure(tables=tables, actor=actor, mode=table_entry_of(tournament))


@transaction.atomic
def round_links_ensure(
    *, tournament: Tournament, actor: AbstractBaseUser, number: int
) -> list[TableLink]:
    """Every table of a released round gets its link (those that have one keep it)."""
    tournament = lock(tournament)
    played = round_locked(tournament, number)
    if played.status != Round.Status.RELEASED:
        raise Conflict(
            _("round %(number)s is not being played") % {"number": number},
            code="round_not_released",
        )
    links = round_links_make(tournament, played, actor)
    audit(tournament, actor, "table_links", round=number, tables=len(links))
    return links


def links_on_release(tournament: Tournament, played: Round, actor: AbstractBaseUser) -> None:
    """At release: the round's links, where table entry is on."""
    if table_entry_of(tournament) != TableEntry.OFF:
        round_links_make(tournament, played, actor)
