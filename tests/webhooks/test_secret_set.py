"""A webhook endpoint given a new secret and enabled (the API and the settings page): how one
restored from a club archive, disabled with a secret no one has seen, sends again with its
history kept; its deliveries are then signed with the new secret."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import AuditEntry
from webhooks.models import Endpoint
from webhooks.sending import secret_new

HOOKS = "/api/v1/clubs/home/webhooks/"


def _restored(standing, url: str) -> Endpoint:
    """An endpoint as a club archive's import leaves it: disabled, with a secret never shown."""
    return Endpoint.objects.create(
        club=standing.club, url=url, events=["deal.scored"], secret=secret_new(), enabled=False
    )


def test_a_restored_endpoint_given_its_receivers_secret_sends_again(
    api, standing, receiver, django_capture_on_commit_callbacks
):
    endpoint = _restored(standing, receiver.url)
    secret = "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo="  # 26 bytes in base64
    answer = api.post(f"{HOOKS}{endpoint.pk}/secret/", {"secret": secret}, format="json")
    assert answer.status_code == 200, answer.json()
    assert (answer.json()["secret"], answer.json()["enabled"]) == (secret, True)
    assert answer["Cache-Control"] == "no-store"
    assert "secret" not in api.get(f"{HOOKS}{endpoint.pk}/").json()
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"{HOOKS}{endpoint.pk}/test/").status_code == 202
    assert receiver.received and receiver.received[0].verifies_with(secret)
    audited = AuditEntry.objects.get(action="webhook.secret")
    assert secret not in str(audited.after)


def test_a_new_secret_is_made_and_shown_once_and_a_bad_one_is_named(api, standing, receiver):
    endpoint = _restored(standing, receiver.url)
    kept = endpoint.secret
    bad = api.post(f"{HOOKS}{endpoint.pk}/secret/", {"secret": "whsec_short!!!!!!!"}, format="json")
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "invalid_secret")
    endpoint.refresh_from_db()
    assert (endpoint.secret, endpoint.enabled) == (kept, False)  # nothing changed
    made = api.post(f"{HOOKS}{endpoint.pk}/secret/", {"enable": False}, format="json").json()
    endpoint.refresh_from_db()
    assert made["secret"] == endpoint.secret != kept
    assert endpoint.enabled is False  # asked not to enable it


@pytest.mark.django_db
def test_the_settings_page_sets_the_secret_and_enables_it(standing, receiver):
    endpoint = _restored(standing, receiver.url)
    page = Client()
    page.force_login(standing.organiser)
    answer = page.post(
        f"/clubs/home/settings/webhooks/{endpoint.pk}/secret/", {"secret": ""}, follow=True
    )
    endpoint.refresh_from_db()
    assert endpoint.enabled
    html = answer.content.decode()
    assert "has a new secret and is enabled" in html and endpoint.secret in html
    # Shown once: the next visit of the page no longer shows it.
    assert endpoint.secret not in page.get("/clubs/home/settings/").content.decode()
    scorer = Client()
    scorer.force_login(standing.scorer)
    refused = scorer.post(f"/clubs/home/settings/webhooks/{endpoint.pk}/secret/", {"secret": ""})
    assert refused.status_code in (403, 404)
