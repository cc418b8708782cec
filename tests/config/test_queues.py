"""Scoring and webhook deliveries travel on separate queues, so a slow receiver never holds a
process that validates deals; the outbox publishes each message to its task's queue."""

from __future__ import annotations

from unittest import mock

import pytest

from config.celery import app
from outbox import services as outbox_services


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("scoring.validate_submission", "scoring"),
        ("scoring.ratings_catch_up", "scoring"),
        ("tournaments.tables_catch_up", "scoring"),
        ("webhooks.deliver", "webhooks"),
        ("webhooks.sweep", "webhooks"),
        ("outbox.relay", "rummyclub"),
    ],
)
def test_the_outbox_publishes_to_the_queue_of_the_task(task, queue):
    app.conf.task_always_eager = False
    try:
        with mock.patch.object(app.amqp, "send_task_message") as send:
            outbox_services._publish(task, [1])
    finally:
        app.conf.task_always_eager = True
    assert send.call_args.kwargs["queue"].name == queue
