"""One schema whatever the database: the schema made on the embedded SQLite is the one made on
PostgreSQL (a model's integer field has its column's range on both)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.live import database_url

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.postgres]


def _schema(where: Path, database: str | None) -> dict:
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL"}}  # fmt: skip
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
    if database:
        env["DATABASE_URL"] = database
    out = where / ("postgresql.json" if database else "sqlite.json")
    run = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--format", "openapi-json", "--file",
         str(out)], cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return json.loads(out.read_text())


def test_the_schema_is_the_same_on_sqlite_and_postgresql(postgres, tmp_path):
    on_sqlite = _schema(tmp_path, None)
    on_postgresql = _schema(tmp_path, database_url())
    assert on_sqlite == on_postgresql
    # A column's range, as PostgreSQL keeps it: a small positive integer, not 64 bits.
    attempt = on_sqlite["components"]["schemas"]["AttemptOutput"]["properties"]["status_code"]
    assert (attempt["minimum"], attempt["maximum"]) == (0, 32767)
