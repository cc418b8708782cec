"""Idempotency-Key for every kind of caller, table-driven: a personal token, an OAuth2 app (also
across a refresh, when the retry carries the app's next access token), a browser session and a
table link. For each: the same key and body retried makes one deal and answers as the first; the
same key with another body answers 422 and writes nothing."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application

from clubs.models import IdempotentRequest
from clubs.signin.services import api_token_create
from scoring.models import Deal, Submission
from tests.scoring.conftest import make_night

pytestmark = pytest.mark.usefixtures("committing_db")


def _results(night: Any, asha_points: int = 10) -> list[dict[str, Any]]:
    return night.results(
        Asha={"outcome": "loser", "points": asha_points},
        Bilal={"outcome": "loser", "points": 20},
        Chitra={"outcome": "loser", "points": 30},
        Dev={"outcome": "first_drop"},
        Esther={"outcome": "middle_drop"},
        Farid={"outcome": "winner"},
    )


@dataclass
class Caller:
    """Two clients of one caller (a retry may come from the second) and where it enters a
    deal with its result."""

    first: Client
    retry: Client
    path: str
    body: Callable[[int], dict[str, Any]]


def _app_token(user: Any, app: Application, club_pk: int) -> str:
    raw = secrets.token_urlsafe(30)
    AccessToken.objects.create(
        user=user, application=app, token=raw, scope=f"read score club:{club_pk}",
        expires=timezone.now() + timedelta(hours=1),
    )  # fmt: skip
    return raw


def _oauth_app() -> Application:
    return Application.objects.create(
        name="Score Phone", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1:8765/callback", client_secret="", algorithm="",
    )  # fmt: skip


def _club_deal(night: Any) -> tuple[str, Callable[[int], dict[str, Any]]]:
    path = f"/api/v1/clubs/home/games/{night.game.pk}/deals/"
    return path, lambda points: {"wild": "QH", "results": _results(night, points)}


def personal_token(standing: Any, night: Any) -> Caller:
    _, key = api_token_create(user=standing.scorer, name="score app")
    client = Client(HTTP_AUTHORIZATION=f"Token {key}")
    return Caller(client, Client(HTTP_AUTHORIZATION=f"Bearer {key}"), *_club_deal(night))


def oauth_app(standing: Any, night: Any) -> Caller:
    token = _app_token(standing.scorer, _oauth_app(), standing.club.pk)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    return Caller(client, client, *_club_deal(night))


def oauth_app_after_a_refresh(standing: Any, night: Any) -> Caller:
    """The app's request timed out, it refreshed, and it retries with its new access token."""
    app = _oauth_app()
    before = _app_token(standing.scorer, app, standing.club.pk)
    after = _app_token(standing.scorer, app, standing.club.pk)
    return Caller(
        Client(HTTP_AUTHORIZATION=f"Bearer {before}"),
        Client(HTTP_AUTHORIZATION=f"Bearer {after}"),
        *_club_deal(night),
    )


def browser_session(standing: Any, night: Any) -> Caller:
    client = Client()
    client.force_login(standing.scorer)
    return Caller(client, client, *_club_deal(night))


def table_link(standing: Any, night: Any) -> Caller:
    made = standing.client("scorer").post(
        f"/api/v1/clubs/home/tables/{night.game.table_id}/links/", {"mode": "confirm"},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201, made.content
    path = f"/api/v1/table/{made.json()['token']}/deals/"
    client = Client()
    return Caller(
        client, client, path,
        lambda points: {"seat": 2, "wild": "QH", "results": _results(night, points)},
    )  # fmt: skip


CALLERS = [personal_token, oauth_app, oauth_app_after_a_refresh, browser_session, table_link]


def _post(client: Client, path: str, body: dict[str, Any], key: str) -> Any:
    return client.post(
        path, json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=key
    )


@pytest.mark.parametrize("make_caller", CALLERS, ids=lambda f: f.__name__)
def test_a_retry_makes_one_deal_and_another_body_answers_422(standing, make_caller):
    night = make_night(standing)
    caller = make_caller(standing, night)

    first = _post(caller.first, caller.path, caller.body(10), "retry-1")
    assert first.status_code == 202, first.content
    again = _post(caller.retry, caller.path, caller.body(10), "retry-1")
    assert again.status_code == 202, again.content
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Deal.objects.count() == Submission.objects.count() == 1

    other = _post(caller.retry, caller.path, caller.body(15), "retry-1")
    assert other.status_code == 422, other.content
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert Deal.objects.count() == Submission.objects.count() == 1
    assert IdempotentRequest.objects.count() == 1


def test_an_apps_keys_are_its_own_not_its_persons_other_callers(standing):
    """The same person's personal token and OAuth2 app are two callers: one key, two deals."""
    night = make_night(standing)
    token = personal_token(standing, night)
    app = oauth_app(standing, night)
    assert _post(token.first, token.path, token.body(10), "same").status_code == 202
    by_app = _post(app.first, app.path, app.body(10), "same")
    assert by_app.status_code == 202 and "Idempotent-Replayed" not in by_app
    assert Deal.objects.count() == 2


def test_an_expired_app_token_is_refused_and_nothing_kept(standing):
    night = make_night(standing)
    app = oauth_app(standing, night)
    AccessToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    refused = _post(app.first, app.path, app.body(10), "late")
    assert refused.status_code == 401
    assert not IdempotentRequest.objects.exists() and not Deal.objects.exists()
