"""Events moved between instances: a club that runs on its own instance (the second database)
plays a sanctioned night there, exports it signed (the command and the API give the same
document) and its federation's instance imports it; released, the lists equal those of the same
night entered on the federation's instance. An export of another version, changed after it was
signed, signed by another key, answering another sanction, played under another preset, or
whose ledger does not sum to zero, is refused naming why."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import Player, Role
from config.errors import Conflict
from federation import exchange_services, selectors, services
from federation.exchange import sign
from federation.held import HeldEvent, results
from federation.models import MemberClub, RemotePlayer, SanctionedEvent
from scoring.models import RulePreset
from scoring.nights import session_create
from tests.factories import ClubFactory, MembershipFactory
from tests.federation.conftest import play_night
from tests.instances import SECOND_INSTANCE, second_instance
from tests.tournaments.helpers import finished_knockout

# Two tables: a game of four and one of three, two deals each.
TABLES = [
    [
        {"Asha": "winner", "Bilal": 20, "Chitra": 40, "Dev": 60},
        {"Asha": 30, "Bilal": "winner", "Chitra": 10, "Dev": 80},
    ],
    [{"Esther": "winner", "Farid": 25, "Gita": 5}, {"Esther": 40, "Farid": 15, "Gita": "winner"}],
]


def _lists(world) -> dict[str, Any]:
    """The ranking list as the API shows it and the rating list after today, by name (the rows'
    ids are made afresh on each side)."""
    today = timezone.localdate()
    ranking = selectors.ranking_rows(federation=world.federation, as_of=today)
    for row in ranking:
        del row["player_id"], row["federation_id"]
        for result in row["results"]:
            del result["event_id"]
    (lines,) = selectors.rating_lists_at(
        federation=world.federation, ends=[today + timedelta(days=1)]
    )
    named = selectors.names(federation=world.federation, ids=[line.player for line in lines])
    ratings = [(line.rank, named[line.player], line.mu, line.sigma, line.games) for line in lines]
    return {"ranking": ranking, "ratings": ratings}


def _link_roster(world, club, owner) -> None:
    for player in Player.objects.filter(club=club).order_by("name"):
        link = services.link_propose(actor=owner, federation=world.federation, player=player)
        services.link_decide(actor=world.officer, link=link, confirm=True)


def _played_here(world) -> dict[str, Any]:
    """The night entered on the federation's instance by the second club, and the lists."""
    club, owner = world.second, world.second_owner
    night = session_create(club=club, actor=owner, name="Friday night")
    event = services.sanction_request(
        actor=owner, federation=world.federation, club=club, tier="open", session=night
    )
    services.sanction_decide(actor=world.officer, event=event, approve=True)
    for deals in TABLES:
        play_night(night, owner, world.federation.preset, deals)
    services.event_submit(actor=owner, event=event)
    services.event_release(actor=world.officer, event=event)
    _link_roster(world, club, owner)
    return _lists(world)


def _played_on_own_instance(key: dict[str, str], event: int, tmp_path) -> dict[str, Any]:
    """On the club's own instance: the key installed, the night played, its export written by
    the command and downloaded through the API (the same document)."""
    club = ClubFactory(name="Second Club", slug="own")
    owner = MembershipFactory(club=club, role=Role.OWNER, user__username="own-owner").user
    (tmp_path / "key.json").write_text(json.dumps(key))
    call_command("federation_key_install", "own", str(tmp_path / "key.json"))
    night = session_create(club=club, actor=owner, name="Friday night")
    preset = RulePreset.objects.get(club=None, key="points")
    for deals in TABLES:
        play_night(night, owner, preset, deals)
    out = tmp_path / "event.json"
    call_command(
        "federation_export", "own", str(out), federation="rf", event=event, tier="open",
        session=night.pk,
    )  # fmt: skip
    client = APIClient()
    client.force_authenticate(owner)
    query = {"federation": "rf", "event": event, "tier": "open", "session_id": night.pk}
    downloaded = client.get("/api/v1/clubs/own/federation-export/", query)
    assert downloaded.status_code == 200, downloaded.content
    written = json.loads(out.read_text())
    unsigned = ("exported_at", "signature")
    assert {k: v for k, v in downloaded.json().items() if k not in unsigned} == {
        k: v for k, v in written.items() if k not in unsigned
    }
    return written


@pytest.mark.django_db(databases=["default", SECOND_INSTANCE])
def test_an_imported_event_gives_the_lists_it_gives_entered_here(world, tmp_path):
    with transaction.atomic():
        here = _played_here(world)
        transaction.set_rollback(True)
    assert here["ranking"] and len(here["ratings"]) == 7

    owner = world.second_owner
    client = APIClient()
    client.force_authenticate(owner)
    key = client.post("/api/v1/clubs/second/federations/rf/export-key/")
    assert key.status_code == 201, key.content
    asked = client.post(
        "/api/v1/clubs/second/federations/rf/events/",
        {"tier": "open", "held_elsewhere": "night", "name": "Friday night"},
        format="json",
    )
    assert asked.status_code == 201, asked.content
    event = SanctionedEvent.objects.get(pk=asked.json()["id"])
    services.sanction_decide(actor=world.officer, event=event, approve=True)

    with second_instance():
        document = _played_on_own_instance(key.json(), event.pk, tmp_path)
    assert document["format"] == "rummyclub.federation-event" and document["version"] == 1
    assert [sum(book.values()) for g in document["games"] for book in g["ledger"].values()] == [
        0,
        0,
    ]

    imported = client.post(
        f"/api/v1/clubs/second/federations/rf/events/{event.pk}/import/", document, format="json"
    )
    assert imported.status_code == 200, imported.content
    assert imported.json()["status"] == "submitted" and imported.json()["version"] == 1
    # The players of the club's instance have roster entries here now, proposed like any other.
    assert RemotePlayer.objects.filter(club=world.second).count() == 7
    services.event_release(actor=world.officer, event=event)
    _link_roster(world, world.second, owner)
    assert _lists(world) == here

    # The same export again after its release: nothing to correct.
    again = client.post(
        f"/api/v1/clubs/second/federations/rf/events/{event.pk}/import/", document, format="json"
    )
    assert again.status_code == 409 and again.json()["error"]["code"] == "nothing_changed"


# --- refusals (one instance: the home club exports a night to itself) -------------------------


@pytest.fixture
def exported(world, standing):
    """A signed export of the home club's held-elsewhere night, and the key that signed it."""
    organiser = standing.organiser
    key = exchange_services.export_key_issue(
        actor=standing.owner, federation=world.federation, club=standing.club
    )
    exchange_services.export_key_install(actor=standing.owner, club=standing.club, document=key)
    event = services.sanction_request(
        actor=organiser, federation=world.federation, club=standing.club, tier="club",
        held_elsewhere="night", name="Away night",
    )  # fmt: skip
    services.sanction_decide(actor=world.officer, event=event, approve=True)
    night = session_create(club=standing.club, actor=organiser, name="Away night")
    play_night(night, standing.scorer, world.federation.preset, TABLES[0])
    document = exchange_services.export_make(
        actor=organiser, club=standing.club, federation="rf", event=event.pk, tier="club",
        session=night,
    )  # fmt: skip
    return event, document, key["private_key"], night


def _refused(standing, event, document) -> tuple[int, dict[str, Any]]:
    answer = standing.client("organiser").post(
        f"/api/v1/clubs/home/federations/rf/events/{event.pk}/import/", document, format="json"
    )
    return answer.status_code, answer.json().get("error", {})


def test_a_changed_or_foreign_export_is_refused_naming_why(world, standing, exported):
    event, document, private_key, _ = exported
    resigned = {k: v for k, v in document.items() if k != "signature"}

    status, error = _refused(standing, event, sign({**resigned, "version": 2}, private_key))
    assert (status, error["code"]) == (400, "export_version")
    assert "reads version 1" in error["message"] and "version 2" in error["message"]

    places = dict(document["places"])
    places[next(iter(places))] = 9
    status, error = _refused(standing, event, {**document, "places": places})
    assert (status, error["code"]) == (400, "bad_signature")

    game = document["games"][0]
    first = next(iter(game["ledger"]["points"]))
    unbalanced = {**game["ledger"]["points"], first: game["ledger"]["points"][first] + 5}
    changed = {**resigned, "games": [{**game, "ledger": {"points": unbalanced}}]}
    status, error = _refused(standing, event, sign(changed, private_key))
    assert (status, error["code"]) == (400, "not_zero_sum")
    assert error["message"] == "games[0].ledger.points: sums to 5, not zero"

    preset = {**document["preset"], "params": {**document["preset"]["params"], "max_points": 1}}
    status, error = _refused(standing, event, sign({**resigned, "preset": preset}, private_key))
    assert (status, error["code"]) == (400, "bad_preset")

    for field, value in (("tier", "open"), ("event", event.pk + 1000), ("club", "away")):
        status, error = _refused(standing, event, sign({**resigned, field: value}, private_key))
        assert (status, error["code"]) == (400, "export_mismatch"), field
        assert error["message"].startswith(f"{field}: "), error

    early = (event.created_at - timedelta(hours=1)).isoformat()
    status, error = _refused(standing, event, sign({**resigned, "started_at": early}, private_key))
    assert (status, error["code"]) == (400, "event_started")

    # A new key replaces the one the export was signed with.
    exchange_services.export_key_issue(
        actor=standing.owner, federation=world.federation, club=standing.club
    )
    status, error = _refused(standing, event, document)
    assert (status, error["code"]) == (400, "bad_signature")
    assert "not the club's key" in error["message"]
    event.refresh_from_db()
    assert event.status == SanctionedEvent.Status.SANCTIONED and event.version == 0


def test_an_export_is_imported_only_by_the_club_and_not_submitted(world, standing, exported):
    event, document, _, _ = exported
    status, error = _refused(standing, event, {"format": "something else"})
    assert (status, error["code"]) == (400, "bad_export")
    with pytest.raises(Conflict) as refused:  # held elsewhere: its export is imported
        services.event_submit(actor=standing.organiser, event=event)
    assert refused.value.code == "held_elsewhere"
    answer = standing.client("scorer").post(
        f"/api/v1/clubs/home/federations/rf/events/{event.pk}/import/", document, format="json"
    )
    assert answer.status_code == 403
    status, _ = _refused(standing, event, document)
    assert status == 200
    event.refresh_from_db()
    assert event.status == SanctionedEvent.Status.SUBMITTED
    assert sorted(event.submitted_results["places"].values()) == [1, 2, 3, 4]
    assert MemberClub.objects.get(club=standing.club).export_public_key


JUNK = [
    ("players", "Asha", "players: a list"),
    ("players", [{"ref": "1"}], "players[0]: a ref and a name"),
    ("places", [1, 2], "places: player ref -> place"),
    ("places", {"nobody": 1}, "places: 'nobody' is not among the players"),
    ("games", {"0": 1}, "games: a list"),
    ("games", [1], "games[0]: an object"),
    ("games", [{"ranks": None, "ledger": {"points": [5]}}], "games[0].ledger.points: account"),
    ("games", [{"ranks": None, "ledger": {"points": {"bank": 5}}}], "games[0].ledger.points.bank"),
    ("started_at", "yesterday", "started_at: not a date and time"),
    ("started_at", "2026-12-07T10:00:00", "started_at: give its time zone"),
    ("played_on", 5, "played_on: not a date"),
    ("preset", None, "preset: its games are not played under"),
]


@pytest.mark.parametrize(("field", "value", "said"), JUNK, ids=[f"{f}-{s}" for f, _, s in JUNK])
def test_a_signed_export_of_the_wrong_shape_is_refused_naming_the_field(
    standing, exported, field, value, said
):
    """The club's own key signed it, so only its shape is wrong: a 400 naming where."""
    event, document, private_key, _ = exported
    unsigned = {k: v for k, v in document.items() if k != "signature"}
    status, error = _refused(standing, event, sign({**unsigned, field: value}, private_key))
    assert status == 400 and error["message"].startswith(said), error


def test_a_tournament_held_elsewhere_arrives_as_a_submission_here_stores_it(
    world, standing, exported
):
    """A knock-out exported and imported: on one instance, its players found by name, the
    stored results are those a submission of the tournament held here would store."""
    event = services.sanction_request(
        actor=standing.organiser, federation=world.federation, club=standing.club, tier="club",
        held_elsewhere="tournament", name="Spring knock-out",
    )  # fmt: skip
    services.sanction_decide(actor=world.officer, event=event, approve=True)
    cup = finished_knockout(standing)
    document = exchange_services.export_make(
        actor=standing.organiser, club=standing.club, federation="rf", event=event.pk,
        tier="club", tournament=cup,
    )  # fmt: skip
    assert (document["kind"], document["name"]) == ("tournament", "Spring knock-out")
    assert {sum(book.values()) for g in document["games"] for book in g["ledger"].values()} == {0}
    status, error = _refused(standing, event, document)
    assert status == 200, error
    event.refresh_from_db()
    assert event.submitted_results == results(HeldEvent(standing.club, tournament_id=cup.pk))
    assert len(event.submitted_results["places"]) == 8
