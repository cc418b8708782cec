"""Publishing a federation's rating period at scale: ``python -m bench federation`` (``--quick``
for a small run).

A federation (a fresh database ``rummyclub_bench_federation``) of 5 clubs and 10,000 players
(``--quick``: 1,000), each club player linked to a federation player, and 1,000 released events
(``--quick``: 100), each of 40 placed players and 10 four-player games, stored as a submission
stores them. Then timed: publishing the period (every released event's games replayed through
OpenSkill in release order, 10,000 games, and the list stored), and the ranking list (1,000
events' places, decayed, best N), computed and then read again as kept in the cache."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from datetime import date, timedelta
from typing import Any

from bench.scoring import _fresh_database
from bench.standings import REPO, _environment

CLUBS = 5
FIELD = 40
GAMES = 10


def _load(players: int, events: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from clubs import services as club_services
    from clubs.models import Player
    from federation import services
    from federation.models import FederationPlayer, PlayerLink, SanctionedEvent
    from scoring.models import RulePreset, Session
    from scoring.nights import session_create

    rng = random.Random(44)
    officer, _ = get_user_model().objects.get_or_create(username="bench-officer")
    federation = services.federation_create(
        actor=officer,
        name="Bench federation",
        slug="bench",
        preset=RulePreset.objects.get(club=None, key="points"),
        starts_on=date(2026, 1, 1),
    )
    records: list[list[int]] = []
    for c in range(CLUBS):
        club = club_services.club_create(owner=officer, name=f"Club {c}", slug=f"club-{c}")
        made = Player.objects.bulk_create(
            [Player(club=club, name=f"P{c}-{i}") for i in range(players // CLUBS)]
        )
        fps = FederationPlayer.objects.bulk_create(
            [FederationPlayer(federation=federation, name=p.name) for p in made]
        )
        PlayerLink.objects.bulk_create(
            [
                PlayerLink(
                    federation=federation,
                    player=p,
                    federation_player=fp,
                    name=p.name,
                    status="confirmed",
                )
                for p, fp in zip(made, fps, strict=True)
            ]
        )
        seed = session_create(club=club, actor=officer, name="seed")
        sessions = Session.objects.bulk_create(
            [
                Session(
                    club=club,
                    name=f"E{k}",
                    started_at=seed.started_at,
                    season=seed.season,
                    created_by=officer,
                )
                for k in range(events // CLUBS)
            ]
        )
        records.append([p.pk for p in made])
        rows = []
        for k, session in enumerate(sessions):
            field = rng.sample(records[-1], FIELD)
            games = [
                {str(p): r for r, p in enumerate(rng.sample(field, 4), start=1)}
                for _ in range(GAMES)
            ]
            rows.append(
                SanctionedEvent(
                    federation=federation,
                    club=club,
                    session=session,
                    name=session.name,
                    tier="club",
                    status="released",
                    played_on=date(2026, 1, 1) + timedelta(days=k % 28),
                    released_results={
                        "places": {str(p): i for i, p in enumerate(field, 1)},
                        "games": games,
                    },
                    released_on=date(2026, 1, 2),
                    release_seq=c * 100_000 + k + 1,
                )
            )
        SanctionedEvent.objects.bulk_create(rows)
    return {"federation": federation, "officer": officer}


def run(quick: bool) -> None:
    db_url = os.environ.get(
        "BENCH_FEDERATION_DATABASE_URL",
        "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_federation",
    )
    players, events = (1_000, 100) if quick else (10_000, 1_000)
    env = _environment(db_url)
    _fresh_database(db_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    from federation import selectors, services

    world = _load(players, events)
    started = time.perf_counter()
    period = services.period_publish(actor=world["officer"], federation=world["federation"])
    took = time.perf_counter() - started
    print(
        f"   publish a period: {period.entries.count():,} players, {events:,} events, "
        f"{events * GAMES:,} games replayed in {took:.1f} s",
        flush=True,
    )
    started = time.perf_counter()
    lines = selectors.ranking(federation=world["federation"], as_of=date(2026, 3, 1))
    print(
        f"   ranking list: {len(lines):,} players from {events:,} events in "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )
    # Read again: the list kept in the cache (this process's own; Redis when REDIS_URL is set).
    started = time.perf_counter()
    again = selectors.ranking(federation=world["federation"], as_of=date(2026, 3, 1))
    assert again == lines
    print(
        f"   ranking list read again (kept): {(time.perf_counter() - started) * 1000:.0f} ms",
        flush=True,
    )
