"""The issue's round trip: the demo club, with its finished knock-out and a chip tournament in
play, exported and imported into an empty database (another PostgreSQL database, migrated from
nothing, in a process of its own): every read of the club's API equal to the original's, ids
aside (each the copy's id of the same row)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import psycopg
from django.db import connection
from django.test import TestCase
from psycopg import sql
from rest_framework.test import APIClient

from archive.export import club_export
from clubs.demo import DemoContext, demo_load
from tests.archive.api_walk import walk_source
from tests.archive.compare import Comparison
from tests.tournaments.helpers import enter, new_tournament, play_round
from tournaments.kinds.chips.rebuys import entry_rebuy
from tournaments.models import Entry, Tournament
from tournaments.services.setup import tournament_start

ROOT = Path(__file__).resolve().parents[2]
CHIP_LEVELS = {
    "starting_chips": 1000,
    "levels": [
        {"point_value": 5, "minimum": 800, "qualify": 1200},
        {"point_value": 10, "minimum": 1000, "qualify": 1400},
    ],
    "rebuys": 1,
    "rebuy_price_minor": 500,
    "rebuy_chips": 1000,
    "rebuy_until_level": 1,
}


def chip_tournament(context: DemoContext) -> Tournament:
    """Twelve players at chip levels: the first round played, a player out bought back in."""
    desk = SimpleNamespace(club=context.club, organiser=context.organiser, scorer=context.organiser)
    tournament = new_tournament(
        desk, name="Chip night", kind=Tournament.Kind.CHIPS, chip_levels=CHIP_LEVELS,  # type: ignore[arg-type]
        entry_fee_minor=1000, club_fee_minor=100, payout="by_field",
    )  # fmt: skip
    enter(desk, tournament, context.players)  # type: ignore[arg-type]
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=context.organiser)
    play_round(desk, tournament, random.Random(5))  # type: ignore[arg-type]
    out = tournament.entries.filter(status=Entry.Status.ELIMINATED).order_by("pk").first()
    assert out is not None
    entry_rebuy(tournament=tournament, actor=context.organiser, entry_id=out.pk)
    return tournament


def empty_database() -> str:
    """A new, empty database beside the test database; its URL."""
    given = connection.settings_dict
    name = os.environ.get("ARCHIVE_TARGET_DATABASE") or f"{given['NAME']}_target"
    server = {
        "host": given["HOST"] or "127.0.0.1", "port": given["PORT"] or 5432,
        "user": given["USER"], "password": given["PASSWORD"] or None,
    }  # fmt: skip
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    password = f":{given['PASSWORD']}" if given["PASSWORD"] else ""
    return f"postgresql://{given['USER']}{password}@{server['host']}:{server['port']}/{name}"


def test_the_demo_club_and_its_tournaments_round_trip_through_the_archive(
    postgres: None, tmp_path: Path
) -> None:
    context = demo_load()
    chips = chip_tournament(context)
    client = APIClient()
    client.force_authenticate(context.owner)
    walked = walk_source(client, context.club.slug)
    archive = tmp_path / "demo.jsonl"
    with archive.open("w", encoding="utf-8") as stream:
        club_export(club=context.club, stream=stream, instance="http://source.example")
    requests = tmp_path / "requests.json"
    requests.write_text(json.dumps([request for request, _ in walked]))
    answers = tmp_path / "answers.json"

    # The copy: an empty database migrated from nothing, the archive imported, the same reads.
    env = {**os.environ, "DATABASE_URL": empty_database(), "REDIS_URL": ""}
    run = {"env": env, "cwd": ROOT, "check": True}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], **run)  # type: ignore[call-overload]
    subprocess.run(  # type: ignore[call-overload]
        [sys.executable, "-m", "tests.archive.api_walk", archive, requests, answers], **run
    )
    copied = json.loads(answers.read_text())

    comparison = Comparison(copied["ids"])
    assert len(walked) == len(copied["answers"])
    for (request, original), copy in zip(walked, copied["answers"], strict=True):
        comparison.compare(original, copy, where=request[0])
    assert comparison.found == []
    # The walk read what the issue names: the finished knock-out and the chip tournament.
    read = {request[0].format(*(old for _, old in request[1])) for request, _ in walked}
    assert f"tournaments/{chips.pk}/entries/" in read
    finished = Tournament.objects.get(club=context.club, status=Tournament.Status.FINISHED)
    assert f"tournaments/{finished.pk}/" in read
    assert sum(1 for _, answer in walked if answer["status"] == 200) > 150
