"""examples/score_app.py runs as a score app would, in its own process against a live server:
it signs in with OAuth2 (PKCE, through the login and consent pages), enters a deal with plain
httpx, refreshes and signs out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from oauth2_provider.models import AccessToken, Application

from scoring.models import Submission
from tests.scoring.conftest import make_night

# The app's own process reads what this test commits (the built-in presets included).
pytestmark = pytest.mark.usefixtures("committing_db")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "score_app.py"
REDIRECT = "http://127.0.0.1:8765/callback"


def test_the_example_app_signs_in_enters_a_deal_and_signs_out(live_server: Any, standing: Any):
    night = make_night(standing)
    standing.scorer.set_password("a long enough password 1")
    standing.scorer.save()
    app = Application.objects.create(
        name="Example score app", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT, algorithm="",
    )  # fmt: skip
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--base", live_server.url, "--client-id", app.client_id,
         "--redirect-uri", REDIRECT, "--username", "scorer",
         "--password", "a long enough password 1", "--club", "home",
         "--game", str(night.game.pk)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"scope 'read score', clubs [{standing.club.pk}]" in run.stdout
    assert "signed out: the API now answers 401" in run.stdout
    (entered,) = Submission.objects.filter(deal__game=night.game)
    assert entered.status == Submission.Status.ACCEPTED
    assert entered.submitted_by == standing.scorer
    assert not AccessToken.objects.exists()
