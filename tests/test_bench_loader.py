"""The benchmarks' club loader writes history straight in SQL, beside the services: it must keep
up with the schema (a new NOT NULL column breaks it) and write what the services would, so the
figures the benchmarks time are real ones. A small club loaded here has kept standings equal to
the ones recomputed from its ledger, in every scope and format the loader writes."""

from __future__ import annotations

import pytest
from django.db import connection

from bench.standings import _load_club
from clubs.models import Club
from scoring.models import Deal, Session, StandingRow
from scoring.standing_rows import TOTAL_FIELDS
from standings.recompute import standings_recompute

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("postgres_tx")]


def _kept(scope: str, scope_id: int, game_format: str) -> dict[int, dict[str, int]]:
    rows = StandingRow.objects.filter(scope=scope, scope_id=scope_id, game_format=game_format)
    return {
        row.player_id: {name: getattr(row, name) for name in TOTAL_FIELDS}
        for row in rows
        if any(getattr(row, name) for name in TOTAL_FIELDS)
    }


def test_a_loaded_club_has_the_standings_its_ledger_gives():
    # Ids far from 1, as in a database that has lived: an id written into the loader's SQL
    # must never be read as something else (a small number in GROUP BY names a column).
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('scoring_season', 'id'), 1050)")
    loaded = _load_club("tiny", 1_000)
    club = Club.objects.get(slug="tiny")
    assert Deal.objects.filter(game__table__session__club=club).count() == 1_000
    night = Session.objects.filter(club=club).exclude(name="seed").first()
    for scope, scope_id in (("season", loaded["season"]), ("session", night.pk)):
        for game_format in ("", "points"):
            recomputed = standings_recompute(
                scope=scope, scope_id=scope_id, game_format=game_format
            )
            assert recomputed, (scope, game_format)
            assert _kept(scope, scope_id, game_format) == recomputed, (scope, game_format)
