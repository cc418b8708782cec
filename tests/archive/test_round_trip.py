"""The issue's round trip: the demo club, with its finished knock-out, a chip tournament in
play, a series of a night and the knock-out, a past night imported from a sheet and a webhook
endpoint, exported and imported into an empty database (another PostgreSQL database, migrated from
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
import pytest
from django.db import connection
from django.test import TestCase
from psycopg import sql
from rest_framework.test import APIClient

from archive.export import club_export
from clubs.demo import DemoContext, demo_load
from scoring.models import RulePreset, Session
from series.services import series_create, series_event_add
from standings.models import ResultImport
from standings.result_import import result_import_confirm, result_import_run
from standings.result_plan import results_plan
from standings.result_sheet import LAYOUTS, result_sheet_read
from tests.archive.api_walk import Request, kind_of_answer, walk_source
from tests.archive.compare import Comparison
from tests.tournaments.helpers import enter, new_tournament, play_round
from tournaments.kinds.chips.rebuys import entry_rebuy
from tournaments.models import Entry, Tournament
from tournaments.services.setup import tournament_start
from webhooks.models import Endpoint
from webhooks.services import endpoint_create

ROOT = Path(__file__).resolve().parents[2]
# A database migrated from nothing and the club's API read twice: minutes while the rest of the
# suite shares the machine.
pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.timeout(1200)]
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


def past_night(context: DemoContext) -> ResultImport:
    """A night of two deals before the club came here, imported from a sheet."""
    names = [player.name for player in context.players[:3]]
    rows = ["Date,Night,Table,Deal,Player,Outcome,Points"]
    for deal, winner in ((1, names[0]), (2, names[1])):
        for name in names:
            outcome, points = ("winner", "") if name == winner else ("loser", str(10 + deal))
            rows.append(f"2025-03-07,Old Friday,Table 1,{deal},{name},{outcome},{points}")
    content = ("\n".join(rows) + "\n").encode()
    sheet = result_sheet_read(content=content, filename="past.csv", layout=LAYOUTS["points_deals"])
    preset = RulePreset.objects.get(club=None, key="points")
    plan = results_plan(club=context.club, sheet=sheet, preset=preset, names=None)
    assert not plan.errors, plan.errors
    made, _ = result_import_confirm(
        club=context.club, actor=context.organiser, plan=plan, preset=preset
    )
    result_import_run(import_id=made.pk)
    made.refresh_from_db()
    assert made.status == ResultImport.Status.DONE and made.deals == 2
    return made


def series_and_hook(context: DemoContext) -> tuple[Request, Endpoint]:
    """A series of the club's first night and its finished knock-out, and a webhook endpoint;
    the read of a result import's status (no list names it)."""
    imported = past_night(context)
    series = series_create(
        club=context.club, actor=context.organiser, name="Grand Prix",
        points_table=[10, 7, 5, 3], tiers={"regular": "1", "major": "2"},
        awards=[{"kind": "most_wins", "name": "Golden Joker"}],
    )  # fmt: skip
    night = Session.objects.filter(club=context.club).order_by("pk").first()
    finished = Tournament.objects.get(club=context.club, status=Tournament.Status.FINISHED)
    assert night is not None
    series_event_add(series=series, actor=context.organiser, tier="regular", session_id=night.pk)
    series_event_add(
        series=series, actor=context.organiser, tier="major", tournament_id=finished.pk
    )
    hook = endpoint_create(
        club=context.club, actor=context.owner, url="http://127.0.0.1:9/rummy",
        events=["deal.scored", "tournament.finished"],
    )  # fmt: skip
    return ("results/imports/{0}/", [("standings.resultimport", imported.pk)]), hook


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


def _hook_disabled(answer: dict) -> dict:
    """The one difference the archive makes on purpose: an endpoint comes in disabled, with a
    new secret no one has seen: its receiver checks the old one (docs/archive.md)."""
    body = answer["body"]
    if isinstance(body, dict) and isinstance(body.get("results"), list):
        body = {**body, "results": [{**item, "enabled": False} for item in body["results"]]}
    elif isinstance(body, dict) and "enabled" in body:
        body = {**body, "enabled": False}
    return {**answer, "body": body}


def test_the_demo_club_and_its_tournaments_round_trip_through_the_archive(
    postgres: None, tmp_path: Path
) -> None:
    context = demo_load()
    chips = chip_tournament(context)
    import_read, hook = series_and_hook(context)
    client = APIClient()
    client.force_authenticate(context.owner)
    walked = walk_source(client, context.club.slug, also=[import_read])
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

    # A built-in preset is the instance's own: the copy's of the same key stands for it, whatever
    # its id (the original's test database may have made them again, under new ids).
    presets = copied["ids"].setdefault("scoring.rulepreset", {})
    for key, pk in RulePreset.objects.filter(club=None).values_list("key", "pk"):
        presets.setdefault(str(pk), copied["built_in"][key])
    comparison = Comparison(copied["ids"])
    assert len(walked) == len(copied["answers"])
    for (request, original), copy in zip(walked, copied["answers"], strict=True):
        if request[0].startswith("webhooks/"):
            original = _hook_disabled(original)
        comparison.compare(original, copy, request[0], own=kind_of_answer(request))
    assert comparison.found == [], "\n".join(comparison.found)
    # The series, the import and the endpoint were read, each with something in it.
    statuses = {request[0]: answer["status"] for request, answer in walked}
    for template in ("series/{0}/table/", "series/{0}/events/", "results/imports/{0}/",
                     "webhooks/{0}/"):  # fmt: skip
        assert statuses[template] == 200, template
    hooks = next(answer for request, answer in walked if request[0] == "webhooks/")
    assert [item["id"] for item in hooks["body"]["results"]] == [hook.pk]
    lines = archive.read_text(encoding="utf-8")
    assert hook.secret not in lines and '"kind":"series.seriesresult"' in lines
    # The walk read what the issue names: the finished knock-out and the chip tournament.
    read = {request[0].format(*(old for _, old in request[1])) for request, _ in walked}
    assert f"tournaments/{chips.pk}/entries/" in read
    finished = Tournament.objects.get(club=context.club, status=Tournament.Status.FINISHED)
    assert f"tournaments/{finished.pk}/" in read
    assert sum(1 for _, answer in walked if answer["status"] == 200) > 150
