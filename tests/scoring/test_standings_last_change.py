"""The last change of a table, read from its last ledger entry (what the projector's arrows and
"just now" band show), agrees with the table recomputed from the ledger before and after that
entry: after a deal, after a deal of another night, and after a deal voided (a reversal)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from django.db.models import Max

from clubs.models import Club
from ledger.models import Posting
from scoring.models import Deal, StandingScope
from scoring.undo import deal_void
from standings import last_change, recompute, tables
from standings.scopes import postings_in_scope
from tests.factories import ClubFactory
from tests.scoring.helpers import new_game, play, results

pytestmark = pytest.mark.django_db

NAMES = ["Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid"]


def _ranks(table: tables.StandingsTable) -> dict[int, int]:
    return {line.player_id: line.rank for line in table.lines}


def _check(club: Club, scope: str, scope_id: int) -> last_change.LastChange:
    """The change's ranks against the table now and as it stood before the last entry; every
    line's ``rank_before`` too."""
    now = tables.standings_table(club=club, scope=scope, scope_id=scope_id, limit=100)
    change = last_change.standings_last_change(
        club=club, scope=scope, scope_id=scope_id, order=now.metrics
    )
    assert change is not None
    in_scope = postings_in_scope(scope, scope_id)
    entries = Posting.objects.filter(in_scope, account="player")
    assert change.entry_id == entries.aggregate(last=Max("entry_id"))["last"]
    previous = entries.filter(entry_id__lt=change.entry_id).aggregate(last=Max("entry_id"))
    before = {}
    if previous["last"] is not None:
        before = _ranks(
            recompute.standings_table_as_of(
                club=club, scope=scope, scope_id=scope_id, as_of_entry=previous["last"]
            )
        )
    ranks_now = _ranks(now)
    for pid, (rank, then) in change.ranks.items():
        assert rank == ranks_now[pid]
        assert then == before.get(pid)
    for line in now.lines:
        assert change.rank_before(line) == before.get(line.player_id), line.name
    return change


def test_the_last_change_agrees_with_the_ledger_before_and_after(standing):
    club = standing.club
    rng = random.Random(29)
    first, ids = new_game(standing, "points", NAMES[:4])
    for _ in range(3):
        lost = {name: rng.randint(2, 80) for name in ("Bilal", "Chitra", "Dev")}
        play(standing, first, results(ids, Asha="winner", **lost))
    session = first.table.session
    change = _check(club, StandingScope.SESSION, session.pk)
    assert set(change.names.values()) == {"Asha", "Bilal", "Chitra", "Dev"}
    second, ids = new_game(standing, "points", NAMES[2:])
    play(standing, second, results(ids, Esther="winner", Chitra=40, Dev=5, Farid=60))
    season = session.season_id
    change = _check(club, StandingScope.SEASON, season)
    assert {change.names[p] for p, (_, then) in change.ranks.items() if then is None} == {
        "Esther",
        "Farid",
    }  # new to the table with this deal
    _check(club, StandingScope.SESSION, second.table.session_id)
    # A voided deal: its reversal is the last entry, and takes its results back.
    deal_void(deal=Deal.objects.filter(game=first).order_by("-number").first(),
              actor=standing.organiser)  # fmt: skip
    change = _check(club, StandingScope.GAME, first.pk)
    assert change.deal == 3


@pytest.mark.parametrize("recent", [200, 1])
def test_the_last_change_of_a_table_other_clubs_wrote_past(standing, monkeypatch, recent):
    """Found among the newest postings of all clubs (a table in play), or, when other clubs
    wrote more than that look covers since, by asking the table's games: the same entry."""
    monkeypatch.setattr(last_change, "RECENT_POSTINGS", recent)
    game, ids = new_game(standing, "points", NAMES[:3])
    play(standing, game, results(ids, Asha="winner", Bilal=12, Chitra=30))
    play(standing, game, results(ids, Bilal="winner", Asha=7, Chitra=2))
    ours = game.table.session_id
    # Another club plays after: its postings are the newest of all.
    other = dataclasses.replace(standing, club=ClubFactory(name="Other Club", slug="other"))
    elsewhere, other_ids = new_game(other, "points", ["Gita", "Hari"])
    play(standing, elsewhere, results(other_ids, Gita="winner", Hari=20))
    change = _check(standing.club, StandingScope.SESSION, ours)
    assert change.deal == 2 and set(change.names.values()) == {"Asha", "Bilal", "Chitra"}
