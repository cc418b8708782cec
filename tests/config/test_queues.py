"""Scoring, webhook deliveries and the background work travel on separate queues, so a slow
receiver, a long rating replay or a stalled mail server never holds a process that validates
deals; the outbox publishes each message to its task's queue. Every task has a time limit."""

from __future__ import annotations

from unittest import mock

import pytest

from config.celery import ProjectTask, app
from outbox import services as outbox_services


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("scoring.validate_submission", "scoring"),
        ("scoring.rate_game", "background"),
        ("scoring.ratings_catch_up", "background"),
        ("clubs.send_password_reset", "background"),
        ("tournaments.tables_catch_up", "scoring"),
        ("tournaments.table_game_ended", "scoring"),
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


def test_every_project_task_has_a_time_limit():
    app.loader.import_default_modules()  # what a worker loads at start: every app's tasks
    project_tasks = {name: t for name, t in app.tasks.items() if isinstance(t, ProjectTask)}
    assert "scoring.validate_submission" in project_tasks
    for name, task in project_tasks.items():
        assert task.soft_time_limit and task.time_limit, name
        assert task.soft_time_limit < task.time_limit, name


def test_a_webhook_claim_shorter_than_a_delivery_is_an_error(settings):
    from webhooks.checks import CLAIM_TOO_SHORT, claim_outlasts_delivery_check

    assert claim_outlasts_delivery_check() == []
    settings.WEBHOOK_CLAIM_SECONDS = 15
    [error] = claim_outlasts_delivery_check()
    assert error.id == CLAIM_TOO_SHORT
    assert "WEBHOOK_CLAIM_SECONDS (15)" in error.msg
