"""Tournaments: ``python -m bench tournaments`` (``--quick`` for a small run).

- Seating (pure, no database): 1,000 players in tables of 6 for 8 rounds (``--quick``: 300),
  timed, with the repeat meetings left; the cases with a known zero-repeat construction
  (36 in 6s for 3 rounds, 16 in 4s for 5, 32 in 4s for 6), each timed; and 24 players of 6
  clubs of 4 in 4s for 3 rounds with the clubs kept apart.
- A 1,000-entrant knock-out (``--quick``: 200) simulated end to end through the services on
  PostgreSQL (a fresh database ``rummyclub_bench_tournaments``), tasks in-process: entries with
  their fees in the ledger, the start, and every round released, each table played (one deal
  entered and validated, the table closed, its end announced and settled) until the final pays
  the prizes. Timed as a whole and per table."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

from bench.scoring import _fresh_database, _percentile
from bench.standings import REPO, _environment


def _seating(quick: bool) -> None:
    from rules.seating import plan_seating

    field = 300 if quick else 1000
    started = time.perf_counter()
    plan = plan_seating(list(range(field)), table_max=6, rounds=8, seed=1)
    took = time.perf_counter() - started
    print(
        f"   seating {field:,} players in 6s for 8 rounds: {took:.2f} s, "
        f"{plan.repeat_pairs} repeat meetings",
        flush=True,
    )
    for players, size, rounds in ((36, 6, 3), (16, 4, 5), (32, 4, 6)):
        started = time.perf_counter()
        plan = plan_seating(list(range(players)), table_max=size, rounds=rounds, seed=1)
        took = (time.perf_counter() - started) * 1000
        print(
            f"   seating {players} in {size}s for {rounds} rounds: {took:.1f} ms, "
            f"{plan.repeat_pairs} repeat meetings",
            flush=True,
        )
    clubs = {p: f"club {p // 4}" for p in range(24)}
    started = time.perf_counter()
    plan = plan_seating(
        list(range(24)), table_max=4, rounds=3, seed=1, clubs=clubs, avoid_same_club=True
    )
    took = (time.perf_counter() - started) * 1000
    print(
        f"   seating 24 of 6 clubs of 4 in 4s for 3 rounds, clubs apart: {took:.1f} ms, "
        f"{plan.repeat_pairs} repeat meetings, {plan.same_club_pairs} same-club pairs",
        flush=True,
    )


def _knockout(entrants: int) -> None:
    from django.contrib.auth import get_user_model

    from clubs import services as club_services
    from clubs.models import Player
    from scoring.deals import deal_create_with_result
    from scoring.games import game_finish
    from scoring.models import Game, RulePreset
    from tournaments.figures import prizes_won_minor
    from tournaments.models import Round, RoundTable, Tournament
    from tournaments.services.draws import round_release
    from tournaments.services.entries import entry_add
    from tournaments.services.setup import tournament_create, tournament_start

    user, _ = get_user_model().objects.get_or_create(username="bench-tournaments")
    club = club_services.club_create(owner=user, name="Bench cup", slug="cup")
    players = Player.objects.bulk_create(
        Player(club=club, name=f"Entrant {n:04d}") for n in range(entrants)
    )
    rng = random.Random(7)
    started = time.perf_counter()
    tournament = tournament_create(
        club=club, actor=user, name="Bench knock-out", table_max=6, advance_per_table=2,
        preset=RulePreset.objects.get(club=None, key="points"), entry_fee_minor=1000,
        club_fee_minor=100, payout="top_quarter", seed=7,
    )  # fmt: skip
    for player in players:
        entry_add(tournament=tournament, actor=user, player=player, paid=True)
    entered = time.perf_counter() - started
    tournament_start(tournament=tournament, actor=user)
    per_table: list[float] = []
    rounds = 0
    while True:
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        draft = tournament.round_set.order_by("-number").first()
        assert draft is not None and draft.status == Round.Status.DRAFT
        round_release(tournament=tournament, actor=user, number=draft.number)
        rounds += 1
        games = [t.game for t in RoundTable.objects.filter(round=draft).select_related("game")]
        for game in games:
            assert game is not None
            began = time.perf_counter()
            seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
            lines = [{"player": seats[0], "outcome": "winner"}] + [
                {"player": p, "outcome": "loser", "against": rng.randint(2, 80)} for p in seats[1:]
            ]
            deal_create_with_result(
                game=game, actor=user, wild="", dealer=None, number=None, is_tiebreaker=False,
                source="import", payload={"results": lines},
            )  # fmt: skip
            game_finish(game=game, actor=user)  # settled when announced
            # Each tie-breaker ends with its one deal (another follows while players tie again).
            while table := RoundTable.objects.filter(game=game, tiebreaker__status="open").first():
                tiebreak = table.tiebreaker
                assert tiebreak is not None
                tied = list(tiebreak.seats.values_list("player_id", flat=True))
                deal_create_with_result(
                    game=tiebreak, actor=user, wild="", dealer=None, number=None,
                    is_tiebreaker=False, source="import",
                    payload={"results": [{"player": tied[0], "outcome": "winner"}] + [
                        {"player": p, "outcome": "loser", "against": 5 + n}
                        for n, p in enumerate(tied[1:])
                    ]},
                )  # fmt: skip
            per_table.append((time.perf_counter() - began) * 1000)
    took = time.perf_counter() - started
    tournament.refresh_from_db()
    placed = tournament.entries.filter(place__isnull=False).count()
    prizes = sum(prizes_won_minor(tournament=tournament).values())
    assert tournament.status == Tournament.Status.FINISHED and placed == entrants
    assert prizes == entrants * 900
    games = Game.objects.filter(table__session=tournament.session)
    tables = games.exclude(pk=tournament.purse_id).count()
    print(
        f"   knock-out of {entrants:,}: {took:.1f} s end to end ({entered:.1f} s of entries), "
        f"{rounds} rounds, {tables} games; a table played and settled p50 "
        f"{_percentile(per_table, 0.5):.1f} ms, p95 {_percentile(per_table, 0.95):.1f} ms; "
        f"{placed:,} placed, prizes {prizes:,} minor units",
        flush=True,
    )


def run(quick: bool) -> None:
    _seating(quick)
    db_url = os.environ.get(
        "BENCH_TOURNAMENTS_DATABASE_URL",
        "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_tournaments",
    )
    env = _environment(db_url)
    _fresh_database(db_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    _knockout(200 if quick else 1000)
