"""The rating officer's flow through a client generated from the served schema (openapi-python-
client's defaults), in its own process against a live server, signed in with the officer's
token: the queue read, one submitted event released and another returned with a reason, the
ended rating period published, and both lists read back; what it read is checked against the
database here."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from clubs.models import Player, Role
from clubs.signin import services as signin
from federation import selectors, services
from federation.models import SanctionedEvent
from tests.factories import ClubFactory, MembershipFactory
from tests.generated_client import generate_client

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("committing_db")]

OFFICER_FLOW = """
import sys
from rummyclub_api_client import AuthenticatedClient
from rummyclub_api_client.api.federation import (
    federation_event_release, federation_event_return, federation_period_publish,
    federation_queue, federation_ranking, federation_ratings,
)
from rummyclub_api_client.models import FederationReasonInputRequest

base, token = sys.argv[1:3]
client = AuthenticatedClient(base_url=base, token=token, raise_on_unexpected_status=True)
queue = federation_queue.sync(client=client, federation_slug="rf")
print("queue", " ".join(f"{event.id}:{event.name}" for event in queue.submissions))
by_name = {event.name: event.id for event in queue.submissions}
released = federation_event_release.sync(
    client=client, federation_slug="rf", event_id=by_name["Cup night"]
)
print("released", released.id, released.status, released.release_seq)
returned = federation_event_return.sync(
    client=client, federation_slug="rf", event_id=by_name["Second night"],
    body=FederationReasonInputRequest(reason="Check Farid's counts"),
)
print("returned", returned.id, returned.status, returned.reason)
period = federation_period_publish.sync(client=client, federation_slug="rf")
print("published", period.index, period.ends_on.isoformat())
for line in federation_ranking.sync(client=client, federation_slug="rf").results:
    print("ranking", line.rank, line.name, line.total)
ratings = federation_ratings.sync(client=client, federation_slug="rf")
for line in ratings.results:
    print("rating", line.rank, line.name, line.games, line.provisional, repr(line.ordinal))
"""


def _submitted(world, club, actor, name: str, deals: list[dict[str, Any]]) -> SanctionedEvent:
    event = world.night(club, actor, name)
    services.sanction_decide(actor=world.officer, event=event, approve=True)
    world.play(event, actor, deals)
    for player in Player.objects.filter(club=club).order_by("name"):
        if player.pk not in selectors.player_keys(federation=world.federation):
            link = services.link_propose(actor=actor, federation=world.federation, player=player)
            services.link_decide(actor=world.officer, link=link, confirm=True)
    return services.event_submit(actor=actor, event=event)


def test_the_officer_runs_the_queue_through_the_generated_client(
    live_server: Any, world: Any, standing: Any, tmp_path: Path
):
    client, _ = generate_client(tmp_path)
    home, second = standing.club, world.second
    # Released in January: the first rating period's (January 2026) list, which has ended.
    january = _submitted(world, home, standing.organiser, "January night", [
        {"Asha": "winner", "Bilal": 20, "Chitra": 40, "Dev": 60},
    ])  # fmt: skip
    services.event_release(actor=world.officer, event=january)
    SanctionedEvent.objects.filter(pk=january.pk).update(
        played_on=date(2026, 1, 10), released_on=date(2026, 1, 12)
    )
    cup = _submitted(world, home, standing.organiser, "Cup night", [
        {"Asha": 30, "Bilal": "winner", "Chitra": 10, "Dev": 80},
    ])  # fmt: skip
    other = _submitted(world, second, world.second_owner, "Second night", [
        {"Esther": "winner", "Farid": 25, "Gita": 5},
    ])  # fmt: skip
    MembershipFactory(user=world.officer, club=ClubFactory(name="Officer's", slug="own"),
                      role=Role.OWNER)  # fmt: skip
    _, token = signin.api_token_create(
        user=world.officer, name="officer app", scopes=("read", "manage"), club_slugs=["own"]
    )

    run = subprocess.run(
        [sys.executable, "-c", OFFICER_FLOW, live_server.url, token],
        cwd=client, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    said = run.stdout.splitlines()

    assert said[0] == f"queue {cup.pk}:Cup night {other.pk}:Second night"
    assert said[1] == f"released {cup.pk} released 2"
    assert said[2] == f"returned {other.pk} returned Check Farid's counts"
    assert said[3] == "published 0 2026-02-01"
    cup.refresh_from_db()
    other.refresh_from_db()
    assert (cup.status, other.status, other.reason) == (
        "released",
        "returned",
        "Check Farid's counts",
    )

    ranking = selectors.ranking_rows(federation=world.federation, as_of=timezone.localdate())
    assert [line for line in said if line.startswith("ranking")] == [
        f"ranking {row['rank']} {row['name']} {row['total']}" for row in ranking
    ]
    assert {row["name"] for row in ranking} == {"Asha", "Bilal", "Chitra", "Dev"}
    ratings = selectors.rating_rows(federation=world.federation)
    assert ratings["period"]["published"] and len(ratings["results"]) == 4
    assert [line for line in said if line.startswith("rating ")] == [
        f"rating {row['rank']} {row['name']} 1 True {row['ordinal']!r}"
        for row in ratings["results"]
    ]
