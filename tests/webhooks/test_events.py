"""Which changes make which events, with what data: a night played and closed, a deal rejected
and corrected and voided, a knock-out released and finished (tasks in-process here)."""

from __future__ import annotations

import random

import pytest
from django.test import TestCase
from django.utils import timezone
from rest_framework import serializers

from scoring.nights import session_close
from scoring.undo import deal_void
from tests.scoring.helpers import correct, enter_deal, new_game, play, results
from tests.scoring.test_ratings import close_table
from tests.tournaments.helpers import enter, new_tournament, roster
from tests.tournaments.test_knockout import run_to_the_end
from tests.webhooks.receiver import Receiver, wait_for
from tournaments.services.setup import tournament_start
from webhooks.models import EVENTS, Event, StandingsChange
from webhooks.services import endpoint_create, standings_flush

API_TIME = serializers.DateTimeField()  # how the API writes a time


@pytest.fixture
def receiver(standing):
    made = Receiver()
    endpoint = endpoint_create(
        club=standing.club, actor=standing.organiser, url=made.url, events=[*EVENTS]
    )
    made.secret = endpoint.secret  # it verifies each delivery (standardwebhooks), 401 if not
    yield made
    made.close()


def names(receiver: Receiver) -> list[str]:
    return [r.event for r in receiver.received]


def test_a_night_scored_corrected_voided_and_closed(standing, receiver):
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"], point_value_minor=10)
    first = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30))
    correct(standing, first.deal, results(ids, Asha="winner", Bilal=25, Chitra=30))
    _, rejected = enter_deal(game, standing.scorer, {"results": [{"player": ids["Asha"]}]})
    if rejected is not None:
        rejected.refresh_from_db()
    assert rejected is not None and rejected.status == "rejected"
    with TestCase.captureOnCommitCallbacks(execute=True):
        # A deal never counted goes quietly; a counted one is a correction.
        deal_void(deal=rejected.deal, actor=standing.organiser)
        deal_void(deal=first.deal, actor=standing.organiser)
    close_table(standing, game)
    with TestCase.captureOnCommitCallbacks(execute=True):
        session_close(session=game.table.session, actor=standing.organiser)
    wait_for(lambda: "session.closed" in names(receiver))
    assert names(receiver) == [
        "deal.scored", "deal.corrected", "deal.rejected", "deal.corrected", "game.finished",
        "session.closed",
    ]  # fmt: skip
    # Three changes of the standings, one event, once the debounce window ends.
    waiting = StandingsChange.objects.get(club=standing.club)
    assert waiting.due_at > timezone.now()
    assert standings_flush() == 0
    StandingsChange.objects.update(due_at=timezone.now())
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert standings_flush() == 1
    assert names(receiver)[-1] == "standings.changed"
    assert not StandingsChange.objects.exists()
    standings = receiver.received[-1].json
    assert standings["data"]["since"] == API_TIME.to_representation(waiting.first_at)
    assert standings["data"]["url"] == "http://127.0.0.1:8000/api/v1/clubs/home/standings/"
    by_name = {r.event: r.json for r in receiver.received}
    # Times as the API writes them (UTC, "Z"), URLs absolute.
    for received in receiver.received:
        event = Event.objects.get(pk=received.json["id"])
        assert received.json["created_at"] == API_TIME.to_representation(event.created_at)
        assert received.json["created_at"].endswith("Z")
        assert received.json["data"]["url"].startswith("http://127.0.0.1:8000/api/v1/clubs/home/")
    scored = receiver.received[0].json["data"]
    assert (scored["deal"], scored["version"], scored["status"]) == (first.deal_id, 1, "final")
    corrected = receiver.received[1].json["data"]
    assert corrected["version"] == 2
    bilal = {p["name"]: p for p in corrected["players"]}["Bilal"]
    assert (bilal["points"], bilal["against"]) == (-25, 25)
    assert by_name["deal.rejected"]["data"]["reasons"][0]["code"]
    voided = receiver.received[3].json["data"]
    assert voided["status"] == "void" and "players" not in voided
    assert by_name["game.finished"]["data"]["game"] == game.pk
    assert by_name["session.closed"]["data"]["url"].endswith(f"/sessions/{game.table.session_id}/")
    assert all(r.status == 200 for r in receiver.received)  # every delivery verified
    # One event each, whatever the deliveries; the same id on the wire.
    assert Event.objects.count() == len(receiver.received)
    assert {str(e) for e in Event.objects.values_list("id", flat=True)} == {
        r.json["id"] for r in receiver.received
    }


def test_a_knockout_released_and_finished(standing, receiver):
    tournament = new_tournament(standing, table_max=4, advance_per_table=1)
    enter(standing, tournament, roster(standing, 8))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=standing.organiser)
    run_to_the_end(standing, tournament, random.Random(5))
    wait_for(lambda: "tournament.finished" in names(receiver))
    released = [r.json["data"] for r in receiver.received if r.event == "tournament.round_released"]
    assert [d["round"] for d in released] == [1, 2]
    assert released[0]["tournament"] == tournament.pk and len(released[0]["tables"]) == 2
    finished = next(r.json["data"] for r in receiver.received if r.event == "tournament.finished")
    assert all(r.status == 200 for r in receiver.received)  # every delivery verified
    assert finished["places"] == 8
    assert (
        finished["url"] == f"http://127.0.0.1:8000/api/v1/clubs/home/tournaments/{tournament.pk}/"
    )
