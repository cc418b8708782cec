"""Standings at scale: ``python -m bench standings`` (``--quick`` for a small run).

Two clubs of 10,000 players each on PostgreSQL (a fresh database ``rummyclub_bench_standings``):
one with 1,000,000 four-player points rummy deals of history (``--quick``: 100,000), one with
10,000. The history is generated in SQL (deals, accepted submissions, ledger entries, postings,
player results, in 500-deal sessions of one season) and the kept standing rows are built from
it by the same arithmetic as ``standings.recompute.standings_recompute``. Then the season
standings are requested through the full Django stack (token auth, club scoping, ranking by the
club's metrics, JSON) and timed: p50, p95 and the number of queries, for both clubs.

Loading the big club takes minutes and a few GB of disk; the ledger's balance trigger is
switched off during the load (the generated entries balance by construction and are checked
once at the end)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.scoring import _fresh_database, _percentile

REPO = Path(__file__).resolve().parent.parent
PLAYERS = 10_000
SEATS = 4
DEALS_PER_SESSION = 500


def _environment(db_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DATABASE_URL=db_url,
        SECRET_KEY="bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        SECURE_SSL_REDIRECT="false",
        LOG_LEVEL="WARNING",
    )
    env.pop("REDIS_URL", None)
    return env


def _load_club(slug: str, deals: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from clubs import services as club_services
    from clubs.signin.services import api_token_create
    from scoring.models import RulePreset
    from scoring.nights import session_create

    user, _ = get_user_model().objects.get_or_create(username=f"bench-{slug}")
    club = club_services.club_create(owner=user, name=f"Bench {slug}", slug=slug)
    _, key = api_token_create(user=user, name="bench")
    session = session_create(club=club, actor=user, name="seed")  # makes the season
    season_id = session.season_id
    preset_id = RulePreset.objects.get(club=None, key="points").pk
    sessions = max(1, deals // DEALS_PER_SESSION)
    per_session = deals // sessions
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE scoring_posting DISABLE TRIGGER scoring_posting_balanced")
    with connection.cursor() as cursor, transaction.atomic():
        cursor.execute(
            "INSERT INTO clubs_player (club_id, name, active, created_at) "
            "SELECT %s, 'Player ' || lpad(g::text, 5, '0'), true, now() "
            "FROM generate_series(1, %s) g",
            [club.pk, PLAYERS],
        )
        cursor.execute("SELECT min(id) FROM clubs_player WHERE club_id = %s", [club.pk])
        first_player = cursor.fetchone()[0]
        cursor.execute(
            "CREATE TEMP TABLE bench_session ON COMMIT DROP AS SELECT g AS n FROM "
            "generate_series(1, %s) g",
            [sessions],
        )
        cursor.execute(
            "WITH s AS (INSERT INTO scoring_session (club_id, name, status, started_at, season_id)"
            " SELECT %s, 'Night ' || n, 'closed', now() - (n || ' hours')::interval, %s "
            " FROM bench_session ORDER BY n RETURNING id),"
            " t AS (INSERT INTO scoring_table (session_id, name) SELECT id, 'Table 1' FROM s"
            " RETURNING id),"
            # Each game's book, paired with its table by their order.
            " b AS (INSERT INTO ledger_book (club_id, owner, created_at)"
            " SELECT %s, 'game', now() FROM t RETURNING id)"
            " INSERT INTO scoring_game (table_id, book_id, format, preset_id, point_value_minor,"
            " entry_fee_minor, status, started_at, breaks_tie)"
            " SELECT tn.id, bn.id, 'points', %s, 0, 0, 'finished', now(), false"
            " FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM t) tn"
            " JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM b) bn ON bn.n = tn.n",
            [club.pk, season_id, club.pk, preset_id],
        )
        # Deal k of game g seats four players spread over the roster.
        cursor.execute(
            "CREATE TEMP TABLE bench_deal ON COMMIT DROP AS "
            "SELECT g.id AS game_id, g.book_id, s.id AS session_id, d.n AS number, "
            "row_number() OVER () AS k FROM scoring_game g "
            "JOIN scoring_table t ON t.id = g.table_id "
            "JOIN scoring_session s ON s.id = t.session_id "
            "CROSS JOIN generate_series(1, %s) d(n) WHERE s.club_id = %s AND s.name <> 'seed'",
            [per_session, club.pk],
        )
        cursor.execute(
            "INSERT INTO scoring_deal (game_id, number, wild, status, is_tiebreaker, created_at) "
            "SELECT game_id, number, '', 'final', false, now() FROM bench_deal"
        )
        cursor.execute(
            "CREATE TEMP TABLE bench_counted ON COMMIT DROP AS "
            "SELECT b.*, dl.id AS deal_id FROM bench_deal b JOIN scoring_deal dl "
            "ON dl.game_id = b.game_id AND dl.number = b.number"
        )
        cursor.execute(
            "INSERT INTO scoring_submission (deal_id, version, status, source, payload, reasons,"
            " submitted_at, validated_at) SELECT deal_id, 1, 'accepted', 'import', '{}', '[]',"
            " now(), now() FROM bench_counted"
        )
        cursor.execute(
            "INSERT INTO scoring_ledgerentry (book_id, deal_id, submission_id, kind, memo,"
            " created_at) SELECT c.book_id, c.deal_id, s.id, 'deal', '', now() FROM bench_counted c"
            " JOIN scoring_submission s ON s.deal_id = c.deal_id"
        )
        # Seat i of deal k: player (k * 4 + i * 2503) mod PLAYERS; seat 0 wins; losers 0..80.
        cursor.execute(
            "CREATE TEMP TABLE bench_line ON COMMIT DROP AS "
            "SELECT c.game_id, c.book_id, c.session_id, c.deal_id, e.id AS entry_id, "
            "e.submission_id, i, "
            f"{first_player} + ((c.k * 4 + i * 2503) %% {PLAYERS}) AS player_id, "
            "CASE WHEN i = 0 THEN 0 ELSE ((c.k * 7919 + i * 104729) %% 81) END AS points "
            "FROM bench_counted c JOIN scoring_ledgerentry e ON e.deal_id = c.deal_id "
            f"CROSS JOIN generate_series(0, {SEATS - 1}) i",
            [],
        )
        # The winner (seat 0) takes the sum of the losers' points.
        cursor.execute(
            "CREATE TEMP TABLE bench_amount ON COMMIT DROP AS SELECT l.*, CASE WHEN i = 0 THEN "
            "sum(points) OVER (PARTITION BY entry_id) ELSE -points END AS amount FROM bench_line l"
        )
        cursor.execute(
            "INSERT INTO scoring_posting (entry_id, book_id, quantity, account, player_id, amount)"
            " SELECT entry_id, book_id, 'points', 'player', player_id, amount FROM bench_amount"
        )
        cursor.execute(
            "INSERT INTO scoring_playerresult (submission_id, deal_id, game_id, session_id,"
            " entry_id, player_id, outcome, points, won) SELECT submission_id, deal_id, game_id,"
            " session_id, entry_id, player_id, CASE WHEN i = 0 THEN 'winner' ELSE 'loser' END,"
            " points, i = 0 FROM bench_line"
        )
        # The season's and the sessions' rows, of all formats and of their one format (points).
        # A season's rows group by player alone (its id is a constant: a number in GROUP BY
        # would name a column by position); a session's by session and player.
        for scope, column, grouped, game_format in (
            ("season", str(season_id), "player_id", ""),
            ("season", str(season_id), "player_id", "points"),
            ("session", "session_id", "session_id, player_id", ""),
            ("session", "session_id", "session_id, player_id", "points"),
        ):
            cursor.execute(
                "INSERT INTO scoring_standingrow (club_id, scope, scope_id, game_format,"
                " player_id, points, chips, money_minor, deals_played, deals_won, drops,"
                " full_counts, points_conceded)"
                f" SELECT %s, %s, {column}, %s, player_id, sum(amount), 0, 0, count(*),"
                " count(*) FILTER (WHERE i = 0), 0, 0, sum(CASE WHEN i = 0 THEN 0 ELSE points END)"
                f" FROM bench_amount GROUP BY {grouped}",
                [club.pk, scope, game_format],
            )
        cursor.execute(
            "SELECT count(*) FROM (SELECT entry_id FROM scoring_posting WHERE book_id IN "
            "(SELECT book_id FROM bench_counted) GROUP BY entry_id HAVING sum(amount) <> 0) x"
        )
        assert cursor.fetchone()[0] == 0, "generated entries do not balance"
    cursor = connection.cursor()
    cursor.execute("ALTER TABLE scoring_posting ENABLE TRIGGER scoring_posting_balanced")
    cursor.execute("ANALYZE")
    print(
        f"   loaded {slug}: {sessions * per_session:,} deals, {PLAYERS:,} players in "
        f"{time.perf_counter() - started:.0f} s",
        flush=True,
    )
    return {"club": club, "key": key, "season": season_id}


VARIANTS = {
    "club's order (points, deals won, win rate)": {},
    "win rate first": {"metrics": "win_rate,points"},
    "page 101 (offset 5,000)": {"offset": "5000"},
    "one game format (points rummy)": {"game_format": "points"},
}


def _client(world: dict[str, Any]) -> tuple[Any, dict[str, str], str]:
    from django.test import Client

    headers = {"HTTP_AUTHORIZATION": f"Token {world['key']}"}
    return Client(), headers, f"/api/v1/clubs/{world['club'].slug}/standings/"


def _time_variant(world: dict[str, Any], params: dict[str, str], requests: int) -> list[float]:
    client, headers, url = _client(world)
    for _ in range(5):  # warm up
        assert client.get(url, params, **headers).status_code == 200
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(url, params, **headers)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return times


def _queries(world: dict[str, Any]) -> tuple[int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client, headers, url = _client(world)
    with CaptureQueriesContext(connection) as queries:
        body = client.get(url, **headers).json()
    return len(queries), body["count"]


def run(quick: bool) -> None:
    db_url = os.environ.get(
        "BENCH_STANDINGS_DATABASE_URL",
        "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_standings",
    )
    big = 100_000 if quick else 1_000_000
    env = _environment(db_url)
    reuse = os.environ.get("BENCH_REUSE") == "1"
    if not reuse:
        _fresh_database(db_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from clubs.models import ApiToken, Club

    worlds = {}
    for slug, deals in (("small", 10_000), ("big", big)):
        club = Club.objects.filter(slug=slug).first()
        if reuse and club is not None:
            from clubs.signin.services import api_token_create

            ApiToken.objects.filter(user__username=f"bench-{slug}").delete()
            _, key = api_token_create(
                user=get_user_model().objects.get(username=f"bench-{slug}"), name="bench"
            )
            worlds[slug] = {"club": club, "key": key}
        else:
            worlds[slug] = _load_club(slug, deals)
    requests = 60 if quick else 300
    for slug, world in worlds.items():
        count, players = _queries(world)
        print(f"   {slug} club: {players:,} players in the season, {count} queries per request")
    for label, params in VARIANTS.items():
        figures = {}
        # Alternate the clubs so that neither gets a warmer machine.
        runs: dict[str, list[float]] = {"small": [], "big": []}
        for _ in range(2):
            for slug in ("big", "small"):
                runs[slug] += _time_variant(worlds[slug], params, requests // 2)
        for slug, times in runs.items():
            figures[slug] = (_percentile(times, 0.5), _percentile(times, 0.95))
        ratio = figures["big"][1] / figures["small"][1]
        print(
            f"   {label}: big history p50 {figures['big'][0]:.1f} ms, p95 "
            f"{figures['big'][1]:.1f} ms; small history p50 {figures['small'][0]:.1f} ms, p95 "
            f"{figures['small'][1]:.1f} ms; p95 ratio {ratio:.2f}",
            flush=True,
        )
