"""A machine without Pango (the README's fresh machine before its apt-get) still serves the
site: only the reports are refused, with a 503 that says what to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# WeasyPrint as it fails to import where the system has no Pango.
NO_PANGO = "raise OSError(\"cannot load library 'libpango-1.0-0'\")\n"

PROBE = """
import django
django.setup()
from django.core.management import call_command
call_command("check")
from reports.render import ReportsUnavailable, pdf_of
try:
    pdf_of("reports/night.html", {}, zone="UTC")
except ReportsUnavailable as refused:
    print(refused.status, refused.code, refused.message)
"""


def test_the_site_starts_without_pango_and_its_reports_answer_503(tmp_path):
    (tmp_path / "weasyprint").mkdir()
    (tmp_path / "weasyprint" / "__init__.py").write_text(NO_PANGO)
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{tmp_path}:{REPO}",
             "DJANGO_SETTINGS_MODULE": "config.settings.local"},
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues" in run.stdout
    said = run.stdout.strip().splitlines()[-1]
    assert said.startswith("503 reports_unavailable the reports need Pango"), said
    assert "libpango-1.0-0" in said
