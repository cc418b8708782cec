"""Push for score apps: a club's stream (``GET /api/v1/clubs/<club>/stream/``), on both fan-outs.
An app signed in with a token hears of each change in its club (and of none in another club),
catches up from its Last-Event-ID, reads no database while the stream is open, and is refused as
on every club route when its token is not bound to the club or is revoked."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application
from rest_framework.test import APIClient

from clubs.signin import services as signin_services
from live import bus
from tests.factories import ClubFactory, MembershipFactory
from tests.live_screens.test_stream import _deal, _events, _night

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["memory", "redis"])
def fan_out(request: Any, settings: Any) -> str:
    settings.LIVE_KEEPALIVE_SECONDS = 1
    if request.param == "memory":
        settings.LIVE_REDIS_URL = None
    else:
        settings.LIVE_REDIS_URL = request.getfixturevalue("redis_url")
    return str(request.param)


def _app(standing: Any, club: Any) -> APIClient:
    """A client as a score app signed in through OAuth2 for ``club`` would be."""
    application = Application.objects.create(
        name="Score app", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1:9/cb", algorithm="",
    )  # fmt: skip
    AccessToken.objects.create(
        user=standing.organiser, application=application, token=f"app-{club.slug}",
        expires=timezone.now() + timedelta(hours=1), scope=f"read club:{club.pk}",
    )  # fmt: skip
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer app-{club.slug}")
    return client


def _url(club: Any) -> str:
    return f"/api/v1/clubs/{club.slug}/stream/"


def test_an_app_hears_each_change_of_its_club_and_catches_up(fan_out, standing):
    game, players = _night(standing)
    app = _app(standing, standing.club)
    topic = f"club:{standing.club.pk}"

    response = app.get(_url(standing.club), HTTP_ACCEPT="text/event-stream")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert "no-store" in response["Cache-Control"] and "Content-Encoding" not in response
    events = _events(response)
    assert next(events).startswith("retry: ")
    _deal(standing, game, players)
    newest = bus.latest([topic])
    assert next(events) == f'id: {newest}\nevent: change\ndata: {{"id": {newest}}}'
    response.close()

    # Away for two changes: the reconnection with the last id it saw says so at once.
    _deal(standing, game, players)
    _deal(standing, game, players)
    again = app.get(_url(standing.club), HTTP_LAST_EVENT_ID=str(newest))
    events = _events(again)
    next(events)
    assert next(events).startswith(f"id: {bus.latest([topic])}\nevent: change\n")
    again.close()


def test_an_app_hears_nothing_of_another_club(fan_out, standing):
    other = ClubFactory(name="Other", slug="other")
    MembershipFactory(user=standing.organiser, club=other, role="owner")
    app = _app(standing, other)
    response = app.get(_url(other), since=str(bus.current()))
    events = _events(response)
    next(events)
    game, players = _night(standing)  # the home club changes
    _deal(standing, game, players)
    bus.publish_now([f"club:{other.pk}"])  # then the app's own club
    event = next(events)
    assert event.startswith(f"id: {bus.latest([f'club:{other.pk}'])}\n")
    assert bus.latest([f"club:{other.pk}"]) > bus.latest([f"club:{standing.club.pk}"])
    response.close()


def test_the_open_stream_reads_no_database(fan_out, standing, django_assert_num_queries):
    game, players = _night(standing)
    app = _app(standing, standing.club)
    response = app.get(_url(standing.club), HTTP_LAST_EVENT_ID=str(bus.current()))
    _deal(standing, game, players)
    with django_assert_num_queries(0):
        events = _events(response)
        next(events)
        assert "event: change" in next(events)
    response.close()


def test_a_token_of_another_club_or_a_revoked_one_is_refused(standing):
    other = ClubFactory(name="Other", slug="other")
    MembershipFactory(user=standing.organiser, club=other, role="owner")
    assert _app(standing, other).get(_url(standing.club)).status_code == 404

    token, key = signin_services.api_token_create(
        user=standing.organiser, name="Scores", scopes=["read"], club_slugs=[standing.club.slug]
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.get(_url(standing.club)).status_code == 200
    signin_services.api_token_revoke(token=token, actor=standing.organiser)
    refused = client.get(_url(standing.club), HTTP_ACCEPT="text/event-stream")
    assert refused.status_code == 401
    # An SSE client is told why in the API's one error shape.
    assert refused.json()["error"]["code"] == "authentication_failed"
