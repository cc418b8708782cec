"""Player imports: ``python -m bench imports`` (``--quick``: a roster of 1,000 only).

A 1,000-row roster sheet (name, nickname, email, phone, membership number, UPI id; a tenth of
its rows the same people as roster players, a few with errors) read from CSV and from XLSX,
previewed against a roster of 1,000 and of 10,000 players, confirmed (every row written in one
transaction, commit included), then the same sheet previewed and confirmed again (every row
found, nothing written). On PostgreSQL (a fresh database ``rummyclub_bench_imports``;
``BENCH_IMPORTS_DATABASE_URL`` to use another), through the same services as the page and the
API (``clubs.player_sheet``, ``clubs.player_import``), in this process."""

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
