"""The database or Redis down: 503 with Retry-After naming which, never a 500 with a trace.
A real gunicorn on production settings, pointed at ports where nothing listens."""

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

from tests.live import free_port, production_environment

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _get(port: int, path: str, **headers: str) -> tuple[int, dict, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    return response.status, dict(response.getheaders()), json.loads(response.read() or b"{}")


@pytest.fixture
def server_without_backends(tmp_path):
    dead_db, dead_redis, port = free_port(), free_port(), free_port()
    env = production_environment(
        f"postgresql://postgres@127.0.0.1:{dead_db}/nothing", f"redis://127.0.0.1:{dead_redis}/0"
    )
    with (tmp_path / "web.log").open("wb") as log:
        web = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}",
             "-w", "1", "--log-level", "warning"],
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
