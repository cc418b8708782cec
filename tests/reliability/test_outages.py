"""The database or Redis down: 503 with Retry-After naming which, never a 500 with a trace.
A real gunicorn on production settings, pointed at ports where nothing listens; and the
database's backends terminated under a running gunicorn: its pooled connections are checked
before reuse, so no request fails on a dead one."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clubs.signin.services import api_token_create
from tests.factories import MembershipFactory
from tests.live import database_url, end_other_connections, free_port, production_environment

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _get(port: int, path: str, **headers: str) -> tuple[int, dict, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    return response.status, dict(response.getheaders()), json.loads(response.read() or b"{}")


def _gunicorn(env: dict[str, str], port: int, log_path: Path, *options: str):
    """A gunicorn on ``port``, once it accepts connections, stopped on leaving."""
    with log_path.open("wb") as log:
        web = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}",
             "-w", "1", "--log-level", "warning", *options],
            cwd=REPO, env=env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        yield port
    finally:
        os.killpg(web.pid, signal.SIGTERM)
        web.wait(timeout=20)


@pytest.fixture
def server_without_backends(tmp_path):
    dead_db, dead_redis, port = free_port(), free_port(), free_port()
    env = production_environment(
        f"postgresql://postgres@127.0.0.1:{dead_db}/nothing", f"redis://127.0.0.1:{dead_redis}/0"
    )
    yield from _gunicorn(env, port, tmp_path / "web.log")


def test_database_down_answers_503_naming_it(server_without_backends):
    port = server_without_backends
    status, headers, body = _get(port, "/api/v1/clubs/", Authorization="Token some-key")
    assert status == 503, body
    assert headers["Retry-After"] == "5"
    assert body["error"]["code"] == "unavailable"
    assert body["error"]["details"]["unavailable"] == "database"


def test_redis_down_answers_503_naming_it(server_without_backends):
    # Anonymous evaluation is throttled through the cache, which lives on Redis.
    conn = http.client.HTTPConnection("127.0.0.1", server_without_backends, timeout=30)
    body = json.dumps({"variant": "points", "groups": [["2H", "3H", "4H"]]})
    conn.request("POST", "/api/v1/rules/evaluate/", body=body,
                 headers={"Content-Type": "application/json"})  # fmt: skip
    response = conn.getresponse()
    answer = json.loads(response.read())
    assert response.status == 503, answer
    assert response.getheader("Retry-After") == "5"
    assert answer["error"]["details"]["unavailable"] == "redis"


def test_health_names_what_failed_and_nothing_more(server_without_backends):
    status, headers, body = _get(server_without_backends, "/health/")
    assert status == 503 and headers["Retry-After"] == "5"
    assert body["failed"] == ["database", "broker"]
    text = json.dumps(body)
    assert "Error" not in text and "127.0.0.1" not in text


@pytest.mark.usefixtures("postgres_tx")
def test_terminated_backends_cost_no_request(redis_url, tmp_path):
    key = api_token_create(user=MembershipFactory().user, name="app")[1]
    env = {**production_environment(database_url(), redis_url), "DB_CONN_MAX_AGE": "60"}
    port = free_port()
    server = _gunicorn(env, port, tmp_path / "web.log", "-k", "gthread", "--threads", "4")
    next(server)
    try:

        def statuses(n: int) -> list[int]:
            return [_get(port, "/api/v1/clubs/", Authorization=f"Token {key}")[0] for _ in range(n)]

        assert statuses(20) == [200] * 20  # every thread holds a pooled connection
        assert end_other_connections() >= 1
        after = statuses(40)
        assert after == [200] * 40, f"{after.count(503)} of 40 answered 503 on a dead connection"
    finally:
        server.close()
        end_other_connections()
