"""How the API's answers travel and how often a caller may ask: gzip for JSON (never for pages or
secrets), ETags with 304s, and the published rate limit with its ``RateLimit-*`` headers, counted
per caller, and never in the way when the cache's Redis is gone."""

from __future__ import annotations

import gzip
import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from clubs.signin.services import api_token_create
from scoring.nights import session_create

SESSIONS = "/api/v1/clubs/home/sessions/"


def test_json_is_compressed_for_a_client_that_accepts_gzip_and_reads_back_the_same(standing):
    for name in ("Monday", "Tuesday"):
        session_create(club=standing.club, actor=standing.organiser, name=name)
    client = standing.client("player")
    plain = client.get(SESSIONS)
    packed = client.get(SESSIONS, HTTP_ACCEPT_ENCODING="gzip")
    assert plain.status_code == packed.status_code == 200
    assert not plain.has_header("Content-Encoding")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert json.loads(gzip.decompress(packed.content)) == plain.json()


def test_pages_and_secrets_are_never_compressed(standing, client):
    client.force_login(standing.organiser)
    page = client.get("/clubs/home/", HTTP_ACCEPT_ENCODING="gzip")
    assert page.status_code == 200 and not page.has_header("Content-Encoding")
    api = standing.client("organiser")
    created = api.post(
        "/api/v1/tokens/", {"name": "scores"}, format="json", HTTP_ACCEPT_ENCODING="gzip"
    )
    assert created.status_code == 201
    assert not created.has_header("Content-Encoding")
    assert created["Cache-Control"] == "no-store"
    assert created.json()["key"]


def test_an_unchanged_answer_is_revalidated_with_its_etag_and_a_changed_one_is_not(standing):
    # Answers under 200 bytes are never compressed: a few nights make this one longer.
    for name in ("Monday", "Tuesday"):
        session_create(club=standing.club, actor=standing.organiser, name=name)
    client = standing.client("player")
    first = client.get(SESSIONS)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    assert "Authorization" in first["Vary"]
    again = client.get(SESSIONS, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    session_create(club=standing.club, actor=standing.organiser, name="Friday")
    changed = client.get(SESSIONS, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert sorted(night["name"] for night in changed.json()["results"]) == [
        "Friday", "Monday", "Tuesday",
    ]  # fmt: skip
    # Compressed, the tag is weak; it revalidates all the same.
    packed = client.get(SESSIONS, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip" and packed["ETag"].startswith('W/"')
    assert client.get(SESSIONS, HTTP_IF_NONE_MATCH=packed["ETag"]).status_code == 304


def _not_near_a_minutes_end() -> None:
    """Windows are the clock's minutes: a test that counts within one starts well inside it."""
    left = 60 - time.time() % 60
    if left < 10:
        time.sleep(left + 0.1)


def _token_client(user) -> APIClient:
    _, key = api_token_create(user=user, name="app")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_each_caller_has_its_limit_a_minute_and_every_answer_says_what_is_left(standing, settings):
    settings.API_RATE_LIMIT = 3
    cache.clear()
    app = _token_client(standing.player)
    _not_near_a_minutes_end()
    seen = []
    for _ in range(3):
        answer = app.get(SESSIONS)
        assert answer.status_code == 200
        seen.append(int(answer["RateLimit-Remaining"]))
        assert answer["RateLimit-Limit"] == "3"
        assert answer["RateLimit-Policy"] == "3;w=60"
        assert 1 <= int(answer["RateLimit-Reset"]) <= 60
    assert seen == [2, 1, 0]
    refused = app.get(SESSIONS)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "throttled"
    assert refused["RateLimit-Remaining"] == "0"
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused["Retry-After"] == refused["RateLimit-Reset"]
    # Another caller (the same person's browser session, another person) has a limit of its own.
    assert standing.client("player").get(SESSIONS).status_code == 200
    assert standing.client("organiser").get(SESSIONS)["RateLimit-Remaining"] == "2"


def test_pages_are_not_counted(standing, client, settings):
    settings.API_RATE_LIMIT = 1
    cache.clear()
    client.force_login(standing.organiser)
    for _ in range(3):
        page = client.get("/clubs/home/")
        assert page.status_code == 200 and not page.has_header("RateLimit-Limit")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def own_redis() -> Iterator[tuple[subprocess.Popen, str]]:
    """A Redis server of this test's own, to be killed (never the machine's)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("needs redis-server on the PATH (Debian's redis-server)")
    port = _free_port()
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    for _ in range(100):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield server, url
    server.kill()
    server.wait()


def test_a_cache_whose_redis_died_refuses_nothing_and_promises_nothing(
    standing, settings, own_redis
):
    server, url = own_redis
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    }
    settings.API_RATE_LIMIT = 2
    client = standing.client("player")
    counted = client.get(SESSIONS)
    assert counted.status_code == 200 and counted["RateLimit-Limit"] == "2"
    server.kill()
    server.wait()
    for _ in range(3):  # over the limit, had it been counted
        answer = client.get(SESSIONS)
        assert answer.status_code == 200
        assert not answer.has_header("RateLimit-Remaining")
