"""The pages an organiser lives on, in a club of 10,000 players and 2,000 nights:
``python -m bench.long_lists`` with ``DATABASE_URL`` (a PostgreSQL database of its own; the club
is built on the first run, by bulk inserts, and reused after) and ``REDIS_URL``.

Builds the club "lists": 10,000 players, 2,000 closed nights with a table each, and a tournament
taking entries with 60 of the players entered. Then, with production settings, in process
(Django's test client, signed in as the organiser), asks 30 times for each of the club's home,
a player's page and the tournament's desk (after 3 unmeasured requests), and prints the HTML's
size, the queries a request makes and the median and p95 times."""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import timedelta

PLAYERS = 10_000
NIGHTS = 2_000
ENTRIES = 60
REQUESTS = 30


def _settings() -> None:
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not os.environ.get(name):
            sys.exit(f"set {name} (a database and a Redis of this run's own)")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY="bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="testserver,127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()


def _club() -> tuple[object, object, object, object]:
    """The club, its organiser, one of its players and the tournament (built once)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from clubs import services as club_services
    from clubs.models import Club, Player
    from scoring.models import RulePreset, Session, Table
    from tournaments.models import Tournament
    from tournaments.services.entries import entry_add
    from tournaments.services.setup import tournament_create

    user, _ = get_user_model().objects.get_or_create(username="bench-lists")
    club = Club.objects.filter(slug="lists").first()
    if club is None:
        started = time.perf_counter()
        club = club_services.club_create(owner=user, name="Long lists", slug="lists")
        players = Player.objects.bulk_create(
            (Player(club=club, name=f"Player {n:05d}") for n in range(PLAYERS)), batch_size=2000
        )
        first = timezone.now() - timedelta(days=NIGHTS + 1)
        nights = Session.objects.bulk_create(
            (
                Session(club=club, name=f"Night {n:04d}", status=Session.Status.CLOSED,
                        started_at=first + timedelta(days=n), closed_at=first + timedelta(days=n))
                for n in range(NIGHTS)
            ),
            batch_size=2000,
        )  # fmt: skip
        Table.objects.bulk_create((Table(session=s, name="Table 1") for s in nights), 2000)
        tournament = tournament_create(
            club=club, actor=user, name="Long cup", table_max=6, advance_per_table=2,
            preset=RulePreset.objects.get(club=None, key="points"), seed=7,
        )  # fmt: skip
        for player in players[:ENTRIES]:
            entry_add(tournament=tournament, actor=user, player=player)
        print(f"   built the club in {time.perf_counter() - started:.1f} s", flush=True)
    player = Player.objects.filter(club=club).order_by("pk")[ENTRIES]
    tournament = Tournament.objects.get(club=club, name="Long cup")
    return club, user, player, tournament


def run(quick: bool = False) -> None:
    _settings()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    club, user, player, tournament = _club()
    client = Client()
    client.force_login(user)
    pages = {
        "club home": f"/clubs/{club.slug}/",  # type: ignore[attr-defined]
        "player page": f"/clubs/{club.slug}/players/{player.pk}/",  # type: ignore[attr-defined]
        "tournament desk": f"/clubs/{club.slug}/tournaments/{tournament.pk}/",  # type: ignore[attr-defined]
    }
    for label, url in pages.items():
        for _ in range(3):
            assert client.get(url).status_code == 200, url
        with CaptureQueriesContext(connection) as queries:
            size = len(client.get(url).content)
        statements = len(queries)  # read now: the next request starts a new log
        times = []
        for _ in range(REQUESTS):
            started = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        p95 = times[int(0.95 * len(times)) - 1]
        print(
            f"   {label:16} {size / 1024:8.1f} KB  {statements:3d} queries  "
            f"median {statistics.median(times):6.1f} ms  p95 {p95:6.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    run()
