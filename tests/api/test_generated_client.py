"""A score app's first step: a client generated from the served schema with openapi-python-client's
default settings builds with no error and no warning, and imports."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.generated_client import generate_client

pytestmark = pytest.mark.slow


def test_the_default_generator_builds_a_client_with_no_warning(db, tmp_path):
    client, said = generate_client(tmp_path)
    assert "warning" not in said.lower() and "error" not in said.lower(), said
    imported = subprocess.run(
        [sys.executable, "-c",
         "from rummyclub_api_client import AuthenticatedClient\n"
         "from rummyclub_api_client.api.clubs import clubs_list, deals_create\n"
         "from rummyclub_api_client.api.rules import rules_evaluate\n"
         "print(AuthenticatedClient.__name__)"],
        cwd=client, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert imported.returncode == 0 and imported.stdout.strip() == "AuthenticatedClient", (
        imported.stderr
    )
