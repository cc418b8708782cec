"""Past results imported: the preview's row errors by row and column, nothing stored before the
confirm, the season written to the ledger as imports (standings and ratings include it), the
same sheet again changing nothing, and a cancel leaving nothing stored."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from clubs.models import AuditEntry, Player
from config.errors import InvalidInput
from ledger.models import LedgerEntry
from scoring.models import Game, RulePreset, Session, StandingRow, Submission
from scoring.standing_rows import TOTAL_FIELDS
from standings.models import RatedGame, Rating, ResultImport
from standings.ratings import ratings_replay
from standings.recompute import standings_recompute
from standings.result_import import (
    _cancel_key,
    result_import_cancel,
    result_import_confirm,
    result_import_progress,
    result_import_run,
)
from standings.result_plan import results_plan
from standings.result_sheet import LAYOUTS, result_sheet_read, template_csv, template_xlsx
from tests.factories import PlayerFactory
from tests.standings.result_season import EXPECTED, NIGHTS, PLAYERS, season_csv


@pytest.fixture
def season_club(standing):
    for name in PLAYERS:
        PlayerFactory(club=standing.club, name=name)
    return standing


def _plan(standing, content: bytes, layout: str = "points_deals", names=None, filename="s.csv"):
    sheet = result_sheet_read(content=content, filename=filename, layout=LAYOUTS[layout])
    preset = RulePreset.objects.get(club=None, key="points")
    return results_plan(club=standing.club, sheet=sheet, preset=preset, names=names), preset


def _import(standing, content: bytes, layout: str = "points_deals"):
    plan, preset = _plan(standing, content, layout)
    made, new = result_import_confirm(
        club=standing.club, actor=standing.organiser, plan=plan, preset=preset
    )
    return made, new


def _queued(standing):
    """A confirmed import whose task has not run yet (as the confirm leaves it)."""
    plan, preset = _plan(standing, season_csv())
    return ResultImport.objects.create(
        club=standing.club, created_by=standing.organiser, layout=plan.layout, preset=preset,
        fingerprint=plan.fingerprint, plan={"nights": plan.nights}, nights=len(plan.nights),
        deals=plan.deals,
    )  # fmt: skip


def _season_rows(club):
    rows = StandingRow.objects.filter(club=club, scope="season", game_format="")
    return {
        row.player.name: (row.points, row.deals_won, row.deals_played)
        for row in rows.select_related("player")
    }


def _assert_as_live_entry_keeps_them(club) -> None:
    """Every kept standing row equals the ledger's recompute (as after live entry), every game
    ended at its night's end with a finish audited, and the ratings equal a replay from scratch."""
    scopes = set(
        StandingRow.objects.filter(club=club).values_list("scope", "scope_id", "game_format")
    )
    assert {scope for scope, _, _ in scopes} == {"game", "session", "season"}
    for scope, scope_id, game_format in scopes:
        kept = {
            row.player_id: {name: getattr(row, name) for name in TOTAL_FIELDS}
            for row in StandingRow.objects.filter(
                scope=scope, scope_id=scope_id, game_format=game_format
            )
        }
        kept = {pid: values for pid, values in kept.items() if any(values.values())}
        recomputed = standings_recompute(scope=scope, scope_id=scope_id, game_format=game_format)
        assert kept == recomputed, (scope, scope_id, game_format)
    for session in Session.objects.filter(club=club):
        games = list(Game.objects.filter(table__session=session))
        assert {(g.status, g.end, g.finished_at) for g in games} == {
            ("finished", "by_organiser", session.closed_at)
        }
    audited = AuditEntry.objects.filter(club=club, action="game.finish").count()
    assert audited == Game.objects.filter(table__session__club=club).count()
    before = sorted(
        Rating.objects.filter(club=club).values_list("player_id", "mu", "sigma", "games")
    )
    ratings_replay(club=club, family="indian")
    after = sorted(
        Rating.objects.filter(club=club).values_list("player_id", "mu", "sigma", "games")
    )
    assert before == after


@pytest.mark.django_db(transaction=True)
def test_a_season_of_20_nights_equals_the_standings_computed_by_hand(season_club):
    plan, _ = _plan(season_club, season_csv())
    assert plan.errors == []
    assert (len(plan.nights), plan.deals) == (NIGHTS, NIGHTS * 5)
    assert not Session.objects.exists()  # the preview stores nothing
    made, new = _import(season_club, season_csv())  # eager tasks: written at the commit
    made.refresh_from_db()
    assert new and made.status == ResultImport.Status.DONE
    assert _season_rows(season_club.club) == EXPECTED
    assert Session.objects.filter(club=season_club.club, status="closed").count() == NIGHTS
    assert set(Submission.objects.values_list("source", flat=True)) == {"import"}
    first = Session.objects.order_by("started_at").first()
    assert first is not None and first.started_at.date().isoformat() == "2026-01-02"
    # Rated in date order: one rated game a night, each player rated after 20 games.
    assert RatedGame.objects.filter(club=season_club.club).count() == NIGHTS
    games = set(Rating.objects.filter(club=season_club.club).values_list("games", flat=True))
    assert games == {NIGHTS}
    assert result_import_progress(result_import=made)["written"] == NIGHTS * 5
    _assert_as_live_entry_keeps_them(season_club.club)
    # The same sheet again (as XLSX, rows in another order) changes nothing.
    entries = LedgerEntry.objects.count()
    again, new = _import(season_club, season_csv())
    assert (again.pk, new) == (made.pk, False)
    assert LedgerEntry.objects.count() == entries
    assert _season_rows(season_club.club) == EXPECTED


@pytest.mark.django_db
def test_row_errors_name_the_row_and_the_column(season_club):
    content = (
        b"date,night,table,deal,player,outcome,points\n"
        b"2026-01-02,Fri,T1,1,Arjun,winner,\n"
        b"2026-01-02,Fri,T1,1,Bhavana,loser,20\n"  # unknown: similar to Bhavna
        b"2026-13-02,Fri,T1,1,Charu,loser,10\n"  # not a date
        b"2026-01-02,Fri,T1,2,Arjun,winner,\n"
        b"2026-01-02,Fri,T1,2,Dev,loser,abc\n"  # not a number
        b"2026-01-02,Fri,T1,2,Charu,loser,500\n"  # over the cap: the rules refuse it
    )
    plan, _ = _plan(season_club, content)
    found = {(e.row, e.column) for e in plan.errors}
    assert {(3, "player"), (4, "date"), (6, "points")} <= found
    bhavna = Player.objects.get(name="Bhavna")
    assert plan.unknown["Bhavana"]["suggestions"] == [{"id": bhavna.pk, "name": "Bhavna"}]
    with pytest.raises(InvalidInput) as refused:
        result_import_confirm(
            club=season_club.club, actor=season_club.organiser, plan=plan,
            preset=RulePreset.objects.get(club=None, key="points"),
        )  # fmt: skip
    assert refused.value.details["errors"][0] == {
        "row": 2, "column": "player",
        "message": "T1: 1 players; a Points rummy (20/40/80) table seats 2 to 6",
    }  # fmt: skip
    # The unknown name mapped to a roster player resolves that row.
    plan, _ = _plan(season_club, content, names={"Bhavana": bhavna.pk})
    assert (3, "player") not in {(e.row, e.column) for e in plan.errors}
    assert not ResultImport.objects.exists() and not Session.objects.exists()


@pytest.mark.django_db
def test_a_deal_the_rules_refuse_is_an_error_of_its_row(season_club):
    content = (
        b"date,night,deal,player,outcome,points\n"
        b"2026-01-02,Fri,1,Arjun,winner,\n2026-01-02,Fri,1,Bhavna,loser,20\n"
        b"2026-01-02,Fri,2,Arjun,winner,\n2026-01-02,Fri,2,Bhavna,winner,\n"
    )
    plan, _ = _plan(season_club, content)
    assert plan.errors and all(e.row in (4, 5) for e in plan.errors)
    assert plan.nights[0]["name"] == "Fri" and plan.nights[0]["tables"][0]["name"] == "Table 1"


@pytest.mark.django_db
def test_a_night_of_totals_that_does_not_sum_to_zero_is_a_row_error(season_club):
    content = (
        b"date,night,player,points\n"
        b"2026-01-02,Fri,Arjun,40\n2026-01-02,Fri,Bhavna,-30\n2026-01-02,Fri,Charu,-5\n"
        b"2026-01-09,Fri,Arjun,10\n2026-01-09,Fri,Dev,-10\n"
    )
    plan, _ = _plan(season_club, content, layout="points_nights")
    assert [(e.row, e.column) for e in plan.errors] == [(4, "points")]
    assert "sum to +5, not 0 (rows 2 to 4)" in plan.errors[0].message


@pytest.mark.django_db(transaction=True)
def test_night_totals_are_written_to_the_standings(season_club):
    content = (
        b"date,night,player,points\n"
        b"2026-01-02,Fri,Arjun,40\n2026-01-02,Fri,Bhavna,-30\n2026-01-02,Fri,Charu,-10\n"
        b"2026-01-09,Fri,Arjun,10\n2026-01-09,Fri,Dev,-10\n"
    )
    made, _ = _import(season_club, content, layout="points_nights")
    made.refresh_from_db()
    assert made.status == "done"
    points = {name: row[0] for name, row in _season_rows(season_club.club).items()}
    assert points == {"Arjun": 50, "Bhavna": -30, "Charu": -10, "Dev": -10}


@pytest.mark.django_db(transaction=True)
def test_a_cancel_leaves_nothing_stored(season_club):
    made = _queued(season_club)
    # Asked while running: the task finds the request at its next check and rolls back.
    cache.set(_cancel_key(made.pk), 1)
    assert result_import_run(import_id=made.pk) == "cancelled"
    made.refresh_from_db()
    assert made.status == "cancelled"
    assert not Session.objects.exists() and not LedgerEntry.objects.exists()
    assert not StandingRow.objects.exists()
    # Cancelled: the same sheet may be imported again.
    cache.delete(_cancel_key(made.pk))
    made, new = _import(season_club, season_csv())
    made.refresh_from_db()
    assert new and made.status == "done"


@pytest.mark.django_db(transaction=True)
def test_a_queued_import_cancelled_never_runs(season_club):
    made = _queued(season_club)
    assert result_import_cancel(result_import=made).status == "cancelled"
    assert result_import_run(import_id=made.pk) == "not_queued"
    assert not Session.objects.exists()


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_each_template_reads_back_as_its_layout(layout):
    for content, name in ((template_csv(LAYOUTS[layout]), "t.csv"),
                          (template_xlsx(LAYOUTS[layout]), "t.xlsx")):  # fmt: skip
        sheet = result_sheet_read(content=content, filename=name, layout=LAYOUTS[layout])
        assert len(sheet.rows) == len(LAYOUTS[layout].example)
