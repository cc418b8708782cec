"""Pages at scale: ``python -m bench pages`` (``--quick`` for a small run).

Two clubs of 10,000 players on PostgreSQL (a fresh database ``rummyclub_bench_pages``; with
``BENCH_REUSE=1`` the one a previous run left): ``small`` with 10,000 deals of history and ``big``
with 1,000,000 (``--quick``: 100,000), loaded in SQL as the standings benchmark loads them
(``bench.standings``), each with a 240-entrant knock-out whose first round is half played
through the services, a tournament taking entries with 60 entered (the desk's entry list), and a
newcomer with four deals at a night of their own (the player page of the same history in both
clubs: the club's first player has 4 deals in the small club and about 400 in the big one).
Every page an organiser or a player lives on, and every fragment a screen polls, is requested
through the whole Django stack on production settings (the organiser signed in, or anonymous on
the public pages) and timed: p50 and p95 of 30 requests (``--quick``: 10; ``--requests N``), the
number of queries and the size of the HTML, for both clubs, and the ratio of the two p95s.

Each page is asked in every language of ``--languages`` (default ``en,hi``), as the person's
own choice (the language cookie), the languages' requests alternating so that both meet the same
load; the column after the size is the big club's p95 in that language over its p95 in the
first, then the big club's p95 of the process's CPU time a request (the serving code's own work,
which other processes on a loaded machine do not stretch; PostgreSQL's is not in it) and its
ratio to the first language's."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from functools import partial
from typing import Any

from bench.scoring import _fresh_database, _percentile
from bench.standings import REPO, _environment, _load_club

ENTRANTS = 240
TAKING_ENTRIES = 60
REQUESTS = 30


def _tournament(club: Any, user: Any) -> Any:
    """A knock-out of the club's first 240 players, started, its first round released and
    half its tables played and settled."""
    from clubs.models import Player
    from scoring.deals import deal_create_with_result
    from scoring.games import game_finish
    from scoring.models import RulePreset
    from tournaments.models import RoundTable
    from tournaments.services.draws import round_release
    from tournaments.services.entries import entry_add
    from tournaments.services.setup import tournament_create, tournament_start

    tournament = tournament_create(
        club=club, actor=user, name="Bench knock-out", table_max=6, advance_per_table=2,
        preset=RulePreset.objects.get(club=None, key="points"), entry_fee_minor=1000,
        club_fee_minor=100, payout="top_quarter", seed=7,
    )  # fmt: skip
    for player in Player.objects.filter(club=club).order_by("pk")[:ENTRANTS]:
        entry_add(tournament=tournament, actor=user, player=player, paid=True)
    tournament_start(tournament=tournament, actor=user)
    draft = tournament.round_set.order_by("-number").first()
    round_release(tournament=tournament, actor=user, number=draft.number)
    rng = random.Random(7)
    tables = RoundTable.objects.filter(round=draft).select_related("game").order_by("pk")
    for table in list(tables)[::2]:
        game = table.game
        seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
        lines = [{"player": seats[0], "outcome": "winner"}] + [
            {"player": p, "outcome": "loser", "against": rng.randint(2, 80)} for p in seats[1:]
        ]
        deal_create_with_result(
            game=game, actor=user, wild="", dealer=None, number=None, is_tiebreaker=False,
            source="import", payload={"results": lines},
        )  # fmt: skip
        game_finish(game=game, actor=user)
    return tournament


def _taking_entries(club: Any, user: Any) -> Any:
    """A tournament open for entries, 60 of the club's players (after the knock-out's) entered."""
    from clubs.models import Player
    from scoring.models import RulePreset
    from tournaments.services.entries import entry_add
    from tournaments.services.setup import tournament_create

    tournament = tournament_create(
        club=club, actor=user, name="Bench cup (entries)", table_max=6, advance_per_table=2,
        preset=RulePreset.objects.get(club=None, key="points"), seed=7,
    )  # fmt: skip
    players = Player.objects.filter(club=club).order_by("pk")[ENTRANTS : ENTRANTS + TAKING_ENTRIES]
    for player in players:
        entry_add(tournament=tournament, actor=user, player=player, paid=True)
    return tournament


def _newcomer(club: Any, user: Any) -> Any:
    """A player new to the club with four deals at one table, entered through the services: the
    same own history in both clubs, so that their pages differ only by the club's history."""
    from clubs.services import player_create
    from scoring.deals import deal_create_with_result
    from scoring.games import game_create, game_finish, table_create
    from scoring.models import RulePreset
    from scoring.nights import session_close, session_create

    night = session_create(club=club, actor=user, name="Newcomer's night")
    newcomer = player_create(club=club, actor=user, name="Newcomer")
    others = list(club.players.order_by("pk")[:3])
    game = game_create(
        table=table_create(session=night, actor=user), actor=user,
        preset=RulePreset.objects.get(club=None, key="points"), players=[newcomer, *others],
    )  # fmt: skip
    for number, winner in enumerate([newcomer, *others], start=1):
        lines = [{"player": winner.pk, "outcome": "winner"}] + [
            {"player": p.pk, "outcome": "loser", "against": 10 * number}
            for p in [newcomer, *others] if p != winner
        ]  # fmt: skip
        deal_create_with_result(
            game=game, actor=user, wild="", dealer=None, number=None, is_tiebreaker=False,
            source="import", payload={"results": lines},
        )  # fmt: skip
    game_finish(game=game, actor=user)
    session_close(session=night, actor=user)
    return newcomer


def _world(slug: str, deals: int, reuse: bool) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from clubs.models import Club
    from clubs.services import club_update
    from tournaments.models import Tournament

    club = Club.objects.filter(slug=slug).first()
    if not (reuse and club is not None):
        _load_club(slug, deals)
        club = Club.objects.get(slug=slug)
    user = get_user_model().objects.get(username=f"bench-{slug}")
    if not club.public_standings:
        club = club_update(club=club, actor=user, public_standings=True)
    tournaments = Tournament.objects.filter(club=club)
    tournament = tournaments.filter(name="Bench knock-out").first() or _tournament(club, user)
    taking = tournaments.filter(name="Bench cup (entries)").first() or _taking_entries(club, user)
    # The newest of the loaded nights (500 deals): the tournaments' own nights are newer still.
    night = club.sessions.get(name="Night 1")
    game = night.tables.first().games.first()
    player = club.players.order_by("pk").first()
    newcomer = club.players.filter(name="Newcomer").first() or _newcomer(club, user)
    return {"club": club, "user": user, "tournament": tournament, "taking": taking,
            "night": night, "game": game, "player": player, "newcomer": newcomer}  # fmt: skip


def _pages(world: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """Label: (path, signed in)."""
    slug = world["club"].slug
    club, public = f"/clubs/{slug}/", f"/p/{slug}/"
    t = world["tournament"].pk
    night, game, player = world["night"].pk, world["game"].pk, world["player"].pk
    return {
        "club home": (club, True),
        # The club's first player: 4 deals in the small club, about 400 in the big one.
        "player page": (f"{club}players/{player}/", True),
        # A player with the same 4 deals in both clubs.
        "player page (4 deals)": (f"{club}players/{world['newcomer'].pk}/", True),
        "club settings (members)": (f"{club}settings/", True),
        "club standings": (f"{club}standings/", True),
        "night page": (f"{club}sessions/{night}/", True),
        "night scoreboard (polled)": (f"{club}sessions/{night}/scoreboard/", True),
        "game page (500 deals)": (f"{club}games/{game}/", True),
        "tournament list": (f"{club}tournaments/", True),
        "tournament desk": (f"{club}tournaments/{t}/", True),
        "desk taking entries": (f"{club}tournaments/{world['taking'].pk}/", True),
        "desk grid (polled)": (f"{club}tournaments/{t}/grid/", True),
        "public standings": (f"{public}standings/", False),
        "public standings (polled)": (f"{public}standings/live/", False),
        "standings projector": (f"{public}standings/projector/", False),
        "public tournament": (f"{public}tournaments/{t}/", False),
        "public tournament (polled)": (f"{public}tournaments/{t}/live/", False),
        "tournament projector": (f"{public}tournaments/{t}/projector/", False),
    }


def _count(statements: list[str], execute: Any, sql: str, *rest: Any) -> Any:
    statements.append(sql)
    return execute(sql, *rest)


def _measure(
    world: dict[str, Any], path: str, signed_in: bool, requests: int, languages: list[str]
) -> dict[str, dict[str, float]]:
    """Each language's p50, p95, queries and size for the page at ``path``. The languages'
    requests alternate (en, hi, hi, en, en, hi...: each round starts with the other), so that a
    change of the machine's load falls on every language alike."""
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    clients, figures = {}, {}
    times: dict[str, list[float]] = {language: [] for language in languages}
    cpu: dict[str, list[float]] = {language: [] for language in languages}
    for language in languages:
        client = clients[language] = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        if signed_in:
            client.force_login(world["user"])
        for _ in range(3):  # warm up
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
        statements: list[str] = []
        with connection.execute_wrapper(partial(_count, statements)):
            size = len(client.get(path).content)
        figures[language] = {"queries": len(statements), "kb": size / 1024}
    for round_ in range(requests):
        order = languages if round_ % 2 == 0 else languages[::-1]
        for language in order:
            started, used = time.perf_counter(), time.process_time()
            clients[language].get(path)
            times[language].append((time.perf_counter() - started) * 1000)
            cpu[language].append((time.process_time() - used) * 1000)
    return {
        language: figures[language] | {
            "p50": _percentile(times[language], 0.5), "p95": _percentile(times[language], 0.95),
            "cpu95": _percentile(cpu[language], 0.95),
        }
        for language in languages
    }  # fmt: skip


def _options(extra: list[str] | None, quick: bool) -> tuple[list[str], int]:
    """``--languages en,hi``: the languages to time each page in; ``--requests N``: requests a
    page and language (30, ``--quick`` 10; a p95 compared between languages wants a few
    hundred, as one slow request in 30 moves it by a tenth)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench pages")
    parser.add_argument("--languages", default="en,hi")
    parser.add_argument("--requests", type=int, default=10 if quick else REQUESTS)
    args = parser.parse_args(extra or [])
    return [code.strip() for code in args.languages.split(",") if code.strip()], args.requests


def run(quick: bool, extra: list[str] | None = None) -> None:
    languages, requests = _options(extra, quick)
    db_url = os.environ.get(
        "BENCH_PAGES_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_pages"
    )
    env = _environment(db_url)
    reuse = os.environ.get("BENCH_REUSE") == "1"
    if not reuse:
        _fresh_database(db_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    worlds = {
        "small": _world("small", 10_000, reuse),
        "big": _world("big", 100_000 if quick else 1_000_000, reuse),
    }
    # As a gunicorn worker once its application is built (config.wsgi): every view loaded, and
    # what is loaded set aside from the garbage collector.
    from config.startup import serving_process_ready

    serving_process_ready(load_pages=True)
    print(
        f"   {'page':<28} {'lang':<4} {'small p50/p95 ms':>17} {'big p50/p95 ms':>15} {'ratio':>5}"
        f" {'queries':>9} {'KB (big)':>8} {'vs ' + languages[0]:>6} {'CPU p95':>8}"
        f" {'vs ' + languages[0]:>6}",
        flush=True,
    )
    # ``BENCH_PAGES_ONLY="player page,game page"``: only the pages whose label starts so.
    only = [o.strip() for o in os.environ.get("BENCH_PAGES_ONLY", "").split(",") if o.strip()]
    for label, (small_path, signed_in) in _pages(worlds["small"]).items():
        if only and not any(label.startswith(o) for o in only):
            continue
        big_path = _pages(worlds["big"])[label][0]
        smalls = _measure(worlds["small"], small_path, signed_in, requests, languages)
        bigs = _measure(worlds["big"], big_path, signed_in, requests, languages)
        first_p95, first_cpu = bigs[languages[0]]["p95"], bigs[languages[0]]["cpu95"]
        for language in languages:
            small, big = smalls[language], bigs[language]
            print(
                f"   {label:<28} {language:<4} {small['p50']:>7.1f}/{small['p95']:<7.1f}  "
                f"{big['p50']:>7.1f}/{big['p95']:<7.1f} {big['p95'] / small['p95']:>5.2f}"
                f" {small['queries']:>4}/{big['queries']:<4} {big['kb']:>8.0f}"
                f" {big['p95'] / first_p95:>6.2f} {big['cpu95']:>8.1f}"
                f" {big['cpu95'] / first_cpu:>6.2f}",
                flush=True,
            )
