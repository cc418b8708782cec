"""`make run` serves the demo club with the embedded default: /, /health/ and /api/docs/ answer."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.config.test_settings import OUR_VARS

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def stop(server: subprocess.Popen[str]) -> str:
    """Ctrl-C, as a developer stops it. The whole group is killed if it has not gone in 20 s:
    on a loaded machine it once outlasted a 30 s wait, and what is tested here is serving."""
    os.killpg(server.pid, signal.SIGINT)
    try:
        output, _ = server.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        output, _ = server.communicate(timeout=20)
    return output


@pytest.mark.slow
def test_make_run_serves_the_demo_club(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARS}
    # The embedded default, but in a scratch database so the developer's own file is untouched.
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    server = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, _ = fetch(f"{base}/health/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    output = server.stdout.read() if server.stdout else ""
                    pytest.fail(f"make run did not start serving:\n{output}")
                time.sleep(0.5)
        assert status == 200
        status, home = fetch(f"{base}/")
        assert status == 200 and "rummyclub" in home
        status, docs = fetch(f"{base}/api/docs/")
        assert status == 200 and "swagger" in docs.lower()
        status, health = fetch(f"{base}/health/")
        assert '"status": "ok"' in health
        status, login = fetch(f"{base}/login/")
        assert status == 200 and 'name="password"' in login
    finally:
        output = stop(server)
    assert "owner     / rummyclub-demo" in output
