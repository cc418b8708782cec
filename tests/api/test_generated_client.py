"""A score app's first step: a client generated from the served schema with openapi-python-client's
default settings builds with no error and no warning, and imports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

GENERATOR = Path(sys.executable).with_name("openapi-python-client")

pytestmark = pytest.mark.slow


def test_the_default_generator_builds_a_client_with_no_warning(db, tmp_path):
    schema = APIClient().get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200
    (tmp_path / "schema.json").write_bytes(schema.content)
    # The generator formats what it writes with ruff, found on the PATH beside it.
    path = f"{GENERATOR.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    run = subprocess.run(
        [str(GENERATOR), "generate", "--path", "schema.json", "--output-path", "client"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env={**os.environ, "PATH": path},
    )  # fmt: skip
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert "warning" not in said.lower() and "error" not in said.lower(), said
    imported = subprocess.run(
        [sys.executable, "-c",
         "from rummyclub_api_client import AuthenticatedClient\n"
         "from rummyclub_api_client.api.clubs import clubs_list, deals_create\n"
         "from rummyclub_api_client.api.rules import rules_evaluate\n"
         "print(AuthenticatedClient.__name__)"],
        cwd=tmp_path / "client", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert imported.returncode == 0 and imported.stdout.strip() == "AuthenticatedClient", (
        imported.stderr
    )
