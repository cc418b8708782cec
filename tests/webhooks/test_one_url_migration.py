"""The migration that allows one endpoint per URL per club, run on a database that has
duplicates: they become one endpoint (the oldest enabled, its secret), receiving every event any
of them received, with their delivery log, and an event pending at two of them sent once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from webhooks.models import Attempt, Delivery, Endpoint

BEFORE = [("webhooks", "0002_endpoint_sending_until")]
AFTER = [("webhooks", "0004_endpoint_unique_url")]


def migrate(target: list[tuple[str, str]] | None = None) -> None:
    """Migrate to ``target``, or to the newest migrations (what every later test expects)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target if target is not None else executor.loader.graph.leaf_nodes())


@pytest.fixture
def back_to_the_newest():
    """Whatever the test does to the schema, the database ends at the newest migrations:
    the tests after it on this worker use the models as they are now."""
    yield
    migrate()


@pytest.mark.usefixtures("committing_db", "back_to_the_newest")
def test_duplicate_endpoints_are_merged_before_the_constraint(standing):
    migrate(BEFORE)
    apps = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    OldEndpoint = apps.get_model("webhooks", "Endpoint")
    OldEvent = apps.get_model("webhooks", "Event")
    OldDelivery = apps.get_model("webhooks", "Delivery")
    OldAttempt = apps.get_model("webhooks", "Attempt")
    club_id, url = standing.club.pk, "https://scores.example.com/hook"

    def endpoint(**fields):
        return OldEndpoint.objects.create(
            club_id=club_id, url=url, **{"secret": "s" * 20, **fields}
        )

    disabled = endpoint(events=["deal.scored"], enabled=False, health="disabled", failures=3)
    kept = endpoint(events=["game.finished"], secret="kept-secret-0123")
    third = endpoint(events=["deal.scored", "session.closed"])
    elsewhere = OldEndpoint.objects.create(
        club_id=club_id, url="https://other.example.com/", secret="x" * 20, events=["ping"]
    )
    shared, own = (OldEvent.objects.create(club_id=club_id, name="deal.scored") for _ in "ab")
    for each in (disabled, kept, third):
        OldDelivery.objects.create(endpoint=each, event=shared)  # one event, three times
    past = OldDelivery.objects.create(endpoint=third, event=own, status="delivered", attempts=1)
    OldAttempt.objects.create(endpoint=third, delivery=past, status_code=200)
    OldDelivery.objects.create(endpoint=elsewhere, event=shared)

    migrate(AFTER)
    migrate()  # the later migrations too, so that the models of today read the rows
    assert Endpoint.objects.count() == 2

    merged = Endpoint.objects.get(club=standing.club, url=url)
    assert merged.pk == kept.pk and merged.secret == "kept-secret-0123" and merged.enabled
    assert sorted(merged.events) == ["deal.scored", "game.finished", "session.closed"]
    deliveries = Delivery.objects.filter(endpoint=merged).values_list("event_id", "status")
    assert sorted(deliveries) == sorted([(shared.pk, "pending"), (own.pk, "delivered")])
    assert Attempt.objects.get().endpoint_id == merged.pk  # the log came along
    assert Delivery.objects.filter(endpoint_id=elsewhere.pk).count() == 1
    # What "failures" counted before (events given up on) is now "given_up".
    assert (merged.given_up, merged.failures) == (0, 0)
