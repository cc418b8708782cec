"""Bulk ledger writes: ``python -m bench ledger`` (``--quick`` for the two smaller sizes).

Writes N postings (N / 2 two-line entries, as an import or a replay would) in one transaction on
PostgreSQL (a fresh database ``rummyclub_bench_ledger``; ``BENCH_LEDGER_DATABASE_URL`` to use
another), with every ledger trigger on, and times it up to and including the commit (where the
deferred balance check runs). Three ways:

1. one transaction: the entries, then their postings, each one ``INSERT … SELECT``;
2. in savepoints: the same inside nested ``atomic()`` blocks, the entries in one savepoint and the
   postings in another, as services called inside a transaction write them;
3. without the guard that an entry gains postings only in the transaction that wrote it (its
   triggers disabled), for the floor.

The time per posting should not grow with N."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bench.scoring import _fresh_database
from bench.standings import REPO, _environment

# Every name the "written by this transaction" guard has had (scoring 0011, then 0014).
GUARD_TRIGGERS = {
    "scoring_posting": ["scoring_posting_entry_is_new"],
    "scoring_ledgerentry": ["scoring_ledgerentry_note_new"],
}


def _game() -> tuple[int, int, int]:
    """A points rummy game of two players, made through the services: its book's id and the
    players'."""
    from django.contrib.auth import get_user_model

    from clubs import services as club_services
    from clubs.models import Player
    from scoring.games import game_create, table_create
    from scoring.models import RulePreset
    from scoring.nights import session_create

    user = get_user_model().objects.create(username="bench-ledger")
    club = club_services.club_create(owner=user, name="Bench ledger", slug="ledger")
    players = [Player.objects.create(club=club, name=name) for name in ("Asha", "Bilal")]
    session = session_create(club=club, actor=user, name="bulk")
    table = table_create(session=session, actor=user)
    game = game_create(
        table=table,
        actor=user,
        preset=RulePreset.objects.get(club=None, key="points"),
        players=players,
    )
    return game.book_id, players[0].pk, players[1].pk


@contextmanager
def _savepoint(nested: bool) -> Iterator[None]:
    from django.db import transaction

    if nested:
        with transaction.atomic():
            yield
    else:
        yield


def _write(game: tuple[int, int, int], postings: int, nested: bool) -> float:
    """Seconds to write ``postings`` postings in one transaction, commit included."""
    from django.db import connection, transaction

    book_id, winner, loser = game
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(id), 0) FROM scoring_ledgerentry")
        (last,) = cursor.fetchone()
        with _savepoint(nested):
            cursor.execute(
                "INSERT INTO scoring_ledgerentry (book_id, kind, memo, created_at)"
                " SELECT %s, 'deal', 'bulk', now() FROM generate_series(1, %s)",
                [book_id, postings // 2],
            )
        with _savepoint(nested):
            cursor.execute(
                "INSERT INTO scoring_posting (entry_id, book_id, quantity, account, player_id,"
                " amount) SELECT e.id, e.book_id, 'points', 'player', line.player_id, line.amount"
                " FROM scoring_ledgerentry e CROSS JOIN (VALUES (%s, 7), (%s, -7))"
                " AS line (player_id, amount) WHERE e.id > %s ORDER BY e.id",
                [winner, loser, last],
            )
            assert cursor.rowcount == postings
    return time.perf_counter() - started


def _guard_triggers(enable: bool) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for table, names in GUARD_TRIGGERS.items():
            for name in names:
                cursor.execute(
                    "SELECT 1 FROM pg_trigger WHERE tgname = %s AND tgrelid = %s::regclass",
                    [name, table],
                )
                if cursor.fetchone():
                    action = "ENABLE" if enable else "DISABLE"
                    cursor.execute(f"ALTER TABLE {table} {action} TRIGGER {name}")


def run(quick: bool) -> None:
    db_url = os.environ.get(
        "BENCH_LEDGER_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_ledger"
    )
    env = _environment(db_url)
    _fresh_database(db_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    game = _game()
    sizes = [10_000, 20_000] if quick else [10_000, 20_000, 40_000, 100_000]
    ways: dict[str, dict[str, Any]] = {
        "one transaction": {"nested": False, "guard": True},
        "in savepoints": {"nested": True, "guard": True},
        "guard off (floor)": {"nested": False, "guard": False},
    }
    for label, way in ways.items():
        _guard_triggers(enable=way["guard"])
        try:
            for size in sizes:
                seconds = _write(game, size, nested=way["nested"])
                print(
                    f"   {label}: {size:,} postings in {seconds:.2f} s"
                    f" ({seconds / size * 1e6:.1f} µs a posting)",
                    flush=True,
                )
        finally:
            _guard_triggers(enable=True)
