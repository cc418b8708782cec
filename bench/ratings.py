"""Ratings at scale: ``python -m bench ratings`` (``--quick`` for a small run).

A club of 10,000 players on PostgreSQL (a fresh database ``rummyclub_bench_ratings``) with
1,000,000 deals of points rummy (``--quick``: 100,000) in 100,000 finished four-player tables of
10 deals each (``--quick``: 10,000), each table rated by its finishing order (written in SQL as
the service would: a rated game per table, ranks 1-4 with some ties). Then:

- a full recompute of the family (``ratings_replay``: every rated game replayed from scratch in
  chunks), timed, with the process's peak memory before and after, to show it stays flat;
- the incremental update after one more game (a real table played through the services and
  closed; ``rating_game_update`` timed alone), 200 times: p50 and p95.

The deal rows are there for the size of the club; the replay reads the rated games only."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from typing import Any

from bench.scoring import _fresh_database, _percentile
from bench.standings import REPO, _environment

PLAYERS = 10_000
SEATS = 4
DEALS_PER_GAME = 10


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _load(games: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from clubs import services as club_services
    from scoring.models import RulePreset
    from scoring.nights import session_create

    user, _ = get_user_model().objects.get_or_create(username="bench-ratings")
    club = club_services.club_create(owner=user, name="Bench ratings", slug="ratings")
    session = session_create(club=club, actor=user, name="seed")
    preset_id = RulePreset.objects.get(club=None, key="points").pk
    started = time.perf_counter()
    with connection.cursor() as cursor, transaction.atomic():
        cursor.execute(
            "INSERT INTO clubs_player (club_id, name, active, created_at) "
            "SELECT %s, 'Player ' || lpad(g::text, 5, '0'), true, now() "
            "FROM generate_series(1, %s) g",
            [club.pk, PLAYERS],
        )
        cursor.execute("SELECT min(id) FROM clubs_player WHERE club_id = %s", [club.pk])
        first = cursor.fetchone()[0]
        cursor.execute(
            "INSERT INTO scoring_table (session_id, name) "
            "SELECT %s, 'Table ' || g FROM generate_series(1, %s) g",
            [session.pk, games],
        )
        cursor.execute(
            # Each game's book, paired with its table by their order.
            "WITH t AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM scoring_table"
            " WHERE session_id = %s),"
            " b AS (INSERT INTO ledger_book (club_id, owner, created_at)"
            " SELECT %s, 'game', now() FROM t RETURNING id)"
            " INSERT INTO scoring_game (table_id, book_id, format, preset_id, point_value_minor,"
            ' entry_fee_minor, status, started_at, finished_at, "end")'
            " SELECT t.id, bn.id, 'points', %s, 0, 0, 'finished', now(),"
            " now() - interval '1 year' + (t.id || ' seconds')::interval, 'by_organiser'"
            " FROM t JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM b) bn"
            " ON bn.n = t.n",
            [session.pk, club.pk, preset_id],
        )
        cursor.execute(
            "INSERT INTO scoring_deal (game_id, number, wild, status, is_tiebreaker, created_at)"
            " SELECT g.id, d, '', 'final', false, now() FROM scoring_game g"
            " JOIN scoring_table t ON t.id = g.table_id"
            " CROSS JOIN generate_series(1, %s) d WHERE t.session_id = %s",
            [DEALS_PER_GAME, session.pk],
        )
        # Game k seats four players spread over the roster; places 1-4, seats 2 and 3 tied
        # in every fifth game.
        cursor.execute(
            "INSERT INTO scoring_ratedgame (game_id, club_id, family, finished_at, ranks)"
            " SELECT g.id, %s, 'indian', g.finished_at, jsonb_build_object("
            " (%s + (g.id * 4) %% %s)::text, 1,"
            " (%s + (g.id * 4 + 2503) %% %s)::text, 2,"
            " (%s + (g.id * 4 + 5006) %% %s)::text, CASE WHEN g.id %% 5 = 0 THEN 2 ELSE 3 END,"
            " (%s + (g.id * 4 + 7509) %% %s)::text, 4)"
            " FROM scoring_game g JOIN scoring_table t ON t.id = g.table_id"
            " WHERE t.session_id = %s",
            [club.pk, first, PLAYERS, first, PLAYERS, first, PLAYERS, first, PLAYERS, session.pk],
        )
    cursor = connection.cursor()
    cursor.execute("ANALYZE")
    print(
        f"   loaded: {games:,} rated tables, {games * DEALS_PER_GAME:,} deals, {PLAYERS:,} "
        f"players in {time.perf_counter() - started:.0f} s",
        flush=True,
    )
    return {"club": club, "user": user, "first_player": first}


def _one_more_game(world: dict[str, Any], n: int) -> int:
    """A real four-player table, one deal, closed by the organiser (its end announced, but the
    rating task is left for the timed call)."""
    from django.test import TestCase

    from clubs.models import Player
    from scoring.deals import deal_create_with_result
    from scoring.games import game_create, game_finish, table_create
    from scoring.models import RulePreset
    from scoring.nights import session_create

    club, user = world["club"], world["user"]
    players = list(Player.objects.filter(club=club).order_by("id")[n * 4 % PLAYERS :][:SEATS])
    session = session_create(club=club, actor=user, name=f"Extra {n}")
    table = table_create(session=session, actor=user)
    game = game_create(
        table=table, actor=user, preset=RulePreset.objects.get(club=None, key="points"),
        players=players,
    )  # fmt: skip
    payload = {"results": [{"player": players[0].pk, "outcome": "winner"}] + [
        {"player": p.pk, "outcome": "loser", "against": 10 * (i + 1)}
        for i, p in enumerate(players[1:])
    ]}  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        deal_create_with_result(
            game=game, actor=user, wild="", dealer=None, number=None, is_tiebreaker=False,
            source="import", payload=payload,
        )  # fmt: skip
    game_finish(game=game, actor=user)  # announced to nobody: the rating is timed apart
    return game.pk


def run(quick: bool) -> None:
    db_url = os.environ.get(
        "BENCH_RATINGS_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_ratings"
    )
    games = 10_000 if quick else 100_000
    env = _environment(db_url)
    _fresh_database(db_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    from standings.models import RatingChange
    from standings.ratings import rating_game_update, ratings_replay

    world = _load(games)
    before = _peak_mb()
    started = time.perf_counter()
    replayed = ratings_replay(club=world["club"], family="indian")
    took = time.perf_counter() - started
    print(
        f"   full recompute: {replayed:,} rated games ({replayed * DEALS_PER_GAME:,} deals, "
        f"{RatingChange.objects.count():,} rating changes) in {took:.1f} s, "
        f"{replayed / took:,.0f} games/s; peak memory {before:.0f} MB before, "
        f"{_peak_mb():.0f} MB after",
        flush=True,
    )
    from scoring.lifecycle import game_finished

    game_finished.disconnect(dispatch_uid="standings.ratings.finished")
    times = []
    for n in range(50 if quick else 200):
        game_id = _one_more_game(world, n)
        started = time.perf_counter()
        outcome = rating_game_update(game_id=game_id)
        times.append((time.perf_counter() - started) * 1000)
        assert outcome == "applied", outcome
    print(
        f"   incremental update after one game: p50 {_percentile(times, 0.5):.2f} ms, "
        f"p95 {_percentile(times, 0.95):.2f} ms ({len(times)} games)",
        flush=True,
    )
