"""The client a score app generates from the served schema with openapi-python-client's default
settings, for the tests that check it builds and that the examples run through it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rest_framework.test import APIClient

GENERATOR = Path(sys.executable).with_name("openapi-python-client")


def generate_client(where: Path) -> tuple[Path, str]:
    """Generate the client into ``where``/client from the schema as served; return the folder
    that holds the package and everything the generator said."""
    schema = APIClient().get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200, schema.content
    (where / "schema.json").write_bytes(schema.content)
    # The generator formats what it writes with ruff, found on the PATH beside it.
    path = f"{GENERATOR.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    run = subprocess.run(
        [str(GENERATOR), "generate", "--path", "schema.json", "--output-path", "client"],
        cwd=where, capture_output=True, text=True, timeout=300, env={**os.environ, "PATH": path},
    )  # fmt: skip
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    return where / "client", said
