"""For tests that start the service as it runs in production (gunicorn, Celery) and talk to it
over a real socket."""

from __future__ import annotations

import http.client
import os
import socket

from django.db import connection

SECRET_KEY = "test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers_200(port: int, path: str) -> bool:
    """Whether a GET of ``path`` on the local ``port`` answers 200 (False while not up)."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except OSError:
        return False


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
    }
