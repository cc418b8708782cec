"""Idempotency-Key: the key and the work are kept together or not at all, whoever sends it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.api_kit.idempotency import idempotency_keys_prune, key_scope
from clubs.models import IdempotentRequest
from clubs.signin.services import api_token_create
from scoring.api import deals as scoring_api
from scoring.models import Deal, Submission
from tests.scoring.conftest import make_night

pytestmark = pytest.mark.usefixtures("committing_db")


@pytest.fixture
def app(standing):
    """A score app with a token, and the path and body of a deal entered with its result."""
    night = make_night(standing)
    token, key = api_token_create(user=standing.scorer, name="score app")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    body = {
        "wild": "QH",
        "results": night.results(
            Asha={"outcome": "loser", "points": 10},
            Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "loser", "points": 30},
            Dev={"outcome": "first_drop"},
            Esther={"outcome": "middle_drop"},
            Farid={"outcome": "winner"},
        ),
    }
    path = f"/api/v1/clubs/home/games/{night.game.pk}/deals/"
    return client, key, token, path, body


def _post(client, path, body, key, **extra):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(
        path, data, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **extra
    )


def test_the_token_not_the_header_spelling_is_the_identity(app):
    client, key, _, path, body = app
    first = _post(client, path, body, "k1")
    again = _post(client, path, body, "k1", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert first.status_code == again.status_code == 202
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Submission.objects.count() == 1


def test_bodies_are_compared_as_parsed_json(app):
    client, _, _, path, body = app
    first = _post(client, path, body, "k2")
    reordered = json.dumps(dict(reversed(list(body.items()))), indent=4)
    again = _post(client, path, reordered, "k2")
    assert again.status_code == 202 and again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    assert Submission.objects.count() == 1


def test_location_is_replayed(app):
    client, _, _, path, body = app
    first = _post(client, path, body, "k3")
    again = _post(client, path, body, "k3")
    assert first["Location"] and again["Location"] == first["Location"]


def test_a_4xx_is_not_kept_and_frees_the_key(app):
    client, _, _, path, body = app
    refused = _post(client, path, {**body, "results": []}, "k4")
    assert refused.status_code == 400
    assert not IdempotentRequest.objects.exists()
    fixed = _post(client, path, body, "k4")  # a different body, same key: not a 422
    assert fixed.status_code == 202 and "Idempotent-Replayed" not in fixed
    assert Submission.objects.count() == 1


def test_a_request_that_fails_keeps_neither_its_work_nor_the_key(app, monkeypatch):
    client, _, _, path, body = app

    def broken(*args, **kwargs):
        raise RuntimeError("fails after the deal and its submission were written")

    monkeypatch.setattr(scoring_api, "_accepted", broken)
    failed = _post(client, path, body, "k5")
    assert failed.status_code == 500
    assert failed.json()["error"]["code"] == "server_error"
    assert not Deal.objects.exists() and not Submission.objects.exists()
    assert not IdempotentRequest.objects.exists()
    monkeypatch.undo()
    retried = _post(client, path, body, "k5")
    assert retried.status_code == 202
    assert Deal.objects.count() == Submission.objects.count() == 1


def test_a_claim_in_flight_answers_409_with_retry_after_and_expires_after_60_s(app):
    client, _, token, path, body = app
    claim = IdempotentRequest.objects.create(
        identity=key_scope(f"token:{token.pk}", "POST", path),
        key="k6",
        fingerprint="died",
        claimed_at=timezone.now(),
    )
    busy = _post(client, path, body, "k6")
    assert busy.status_code == 409
    assert busy.json()["error"]["code"] == "idempotency_key_in_progress"
    assert 1 <= int(busy["Retry-After"]) <= 60
    # The request holding it died a minute ago: the key is taken over and the work done once.
    IdempotentRequest.objects.filter(pk=claim.pk).update(
        claimed_at=timezone.now() - timedelta(seconds=61)
    )
    taken = _post(client, path, body, "k6")
    assert taken.status_code == 202
    assert Submission.objects.count() == 1
    assert _post(client, path, body, "k6")["Idempotent-Replayed"] == "true"


def test_a_key_belongs_to_one_endpoint(app):
    client, _, _, path, body = app
    first = _post(client, path, body, "k8")
    assert first.status_code == 202
    # The same key on another write (a correction of that deal) is another key: done, not
    # refused as a reuse with a different body.
    corrected = {**body, "wild": "KH"}
    again = _post(client, f"/api/v1/clubs/home/deals/{first.json()['deal']}/submissions/",
                  corrected, "k8")  # fmt: skip
    assert again.status_code == 202 and "Idempotent-Replayed" not in again
    assert Submission.objects.count() == 2
    assert IdempotentRequest.objects.count() == 2


def test_answers_to_unauthenticated_requests_are_not_kept(app):
    _, _, _, path, body = app
    response = _post(APIClient(), path, body, "k7", HTTP_AUTHORIZATION="Token not-a-key")
    assert response.status_code == 401
    assert not IdempotentRequest.objects.exists()


def test_keys_older_than_a_day_are_pruned(app):
    client, _, _, path, body = app
    _post(client, path, body, "old")
    _post(client, path, body, "new")
    IdempotentRequest.objects.filter(key="old").update(
        created_at=timezone.now() - timedelta(hours=25)
    )
    assert idempotency_keys_prune() == 1
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]
