"""Every API error has the shape {"error": {"code", "message", "details"}}."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from clubs.models import ApiToken, AuditEntry
from clubs.signin.services import api_token_create, api_token_revoke


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    return body["error"]


def test_400_names_the_field(standing):
    response = standing.client("organiser").post(
        "/api/v1/clubs/home/players/", {"name": ""}, format="json"
    )
    error = assert_error(response, 400, "invalid")
    assert "name" in error["details"]
    assert error["message"].startswith("name:")


def test_400_malformed_json(standing):
    response = standing.client("organiser").post(
        "/api/v1/clubs/home/players/", data="{not json", content_type="application/json"
    )
    assert_error(response, 400, "malformed_request")


def test_401_without_credentials(db):
    response = APIClient().get("/api/v1/clubs/")
    assert_error(response, 401, "not_authenticated")
    # Bearer: what OAuth2 apps expect; personal tokens are accepted as Bearer too.
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="api"'


def test_403_member_without_the_role(standing):
    response = standing.client("player").patch("/api/v1/clubs/home/", {"name": "x"}, format="json")
    error = assert_error(response, 403, "permission_denied")
    assert "owner" in error["message"]


def test_404_unknown_route(db):
    response = APIClient().get("/api/v1/no-such-thing/")
    assert_error(response, 404, "not_found")


def test_404_outsider_sees_no_club(standing):
    response = standing.client("outsider").get("/api/v1/clubs/home/")
    assert_error(response, 404, "not_found")


def test_405_method_not_allowed(standing):
    response = standing.client("owner").put("/api/v1/clubs/home/", {}, format="json")
    assert_error(response, 405, "method_not_allowed")


def test_token_auth_works_and_revoked_token_gets_401(standing):
    token, key = api_token_create(user=standing.organiser, name="score app")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.get("/api/v1/clubs/")
    assert response.status_code == 200
    assert [c["slug"] for c in response.json()["results"]] == ["home"]

    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert bearer.get("/api/v1/clubs/").status_code == 200

    api_token_revoke(token=token, actor=standing.organiser)
    error = assert_error(client.get("/api/v1/clubs/"), 401, "authentication_failed")
    assert "revoked" in error["message"]


def test_a_token_of_an_inactive_user_gets_401(standing):
    _, key = api_token_create(user=standing.organiser, name="score app")
    standing.organiser.is_active = False
    standing.organiser.save(update_fields=["is_active"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    error = assert_error(client.get("/api/v1/clubs/home/"), 401, "authentication_failed")
    assert "inactive" in error["message"]


def test_a_token_records_its_last_use_at_most_once_a_minute(standing):
    token, key = api_token_create(user=standing.organiser, name="score app")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/v1/clubs/home/").status_code == 200
    token.refresh_from_db()
    first = token.last_used_at
    assert first is not None
    assert client.get("/api/v1/clubs/home/").status_code == 200
    token.refresh_from_db()
    assert token.last_used_at == first  # used again within the minute: not written again
    stale = first - timedelta(minutes=2)
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=stale)
    assert client.get("/api/v1/clubs/home/").status_code == 200
    token.refresh_from_db()
    assert token.last_used_at > first


def test_a_token_acts_as_its_user_with_their_role(standing):
    """Writes made with a token are the token user's: their role decides, the audit names them."""
    _, player_key = api_token_create(user=standing.player, name="phone")
    _, owner_key = api_token_create(user=standing.owner, name="laptop")
    as_player, as_owner = APIClient(), APIClient()
    as_player.credentials(HTTP_AUTHORIZATION=f"Token {player_key}")
    as_owner.credentials(HTTP_AUTHORIZATION=f"Token {owner_key}")
    body = {"name": "Friday"}
    assert_error(as_player.post("/api/v1/clubs/home/sessions/", body, format="json"), 403,
                 "permission_denied")  # fmt: skip
    created = as_owner.post("/api/v1/clubs/home/sessions/", body, format="json")
    assert created.status_code == 201, created.content
    entry = AuditEntry.objects.get(action="session.create", object_id=str(created.json()["id"]))
    assert entry.actor_id == standing.owner.pk


@pytest.mark.parametrize(
    "header", ["Token", "Token a b", "Token not-a-real-key"], ids=["empty", "spaces", "unknown"]
)
def test_bad_token_header_gets_401(db, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    assert_error(client.get("/api/v1/clubs/"), 401, "authentication_failed")


def test_token_keys_are_not_stored(standing):
    token, key = api_token_create(user=standing.player, name="phone")
    token.refresh_from_db()
    assert key not in (token.digest, token.prefix)
    assert len(token.digest) == 64


def test_tokens_api_create_list_revoke(standing):
    client = standing.client("player")
    created = client.post("/api/v1/tokens/", {"name": "phone"}, format="json")
    assert created.status_code == 201
    key = created.json()["key"]
    listed = client.get("/api/v1/tokens/").json()["results"]
    assert [t["name"] for t in listed] == ["phone"]
    assert "key" not in listed[0]
    # Another user cannot revoke it.
    other = standing.client("outsider").delete(f"/api/v1/tokens/{created.json()['id']}/")
    assert_error(other, 404, "not_found")
    revoked = client.delete(f"/api/v1/tokens/{created.json()['id']}/")
    assert revoked.json()["revoked_at"] is not None
    token_client = APIClient()
    token_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert token_client.get("/api/v1/clubs/").status_code == 401


def test_an_apps_stream_refused_by_a_full_live_server_gets_the_api_error_shape(standing, settings):
    """The club stream past the process's maximum: 503 with Retry-After, as JSON an app reads
    like every other error (not the live screens' plain text)."""
    from live.capacity import streams

    settings.LIVE_MAX_STREAMS = 1
    held = streams.admit()
    assert held is not None
    try:
        response = standing.client("organiser").get("/api/v1/clubs/home/stream/")
    finally:
        held.release()
    error = assert_error(response, 503, "unavailable")
    assert error["details"] == {"unavailable": "live streams", "retry_after_seconds": 30}
    assert response["Retry-After"] == "30"
