"""Player and result imports: ``python -m bench imports`` (``--quick``: a roster of 1,000 only).

A 1,000-row roster sheet (name, nickname, email, phone, membership number, UPI id; a tenth of
its rows the same people as roster players, a few with errors) read from CSV and from XLSX,
previewed against a roster of 1,000 and of 10,000 players, confirmed (every row written in one
transaction, commit included), then the same sheet previewed and confirmed again (every row
found, nothing written). On PostgreSQL (a fresh database ``rummyclub_bench_imports``;
``BENCH_IMPORTS_DATABASE_URL`` to use another), through the same services as the page and the
API (``clubs.player_sheet``, ``clubs.player_import``), in this process.

Then past results: a sheet of 10,000 deals of points rummy (250 nights of one four-player table,
40 deals each; the layout deal by deal of docs/imports.md) read, previewed, confirmed and written
by the import's task (run at the commit, as a worker runs it), timed from the confirm to the
import done; then the same sheet confirmed again (nothing written)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.scoring import _fresh_database
from bench.standings import REPO, _environment

ROWS = 1_000


def _sheet_rows(roster: int) -> list[list[str]]:
    """The header and ``ROWS`` rows: every tenth the name of a roster player in other case,
    every hundredth a bad email, the rest new people."""
    rows = [["Name", "Nickname", "Email", "Phone", "Membership number", "UPI id"]]
    for n in range(1, ROWS + 1):
        name = f"ROSTER {n % roster:05}" if n % 10 == 0 else f"Imported {n:05}"
        email = "not-an-email" if n % 100 == 1 else f"imported{n}@example.com"
        rows.append([name, f"N{n}", email, f"+91 98{n:08}", f"IMP-{n}", f"imp{n}@okaxis"])
    return rows


def _csv(rows: list[list[str]]) -> bytes:
    return "\n".join(",".join(row) for row in rows).encode()


def _xlsx(rows: list[list[str]]) -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)  # type: ignore[union-attr]
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _timed(label: str, work: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    result = work()
    seconds = time.perf_counter() - started
    each = seconds / ROWS * 1e6
    print(f"   {label}: {seconds * 1000:,.0f} ms ({each:,.0f} µs a row)", flush=True)
    return result


def _club(slug: str, roster: int) -> tuple[Any, Any]:
    from django.contrib.auth import get_user_model

    from clubs import services as club_services
    from clubs.models import Player

    user = get_user_model().objects.create(username=f"bench-{slug}")
    club = club_services.club_create(owner=user, name=f"Bench {slug}", slug=slug)
    Player.objects.bulk_create(
        Player(club=club, name=f"Roster {n:05}", phone=f"+9199{n:08}") for n in range(roster)
    )
    return club, user


def _confirm_rows(preview: Any) -> list[dict[str, Any]]:
    return [
        {"row": row.number, **row.values, "choice": row.choice, "merge_into": row.merge_into}
        for row in preview.rows
    ]


def _one_roster(roster: int) -> None:
    from clubs.models import Player
    from clubs.player_import import players_import, rows_checked
    from clubs.player_sheet import sheet_read

    club, user = _club(f"imports-{roster}", roster)
    rows = _sheet_rows(roster)
    csv_file, xlsx_file = _csv(rows), _xlsx(rows)
    print(f"  roster of {roster:,}; the sheet {len(csv_file) // 1024} KB as CSV, "
          f"{len(xlsx_file) // 1024} KB as XLSX", flush=True)  # fmt: skip
    _timed("read CSV", lambda: sheet_read(content=csv_file, filename="r.csv"))
    sheet = _timed("read XLSX", lambda: sheet_read(content=xlsx_file, filename="r.xlsx"))
    preview = _timed("preview", lambda: rows_checked(club=club, sheet=sheet))
    print(f"     {preview.count('new')} new, {preview.count('merge')} merged, "
          f"{preview.count('skip')} skipped", flush=True)  # fmt: skip
    result = _timed("confirm", lambda: players_import(club=club, actor=user,
                                                      rows=_confirm_rows(preview)))  # fmt: skip
    print(f"     {len(result.created)} created, {len(result.merged)} filled", flush=True)
    again = _timed("preview again", lambda: rows_checked(club=club, sheet=sheet))
    before = Player.objects.filter(club=club).count()
    second = _timed("confirm again", lambda: players_import(club=club, actor=user,
                                                            rows=_confirm_rows(again)))  # fmt: skip
    assert not second.created and not second.merged
    assert Player.objects.filter(club=club).count() == before


RESULT_NIGHTS, RESULT_DEALS_A_NIGHT = 250, 40


def _result_rows() -> list[list[str]]:
    from datetime import date, timedelta

    rows = [["date", "night", "table", "deal", "player", "outcome", "points"]]
    for night in range(RESULT_NIGHTS):
        day = (date(2020, 1, 3) + timedelta(days=7 * night)).isoformat()
        for deal in range(1, RESULT_DEALS_A_NIGHT + 1):
            for seat in range(4):
                won = seat == deal % 4
                outcome, points = ("winner", "") if won else ("loser", str(5 + seat))
                rows.append(
                    [day, "Friday", "Table 1", str(deal), f"Roster {seat:05}", outcome, points]
                )
    return rows


class _Statements:
    """Counts the statements sent to the database, and the time spent in them."""

    def __init__(self) -> None:
        self.count, self.seconds = 0, 0.0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.count += 1
            self.seconds += time.perf_counter() - started


def _results() -> None:
    from django.db import connection

    from config.celery import app as celery_app
    from scoring.models import RulePreset, Session
    from standings.models import ResultImport
    from standings.result_import import result_import_confirm, result_import_progress
    from standings.result_plan import results_plan
    from standings.result_sheet import POINTS_DEALS, result_sheet_read

    club, user = _club("imports-results", 4)
    content = _csv(_result_rows())
    deals = RESULT_NIGHTS * RESULT_DEALS_A_NIGHT
    print(f"  past results: {deals:,} deals, {len(content) // 1024} KB as CSV", flush=True)
    preset = RulePreset.objects.get(club=None, key="points")
    # A worker has its task modules loaded before its first task: so has this process.
    celery_app.loader.import_default_modules()
    started = time.perf_counter()
    sheet = result_sheet_read(content=content, filename="r.csv", layout=POINTS_DEALS)
    plan = results_plan(club=club, sheet=sheet, preset=preset)
    assert not plan.errors, plan.errors[:3]
    print(f"   read and preview: {time.perf_counter() - started:,.1f} s", flush=True)
    started = time.perf_counter()
    statements = _Statements()
    with connection.execute_wrapper(statements):
        made, _ = result_import_confirm(club=club, actor=user, plan=plan, preset=preset)
    made.refresh_from_db()
    seconds = time.perf_counter() - started
    assert made.status == ResultImport.Status.DONE, (made.status, made.error)
    assert result_import_progress(result_import=made)["written"] == deals
    assert made.finished_at is not None
    written = (made.finished_at - made.created_at).total_seconds()
    each = written / deals * 1e3
    print(f"   confirmed to done: {written:,.1f} s ({each:,.2f} ms a deal); with the games' "
          f"rating tasks run after it here: {seconds:,.1f} s", flush=True)  # fmt: skip
    print(f"   statements: {statements.count:,} ({statements.count / deals:.3f} a deal; "
          f"{statements.seconds:,.1f} s in them)", flush=True)  # fmt: skip
    nights = Session.objects.filter(club=club).count()
    started = time.perf_counter()
    again, new = result_import_confirm(club=club, actor=user, plan=plan, preset=preset)
    assert not new and again.pk == made.pk and Session.objects.filter(club=club).count() == nights
    print(f"   the same sheet again: {time.perf_counter() - started:,.2f} s, nothing written",
          flush=True)  # fmt: skip


def run(quick: bool) -> None:
    db_url = os.environ.get(
        "BENCH_IMPORTS_DATABASE_URL",
        "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_imports",
    )
    env = _environment(db_url)
    _fresh_database(db_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    for roster in [1_000] if quick else [1_000, 10_000]:
        _one_roster(roster)
    _results()
