"""Every delivery attempt has a hard total deadline (``WEBHOOK_TIMEOUT_SECONDS``: connect, send
and the whole answer): a receiver that trickles its answer a byte every few seconds, which
http.client's per-read timeout never trips, is cut at the deadline and the attempt recorded as a
timeout, then retried as any failure is."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.test import TestCase
from django.utils import timezone

from tests.webhooks.receiver import Receiver
from webhooks.models import Attempt, Delivery
from webhooks.sending import post
from webhooks.services import endpoint_create, ping_send


@pytest.fixture
def trickling():
    made = Receiver(trickle=3.0)  # one byte of the status line every 3 s
    yield made
    made.close()
    made.close()


def test_the_client_gives_up_at_the_deadline_however_slowly_bytes_come(settings):
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    receiver = Receiver(trickle=0.3)
    try:
        started = time.monotonic()
        answer = post(receiver.url, b"{}", {"Content-Type": "application/json"})
        took = time.monotonic() - started
    finally:
        receiver.close()
    assert 1.0 <= took < 1.5
    assert answer.status is None and not answer.ok
    assert answer.error == "timeout: no complete answer within 1 s"


def test_a_prompt_answer_is_still_read_whole(settings):
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    receiver = Receiver(hold=0.2)  # HTTP/1.0: the server closes the connection after it
    try:
        answer = post(receiver.url, b"{}", {"Content-Type": "application/json"})
    finally:
        receiver.close()
    assert (answer.status, answer.body, answer.error, answer.ok) == (200, "ok", "", True)


@pytest.mark.slow
def test_a_trickling_receiver_is_cut_at_the_deadline_and_retried(standing, trickling):
    deadline = settings.WEBHOOK_TIMEOUT_SECONDS  # 5, as in production
    endpoint = endpoint_create(
        club=standing.club, actor=standing.organiser, url=trickling.url, events=["deal.scored"]
    )
    started = time.monotonic()
    with TestCase.captureOnCommitCallbacks(execute=True):
        delivery = ping_send(endpoint=endpoint, actor=standing.organiser)
    took = time.monotonic() - started

    attempt = Attempt.objects.get(delivery=delivery)
    assert attempt.error == f"timeout: no complete answer within {deadline} s"
    assert attempt.status_code is None
    assert deadline * 1000 <= attempt.duration_ms < (deadline + 1) * 1000
    # The whole call (the endpoint's lease, the attempt, its record) ends soon after the deadline;
    # the margin is for a busy machine, the attempt's own duration is held to a second above.
    assert took < deadline + 2
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.PENDING and delivery.attempts == 1
    assert delivery.next_attempt_at > timezone.now()  # the next attempt after the back-off
    assert len(trickling.received) == 1
