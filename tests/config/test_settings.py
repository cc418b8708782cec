"""Settings come only from environment variables, strictly parsed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], "
    "'name': str(s.DATABASES['default']['NAME']), 'eager': s.CELERY_TASK_ALWAYS_EAGER, "
    "'broker': s.CELERY_BROKER_URL, 'cache': s.CACHES['default']['BACKEND'], 'debug': s.DEBUG}))"
)
OUR_VARS = {
    "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "DJANGO_SETTINGS_MODULE",
    "CELERY_TASK_ALWAYS_EAGER", "REQUIRE_SERVICES", "CSRF_TRUSTED_ORIGINS",
}  # fmt: skip


def run_python(code: str, settings_module: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in OUR_VARS}
    clean.update(env, DJANGO_SETTINGS_MODULE=settings_module)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def probe(settings_module: str = "config.settings.local", **env: str) -> dict:
    result = run_python(PROBE, settings_module, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_embedded_default_without_variables():
    found = probe()
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"] == str(REPO / "db.sqlite3")
    assert found["eager"] is True
    assert found["broker"] == "memory://localhost/"
    assert found["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert found["debug"] is False  # the site's own error pages, not Django's debug ones


def test_postgres_and_redis_with_variables():
    found = probe(
        DATABASE_URL="postgresql://rc:pw@db.example:5433/rummy", REDIS_URL="redis://cache:6379/2"
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["name"] == "rummy"
    assert found["eager"] is False
    assert found["broker"] == "redis://cache:6379/2"
    assert found["cache"] == "django.core.cache.backends.redis.RedisCache"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean"),
        ({"DATABASE_URL": "mysql://x/y"}, "scheme 'mysql' is not supported"),
        ({"REDIS_URL": "http://cache"}, "is not a redis:// URL"),
        ({"DB_CONN_MAX_AGE": "soon"}, "DB_CONN_MAX_AGE='soon' is not a whole number"),
        ({"ALLOWED_HOSTS": "a,,b"}, "has an empty item"),
    ],
    ids=["bool", "db-scheme", "redis-scheme", "int", "list"],
)
def test_bad_values_stop_with_the_variable_named(env, message):
    result = run_python(PROBE, "config.settings.local", **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_production_refuses_a_missing_secret_key():
    result = run_python(PROBE, "config.settings.production", ALLOWED_HOSTS="rummy.example")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_missing_allowed_hosts():
    result = run_python(PROBE, "config.settings.production", SECRET_KEY="k" * 30 + "abcdefghij" * 3)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set" in result.stderr


def test_production_passes_check_deploy_without_warnings():
    clean = {k: v for k, v in os.environ.items() if k not in OUR_VARS}
    clean.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY="a-long-production-secret-key-0123456789-abcdefghijklmnop-XYZ",
        ALLOWED_HOSTS="rummy.example",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_parallel_test_workers_each_take_their_own_redis_database():
    """``gw3`` of a run given Redis database 1 uses database 4; a process a test starts inherits
    the chosen URL and keeps it."""
    code = (
        "import django; django.setup(); from django.conf import settings; print(settings.REDIS_URL)"
    )
    given = {"REDIS_URL": "redis://127.0.0.1:6379/1", "TEST_REDIS_URL_CHOSEN_FOR": ""}
    worker = run_python(code, "config.settings.test", PYTEST_XDIST_WORKER="gw3", **given)
    assert worker.stdout.strip() == "redis://127.0.0.1:6379/4", worker.stderr
    alone = run_python(code, "config.settings.test", PYTEST_XDIST_WORKER="", **given)
    assert alone.stdout.strip() == "redis://127.0.0.1:6379/1", alone.stderr
    started = run_python(
        code, "config.settings.test", PYTEST_XDIST_WORKER="gw3",
        REDIS_URL="redis://127.0.0.1:6379/4", TEST_REDIS_URL_CHOSEN_FOR="gw3",
    )  # fmt: skip
    assert started.stdout.strip() == "redis://127.0.0.1:6379/4", started.stderr
