"""For tests that start the service as it runs in production (gunicorn, Celery) and talk to it
over a real socket."""

from __future__ import annotations

import fcntl
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
from django.db import connection

from tests.conftest import service_absent

REPO = Path(__file__).resolve().parents[1]

SECRET_KEY = "test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int, path: str) -> int | None:
    """The status a GET of ``path`` on the local ``port`` answers (None while not up)."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", path)
        return conn.getresponse().status
    except OSError:
        return None


def answers_200(port: int, path: str) -> bool:
    """Whether a GET of ``path`` on the local ``port`` answers 200 (False while not up)."""
    return answers(port, path) == 200


def redis_answers(port: int) -> bool:
    """Whether a Redis on the local ``port`` answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def own_redis_port(base: int) -> int:
    """The port of a test's own Redis (one it kills): ``base`` for the first parallel test
    worker (pytest-xdist ``gw0``), 10 more for each next one, so that tests with their own
    Redis on different workers never share one (nor kill another's)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return base + 10 * (int(worker[2:]) if worker.startswith("gw") else 0)


def redis_server(port: int, log: Path) -> subprocess.Popen[bytes]:
    """A Redis of the test's own on ``port`` (never the machine's: the test kills it), once it
    answers; skips without redis-server."""
    if shutil.which("redis-server") is None:
        service_absent("needs redis-server on the PATH")
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--logfile", str(log)],
        start_new_session=True,
    )  # fmt: skip
    wait_until(lambda: redis_answers(port), 10, "redis-server did not start")
    return server


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """``command`` run from the project in a session of its own (``stop`` ends it), its output
    appended to ``log``."""
    with log.open("ab") as out:
        return subprocess.Popen(
            command, cwd=REPO, env=env, start_new_session=True, stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip


def gunicorn_command(port: int, workers: int = 2, threads: int = 4) -> list[str]:
    return [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}",
            "-w", str(workers), "-k", "gthread", "--threads", str(threads),
            "--log-level", "warning"]  # fmt: skip


def worker_command(queues: list[str], concurrency: int = 2) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "INFO",
            "--queues", ",".join(queues), "--concurrency", str(concurrency),
            "--without-gossip", "--without-mingle"]  # fmt: skip


def beat_command(schedule: Path) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "INFO",
            "-s", str(schedule)]  # fmt: skip


def database_url() -> str:
    """The test database, for a process of its own."""
    db = connection.settings_dict
    return f"postgresql://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


def production_environment(database_url: str, redis_url: str) -> dict[str, str]:
    """The environment of a process on production settings over the given servers."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        # The tests' callers send far more than an app would; the limit has tests of its own.
        "API_RATE_LIMIT": "1000000",
    }


def nginx_command(
    workdir: Path, socket_path: str, port: int, live_socket_path: str | None = None
) -> list[str]:
    """nginx with deploy/nginx.conf on ``port`` in front of gunicorn's ``socket_path`` (and of
    the live streams' ASGI server on ``live_socket_path``, by default ``live.sock`` in
    ``workdir``), run in the foreground as the current user with its pid, logs and buffers under
    ``workdir`` (skips without nginx; fails under ``REQUIRE_SERVICES=1``)."""
    nginx = shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(path, os.X_OK)),
        None,
    )
    if nginx is None:
        service_absent("needs nginx (Debian: apt-get install nginx)")
    site = workdir / "rummyclub.conf"
    site.write_text(
        (REPO / "deploy" / "nginx.conf")
        .read_text()
        .replace("@LISTEN@", f"127.0.0.1:{port}")
        .replace("@LIVE_SOCKET@", live_socket_path or str(workdir / "live.sock"))
        .replace("@SOCKET@", socket_path)
        .replace("@STATIC_ROOT@", str(REPO / "staticfiles"))
    )
    # As root, nginx's workers would drop to `nobody`, who cannot reach the test's files.
    user = "user root root;\n" if os.geteuid() == 0 else ""
    temp_paths = "".join(
        f"    {kind}_temp_path {workdir}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = workdir / "nginx.conf"
    main.write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {workdir}/nginx.pid;\n"
        f"error_log {workdir}/error.log warn;\n"
        f"include {REPO / 'deploy' / 'nginx-main.conf'};\n"  # its connections, as deployed
        "http {\n"
        "    include /etc/nginx/mime.types;\n"
        f"    access_log {workdir}/access.log;\n{temp_paths}"
        f"    include {site};\n}}\n"
    )
    return [str(nginx), "-e", f"{workdir}/error.log", "-p", str(workdir), "-c", str(main)]


def wait_until(predicate: Callable[[], object], timeout: float, what: str) -> None:
    """Poll ``predicate`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"after {timeout:g} s: {what}")


def stop(process: subprocess.Popen) -> None:
    """End a process started in a session of its own (and its children): TERM, then KILL."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def end_other_connections() -> int:
    """End every other connection to the test database (a stack's pooled connections, as a
    failover or an operator would); returns how many."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def hold_inserts(table: str) -> psycopg.Connection:
    """A connection of the test's own holding ``table`` in SHARE mode: every insert into it
    waits (a request or a task stopped mid-write) until the returned connection's
    ``ROLLBACK``."""
    db = connection.settings_dict
    blocker = psycopg.connect(
        autocommit=True, dbname=db["NAME"], user=db["USER"], host=db["HOST"],
        port=db["PORT"] or 5432, password=db["PASSWORD"] or None,
    )  # fmt: skip
    blocker.execute("BEGIN")
    blocker.execute(f'LOCK TABLE "{table}" IN SHARE MODE')
    return blocker


def _waiting_inserts(table: str) -> str:
    return (
        "FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        f" AND query LIKE 'INSERT INTO \"{table}\"%%'"
    )


def inserts_waiting(table: str) -> int:
    """How many connections wait to insert into ``table`` (held by ``hold_inserts``)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) {_waiting_inserts(table)}")
        return int(cursor.fetchone()[0])


def end_waiting_inserts(table: str) -> int:
    """End the connections waiting to insert into ``table``, mid-transaction (as a failover or
    an operator would); returns how many."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(pg_terminate_backend(pid)) {_waiting_inserts(table)}")
        return int(cursor.fetchone()[0])


def static_collected(env: dict[str, str]) -> None:
    """``collectstatic`` into the repository's staticfiles, once a test run: it compresses every
    file (seconds of a loaded machine each time), and the test workers share the folder, so the
    first to come collects under a lock and the others find the run's mark."""
    root = REPO / "staticfiles"
    root.mkdir(exist_ok=True)
    mark = root / f".collected-{os.environ.get('PYTEST_XDIST_TESTRUNUID', os.getpid())}"
    with (root / ".collecting").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if mark.exists():
            return
        for old in root.glob(".collected-*"):
            old.unlink()
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=REPO, env=env, check=True, timeout=180,
        )  # fmt: skip
        mark.touch()
