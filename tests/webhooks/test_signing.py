"""Deliveries signed to the Standard Webhooks specification, checked by a receiver using the
``standardwebhooks`` library: accepted with the endpoint's secret, refused with another, when
the body was changed, and as a replay older than five minutes (its timestamp cannot be made
fresh: it is signed). A secret from before the ``whsec_`` form keeps working, and the old
header is still sent (deprecated)."""

from __future__ import annotations

import base64
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
import standardwebhooks.webhooks
from rest_framework.test import APIClient

from tests.webhooks.receiver import Received, Receiver
from webhooks.models import Delivery, Endpoint

HOOKS = "/api/v1/clubs/home/webhooks/"


def pinged(
    api: APIClient, receiver: Receiver, capture: Any, **fields: Any
) -> tuple[dict, Received]:
    made = api.post(
        HOOKS, {"url": receiver.url, "events": ["deal.scored"], **fields}, format="json"
    )
    assert made.status_code == 201, made.content
    with capture(execute=True):
        assert api.post(f"{HOOKS}{made.json()['id']}/test/").status_code == 202
    return made.json(), receiver.received[-1]


@pytest.fixture
def receiver_clock(monkeypatch):
    """Moves the receiving library's clock (its ``datetime.now``) by the seconds given."""

    def move(seconds: float) -> None:
        class Moved(datetime):
            @classmethod
            def now(cls, tz: Any = None) -> Any:
                return datetime.now(tz) + timedelta(seconds=seconds)

        monkeypatch.setattr(standardwebhooks.webhooks, "datetime", Moved)

    return move


def test_a_delivery_verifies_with_the_standard_webhooks_library(
    api, receiver, django_capture_on_commit_callbacks
):
    hook, got = pinged(api, receiver, django_capture_on_commit_callbacks)
    secret = hook["secret"]
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) == 32
    assert got.verifies_with(secret)
    event = Delivery.objects.get().event
    assert got.headers["webhook-id"] == str(event.id) == got.json["id"]
    assert abs(int(got.headers["webhook-timestamp"]) - time.time()) < 5
    assert got.headers["webhook-signature"].startswith("v1,")
    assert not got.verifies_with("whsec_" + base64.b64encode(b"another secret, 24 bytes").decode())
    changed = Received(0, got.headers, got.body.replace(b'"ping"', b'"pong"'), 0)
    assert changed.body != got.body and not changed.verifies_with(secret)
    # A receiver that checks answers 401 to what does not verify: this one accepted it.
    receiver.secret = secret
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"{HOOKS}{hook['id']}/test/")
    assert receiver.received[-1].status == 200


def test_a_replay_older_than_five_minutes_is_refused(
    api, receiver, receiver_clock, django_capture_on_commit_callbacks
):
    hook, captured = pinged(api, receiver, django_capture_on_commit_callbacks)
    secret = hook["secret"]
    receiver_clock(4 * 60)
    assert captured.verifies_with(secret)  # four minutes on: still accepted
    receiver_clock(5 * 60 + 2)
    assert not captured.verifies_with(secret)  # five minutes on: refused
    # Nor can the replay be made fresh: the timestamp is part of what is signed.
    fresh = str(int(time.time()) + 5 * 60 + 2)
    refreshed = Received(0, {**captured.headers, "webhook-timestamp": fresh}, captured.body, 0)
    assert not refreshed.verifies_with(secret)


def test_a_secret_from_before_the_whsec_form_keeps_working(
    api, receiver, django_capture_on_commit_callbacks
):
    legacy = "a-secret-of-our-own-choosing"
    hook, got = pinged(api, receiver, django_capture_on_commit_callbacks, secret=legacy)
    assert hook["secret"] == legacy
    assert got.signed_by(legacy)  # the old header, as before (deprecated)
    # Its Standard Webhooks form: whsec_ and its bytes in base64.
    assert got.verifies_with("whsec_" + base64.b64encode(legacy.encode()).decode())
    # One made before this release, with the generated secret of then, the same.
    old = Endpoint.objects.get()
    old.secret = "tZ3cX9kq-Lr0yQm1Wv2Ue8Pj4Hs7Gd6Fa5Nb_Ac3Kx0"
    old.save()
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"{HOOKS}{old.pk}/test/")
    again = receiver.received[-1]
    assert again.signed_by(old.secret)
    assert again.verifies_with("whsec_" + base64.b64encode(old.secret.encode()).decode())


def test_a_given_whsec_secret_must_be_24_to_64_bytes_of_base64(api, receiver):
    for bad in ["whsec_c2hvcnQgc2VjcmV0", "whsec_not base64 at all!!", "whsec_" + "A" * 100]:
        answer = api.post(
            HOOKS, {"url": receiver.url, "events": ["deal.scored"], "secret": bad}, format="json"
        )
        assert answer.status_code == 400, answer.content
        assert answer.json()["error"]["code"] == "invalid_secret"
        assert "secret" in answer.json()["error"]["details"]
    good = "whsec_" + base64.b64encode(bytes(range(32))).decode()
    made = api.post(
        HOOKS, {"url": receiver.url, "events": ["deal.scored"], "secret": good}, format="json"
    )
    assert made.status_code == 201 and made.json()["secret"] == good
