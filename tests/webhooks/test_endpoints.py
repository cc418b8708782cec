"""Webhook endpoints through the API: where they may point (public https only unless private
addresses are allowed, checked after DNS and again at each delivery), what they subscribe to,
the secret shown once, the delivery log and redelivery."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Club
from webhooks.models import Attempt, Delivery, Endpoint, Event
from webhooks.services import body_of, endpoint_create

HOOKS = "/api/v1/clubs/home/webhooks/"


@pytest.mark.parametrize(
    ("url", "named"),
    [
        ("https://127.0.0.1/hook", "127.0.0.1"),
        ("https://10.0.0.1/hook", "10.0.0.1"),
        ("https://169.254.169.254/latest/meta-data/", "169.254.169.254"),
        ("https://localhost:8443/hook", "localhost"),  # a name that resolves to loopback
        ("https://[::ffff:127.0.0.1]/hook", "127.0.0.1"),
        ("https://[::1]/hook", "::1"),
        ("https://100.64.0.1/hook", "100.64.0.1"),
        ("http://example.com/hook", "https"),
    ],
)
def test_private_addresses_and_plain_http_are_refused(api, settings, url, named):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    answer = api.post(HOOKS, {"url": url, "events": ["deal.scored"]}, format="json")
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "url_not_allowed" and named in error["message"]
    assert not Endpoint.objects.exists()


def test_an_address_that_turns_private_is_refused_at_delivery(
    api, settings, receiver, django_capture_on_commit_callbacks
):
    port = receiver.url.split(":")[2].split("/")[0]
    hook = f"https://localhost:{port}/hook"
    made = api.post(HOOKS, {"url": hook, "events": ["deal.scored"]}, format="json")
    assert made.status_code == 201
    settings.WEBHOOK_ALLOW_PRIVATE = False  # as if the name now resolved to a private address
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"{HOOKS}{made.json()['id']}/test/")
    attempt = Attempt.objects.get()
    assert attempt.status_code is None and "localhost is a private address" in attempt.error
    assert receiver.received == []  # nothing was sent there


def test_an_endpoint_s_events_secret_and_updates(api, receiver):
    bad = api.post(HOOKS, {"url": receiver.url, "events": ["deal.eaten"]}, format="json")
    assert bad.status_code == 400 and "events" in bad.json()["error"]["details"]
    empty = api.post(HOOKS, {"url": receiver.url, "events": []}, format="json")
    assert empty.status_code == 400
    secret = "a-secret-of-our-own-choosing"
    made = api.post(
        HOOKS, {"url": receiver.url, "events": ["game.finished"], "secret": secret}, format="json"
    ).json()
    assert made["secret"] == secret
    listed = api.get(HOOKS).json()["results"]
    assert [h["id"] for h in listed] == [made["id"]] and "secret" not in listed[0]
    assert "secret" not in api.get(f"{HOOKS}{made['id']}/").json()
    changed = api.patch(
        f"{HOOKS}{made['id']}/", {"events": ["deal.scored", "deal.scored"]}, format="json"
    ).json()
    assert changed["events"] == ["deal.scored"]
    assert api.patch(f"{HOOKS}{made['id']}/", {"url": "ftp://x/"}, format="json").status_code == 400
    assert api.delete(f"{HOOKS}{made['id']}/").status_code == 204
    assert api.get(f"{HOOKS}{made['id']}/").status_code == 404


def test_the_log_and_redelivery_resend_the_same_event_as_a_new_series(
    api, receiver, django_capture_on_commit_callbacks
):
    made = api.post(
        HOOKS, {"url": receiver.url, "events": ["deal.scored"], "secret": "s" * 20}, format="json"
    ).json()
    with django_capture_on_commit_callbacks(execute=True):
        queued = api.post(f"{HOOKS}{made['id']}/test/")
    assert queued.status_code == 202  # in-process here: already delivered
    first = Delivery.objects.get()
    assert first.status == "delivered" and receiver.received[0].event == "ping"
    assert receiver.received[0].body == body_of(first.event)
    assert receiver.received[0].signed_by("s" * 20)
    with django_capture_on_commit_callbacks(execute=True):
        again = api.post(f"{HOOKS}{made['id']}/deliveries/{first.delivery_id}/redeliver/")
    assert again.status_code == 202
    assert again.json()["event"] == str(first.event_id)
    assert again.json()["delivery"] != str(first.delivery_id)
    ids = [r.json["id"] for r in receiver.received]
    series = [r.headers["X-Rummyclub-Delivery"] for r in receiver.received]
    assert ids == [str(first.event_id)] * 2 and len(set(series)) == 2
    log = api.get(f"{HOOKS}{made['id']}/deliveries/").json()["results"]
    assert [a["status_code"] for a in log] == [200, 200]
    missing = api.post(f"{HOOKS}{made['id']}/deliveries/{first.event_id}/redeliver/")
    assert missing.status_code == 404


def test_one_endpoint_per_url_per_club(api, receiver, standing):
    first = api.post(HOOKS, {"url": receiver.url, "events": ["deal.scored"]}, format="json")
    assert first.status_code == 201
    again = api.post(HOOKS, {"url": receiver.url, "events": ["game.finished"]}, format="json")
    assert again.status_code == 400, again.content
    error = again.json()["error"]
    assert error["code"] == "duplicate_url" and "url" in error["details"]
    assert receiver.url in error["message"]
    other = api.post(HOOKS, {"url": f"{receiver.url}/b", "events": ["deal.scored"]}, format="json")
    moved = api.patch(f"{HOOKS}{other.json()['id']}/", {"url": receiver.url}, format="json")
    assert moved.status_code == 400 and moved.json()["error"]["code"] == "duplicate_url"
    # Another club may send to the same receiver.
    away = Club.objects.get(slug="away")
    endpoint_create(club=away, actor=standing.outsider, url=receiver.url, events=["deal.scored"])
    # The database refuses it whatever the way in.
    with pytest.raises(IntegrityError), transaction.atomic():
        Endpoint.objects.create(club=standing.club, url=receiver.url, events=[], secret="s")
    assert Endpoint.objects.filter(club=standing.club).count() == 2


def test_every_failed_attempt_counts_and_the_health_shows_the_last_error(
    api, receiver, django_capture_on_commit_callbacks
):
    receiver.answers = [401, 401]
    made = api.post(HOOKS, {"url": receiver.url, "events": ["deal.scored"]}, format="json").json()
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            api.post(f"{HOOKS}{made['id']}/test/")
    shown = api.get(f"{HOOKS}{made['id']}/").json()
    assert (shown["health"], shown["failures"], shown["last_error"]) == (
        "failing",
        2,
        "answered 401",
    )
    assert shown["failing_since"] is not None and shown["given_up"] == 0
    # Both deliveries wait for their retry (by back-off), none given up yet.
    assert list(Delivery.objects.values_list("status", "attempts")) == [("pending", 1)] * 2
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"{HOOKS}{made['id']}/test/")  # answered 200
    shown = api.get(f"{HOOKS}{made['id']}/").json()
    assert (shown["health"], shown["failures"], shown["last_error"]) == ("ok", 0, "")


def test_the_log_shows_the_last_100_attempts_even_before_the_prune(api, receiver, standing):
    made = api.post(
        HOOKS, {"url": receiver.url, "events": ["deal.scored"], "secret": "s" * 20}, format="json"
    ).json()
    endpoint = Endpoint.objects.get(pk=made["id"])
    event = Event.objects.create(club=standing.club, name="ping", data={})
    delivery = Delivery.objects.create(endpoint=endpoint, event=event)
    Attempt.objects.bulk_create(
        Attempt(endpoint=endpoint, delivery=delivery, status_code=500) for _ in range(130)
    )
    newest = list(Attempt.objects.order_by("-id").values_list("id", flat=True)[:100])
    shown: list[int] = []
    page = f"{HOOKS}{made['id']}/deliveries/?limit=40"
    while page:
        body = api.get(page).json()
        shown += [a["id"] for a in body["results"]]
        assert all(a["outcome"] == "failed" for a in body["results"])
        page = body["next"]
    assert shown == newest  # the prune has not run: the 30 oldest are kept but not shown
