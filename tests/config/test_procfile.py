"""The production run as the README describes it: every process of the ``Procfile`` (release,
web, live, worker, background, webhooks, beat),
started as written on production settings, comes up, with
web and the live screens' ASGI server on Unix sockets behind the nginx of deploy/nginx.conf."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import pytest

from config.celery import app
from tests.live import (
    answers,
    answers_200,
    database_url,
    end_other_connections,
    free_port,
    nginx_command,
    production_environment,
    stop,
    wait_until,
)

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]


def _procfile() -> dict[str, str]:
    lines = (REPO / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


def test_procfile_processes_come_up(postgres_tx, redis_url, tmp_path):
    commands = _procfile()
    assert set(commands) == {"release", "web", "live", "worker", "background", "webhooks", "beat"}
    port = free_port()
    # A short path: a Unix socket's path is limited to about 100 bytes.
    workdir = Path(tempfile.mkdtemp(prefix="rc-stack-"))
    socket_path, live_socket = str(workdir / "web.sock"), str(workdir / "live.sock")
    commands["nginx"] = shlex.join(nginx_command(workdir, socket_path, port, live_socket))
    env = {
        **production_environment(database_url(), redis_url),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "WEB_BIND": f"unix:{socket_path}",
        "LIVE_BIND": f"unix:{live_socket}",
        "WEB_CONCURRENCY": "1",
        "WORKER_CONCURRENCY": "1",
        "BACKGROUND_WORKER_CONCURRENCY": "1",
        "WEBHOOK_WORKER_CONCURRENCY": "1",
        "BEAT_SCHEDULE_FILE": str(tmp_path / "beat-schedule"),
    }
    release = subprocess.run(
        ["bash", "-c", commands["release"]], cwd=REPO, env=env, capture_output=True, timeout=180
    )
    assert release.returncode == 0, release.stderr.decode()[-2000:]

    logs = {
        name: tmp_path / f"{name}.log"
        for name in ("web", "live", "nginx", "worker", "background", "webhooks", "beat")
    }
    processes = {}
    try:
        for name, log in logs.items():
            with log.open("wb") as out:
                processes[name] = subprocess.Popen(
                    ["bash", "-c", f"exec {commands[name]}"], cwd=REPO, env=env,
                    start_new_session=True, stdout=out, stderr=subprocess.STDOUT,
                )  # fmt: skip
        wait_until(lambda: answers_200(port, "/health/"), 60, "web behind nginx")
        # The live screens' server answers its streams through nginx (a bad one: refused).
        wait_until(lambda: answers(port, "/live/stream/?t=x") == 400, 60, "live behind nginx")
        wait_until(lambda: b"ready." in logs["worker"].read_bytes(), 60, "worker")
        wait_until(lambda: b"ready." in logs["background"].read_bytes(), 60, "background worker")
        wait_until(lambda: b"ready." in logs["webhooks"].read_bytes(), 60, "webhooks worker")
        wait_until(lambda: b"beat: Starting" in logs["beat"].read_bytes(), 60, "beat")
        # Beat hands the outbox relay to the worker within its 5 s period.
        wait_until(lambda: b"outbox.relay" in logs["worker"].read_bytes(), 30, "the relay")
        # The webhook sweep is received by the webhooks worker, the ratings catch-up by the
        # background worker, each only there (each worker's banner lists every task, so look for
        # a received one: "name[").
        wait_until(lambda: b"webhooks.sweep[" in logs["webhooks"].read_bytes(), 30, "the sweep")
        with warnings.catch_warnings():  # "task_always_eager has no effect on send_task": meant
            warnings.simplefilter("ignore")
            app.send_task("scoring.ratings_catch_up")
        wait_until(
            lambda: b"scoring.ratings_catch_up[" in logs["background"].read_bytes(), 30, "ratings"
        )
        assert b"webhooks.sweep[" not in logs["worker"].read_bytes()
        assert b"webhooks.sweep[" not in logs["background"].read_bytes()
        assert b"scoring.ratings_catch_up[" not in logs["webhooks"].read_bytes()
        assert b"scoring.ratings_catch_up[" not in logs["worker"].read_bytes()
        assert all(p.poll() is None for p in processes.values())
    finally:
        for process in processes.values():
            stop(process)
        shutil.rmtree(workdir, ignore_errors=True)
        end_other_connections()
