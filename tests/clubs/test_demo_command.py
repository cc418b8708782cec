"""``make run PORT=…`` prints the login URL of the port it serves on, not a fixed one."""

from __future__ import annotations

import io
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_on_another_port_prints_that_port(db):
    recipe = subprocess.run(
        ["make", "-n", "run", "PORT=8101", "HOST=127.0.0.1"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    [line] = [line for line in recipe.splitlines() if "load_demo" in line]
    arguments = shlex.split(line)
    out = io.StringIO()
    call_command(*arguments[arguments.index("load_demo") :], stdout=out)
    assert "Log in at http://127.0.0.1:8101/login/" in out.getvalue()
    assert ":8000" not in out.getvalue()
    assert "runserver 127.0.0.1:8101" in recipe
