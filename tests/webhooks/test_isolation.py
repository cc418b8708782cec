"""A slow receiver is given one worker process at a time: deliveries to one endpoint are never in
flight at once, whatever the worker's concurrency."""

from __future__ import annotations

import pytest

from tests.webhooks.receiver import Receiver, wait_for
from tests.webhooks.test_delivery import organiser, subscribe
from webhooks.models import Attempt, Delivery


@pytest.fixture
def slow_receiver():
    made = Receiver(slow=0.5)
    yield made
    made.close()


@pytest.mark.usefixtures("postgres_tx")
def test_deliveries_to_one_endpoint_are_never_in_flight_at_once(
    standing, celery_worker, slow_receiver
):
    hook = subscribe(standing, slow_receiver.url, ["deal.scored"])
    client = organiser(standing)
    for _ in range(4):
        answer = client.post(f"/api/v1/clubs/home/webhooks/{hook['id']}/test/")
        assert answer.status_code == 202, answer.content
    wait_for(lambda: len(slow_receiver.accepted()) == 4, timeout=60, message="not all delivered")
    assert slow_receiver.most_in_flight == 1
    # The receiver records a request before it answers: the last answer is recorded just after.
    wait_for(lambda: Delivery.objects.filter(status=Delivery.Status.DELIVERED).count() == 4)
    assert Attempt.objects.count() == 4  # a busy endpoint is waited for, not counted a failure
