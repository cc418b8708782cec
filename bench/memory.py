"""Memory per process: ``python -m bench memory``.

Each process kind is loaded in a fresh interpreter on the production settings (PostgreSQL
``BENCH_MEMORY_DATABASE_URL``, Redis ``BENCH_MEMORY_REDIS_URL``, database 2 by default) and its
resident set size and module count printed, the median of three runs:

1. web, started: the WSGI application and the URL configuration loaded (every view imported),
   as a gunicorn worker is before its first request;
2. web, serving: then ``GET /health/`` answered (database and Redis) and a broker connection
   opened for writing, as a worker that has published a task;
3. worker: the Celery worker built (``app.Worker``, tasks imported, ``worker_init`` sent) but not
   started, as each worker process is before its first task.

``BENCH_MEMORY_SOURCE`` names another checkout to load instead (the code before a change), so the
same probes compare two versions on one machine."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PROBE = """
import sys
kind = sys.argv[1]
if kind.startswith("web"):
    from django.core.wsgi import get_wsgi_application
    from django.urls import get_resolver

    application = get_wsgi_application()
    get_resolver().url_patterns
    if kind == "web-serving":
        # Through the WSGI callable as gunicorn calls it: django.test's client would load
        # unittest, xml and jinja2, which no worker does.
        from wsgiref.util import setup_testing_defaults

        environ, answered = {"PATH_INFO": "/health/", "HTTP_HOST": "localhost"}, []
        setup_testing_defaults(environ)
        b"".join(application(environ, lambda status, headers: answered.append(status)))
        assert answered == ["200 OK"], answered
        from config.celery import app

        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1)
else:
    import warnings

    from config.celery import app

    warnings.simplefilter("ignore")
    app.loader.import_default_modules()
    app.Worker(pool_cls="solo", concurrency=1, quiet=True, loglevel="WARNING")
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
print(int(status["VmRSS"].split()[0]), len(sys.modules))
"""

KINDS = {
    "web, started": "web-started",
    "web, serving": "web-serving",
    "worker": "worker",
}


def run(quick: bool) -> None:
    source = Path(os.environ.get("BENCH_MEMORY_SOURCE", REPO)).resolve()
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DATABASE_URL=os.environ.get(
            "BENCH_MEMORY_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_bench"
        ),
        REDIS_URL=os.environ.get("BENCH_MEMORY_REDIS_URL", "redis://127.0.0.1:6379/2"),
        SECRET_KEY="bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        SECURE_SSL_REDIRECT="false",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(source),
    )
    print(f"   code: {source}")
    for label, kind in KINDS.items():
        sizes, modules = [], 0
        for _ in range(1 if quick else 3):
            out = subprocess.run(
                [sys.executable, "-c", PROBE, kind],
                cwd=source,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()
            sizes.append(int(out[-2]))
            modules = int(out[-1])
        print(f"   {label}: {statistics.median(sizes) / 1024:.1f} MB, {modules:,} modules")
