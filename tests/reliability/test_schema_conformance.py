"""The API schema tells the truth: schemathesis reads /api/schema/ from a real gunicorn on
production settings, PostgreSQL and Redis, and sends every operation generated requests (valid
and invalid, bounded and seeded) as the demo club's owner, with every check on: no server error,
every status, header and body as declared, invalid input refused and valid input accepted,
authentication not ignored, undeclared methods answered 405. What a schema cannot say is in
schemathesis.toml, with its reasons."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model

from clubs.demo import demo_load
from clubs.signin.services import api_token_create
from tests.live import answers_200, database_url, free_port, production_environment

REPO = Path(__file__).resolve().parents[2]
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
# Bounded for CI: generated cases per operation and phase, and the seed that makes a run repeat.
MAX_EXAMPLES = int(os.environ.get("SCHEMA_MAX_EXAMPLES", "20"))
SEED = int(os.environ.get("SCHEMA_SEED", "20261125"))
REDIS_DB = 12  # the server's own Redis database: its throttles and queued tasks, flushed

# Every operation, every phase: minutes, more while the rest of the suite shares the machine.
pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(1200)]


def _redis_url(db: int) -> str:
    return urlsplit(settings.REDIS_URL)._replace(path=f"/{db}").geturl()


@pytest.fixture
def server(postgres_tx, redis_url, tmp_path):
    """gunicorn on production settings over the test database, holding the demo club."""
    demo_load()
    owner = get_user_model().objects.get(username="owner")
    _, key = api_token_create(user=owner, name="schema check")
    server_redis = _redis_url(REDIS_DB)
    redis.Redis.from_url(server_redis).flushdb()
    port = free_port()
    env = production_environment(database_url(), server_redis)
    with (tmp_path / "web.log").open("wb") as log:
        web = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}",
             "-w", "2", "-k", "gthread", "--threads", "4", "--log-level", "warning"],
            cwd=REPO, env=env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not answers_200(port, "/api/schema/"):
            assert web.poll() is None, (tmp_path / "web.log").read_text()
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        yield port, key
    finally:
        os.killpg(web.pid, signal.SIGTERM)
        web.wait(timeout=30)
        redis.Redis.from_url(server_redis).flushdb()


def _schemathesis(port: int, key: str, junit: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCHEMATHESIS), "--config-file", str(REPO / "schemathesis.toml"), "run",
         f"http://127.0.0.1:{port}/api/schema/", "--checks", "all",
         "--header", f"Authorization: Token {key}",
         "--max-examples", str(MAX_EXAMPLES), "--seed", str(SEED), "--workers", "1",
         "--request-timeout", "30", "--no-color", "--report", "junit",
         "--report-junit-path", str(junit)],
        cwd=cwd, capture_output=True, text=True, timeout=1200,
    )  # fmt: skip


def _generator_error_only(output: str) -> bool:
    """The run failed only on errors inside the test generator itself (Hypothesis reporting its
    own draw as flaky), with no failure of the API's: such a run says nothing either way."""
    summary = output[output.rfind("SUMMARY") :]
    errors = re.search(r"Errors:\n((?:[ \t]+\S.*\n)+)", summary)
    kinds = re.findall(r"(\w[\w ]*): \d+", errors.group(1)) if errors else []
    return (
        "Failures:" not in summary
        and kinds == ["Runtime Error"]
        and "hypothesis.errors.FlakyFailure" in output
    )


def test_every_operation_answers_as_its_schema_says(server, tmp_path):
    port, key = server
    junit = tmp_path / "schemathesis.xml"
    run = _schemathesis(port, key, junit, tmp_path)
    if run.returncode != 0 and _generator_error_only(run.stdout):
        print("schemathesis's generator failed on its own; running again")
        run = _schemathesis(port, key, junit, tmp_path)
    summary = run.stdout[run.stdout.rfind("SUMMARY") :]
    print(summary)
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
    # A run that tested nothing would pass as well: every operation was reached.
    operations = [case.get("name") for case in ET.parse(junit).iter("testcase")]
    assert len(operations) >= 75, operations
    generated = re.search(r"(\d+) generated, (\d+) passed", summary)
    assert generated and int(generated.group(1)) == int(generated.group(2)) > 1000, summary
