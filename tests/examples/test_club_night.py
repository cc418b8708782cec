"""examples/club_night.py runs as a score app built on a generated client would: in its own
process, with a client generated from the served schema by openapi-python-client's defaults,
signed in with OAuth2 (PKCE), against a live server with a real Celery worker. A night of four
formats and 30 deals (a correction, a void), then a knock-out of eight, all through the client;
what it read back is checked against the ledger here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db.models import Sum
from oauth2_provider.models import Application

from ledger.models import Posting
from scoring.models import Deal, Session, Submission
from tests.generated_client import generate_client
from tournaments.models import Tournament

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("committing_db")]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
REDIRECT = "http://127.0.0.1:8765/callback"


def test_a_night_and_a_knockout_run_through_the_generated_client(
    live_server: Any, standing: Any, celery_worker: Any, tmp_path: Path
):
    client, _ = generate_client(tmp_path)
    standing.organiser.set_password("a long enough password 1")
    standing.organiser.save()
    app = Application.objects.create(
        name="Club night app", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT, algorithm="",
    )  # fmt: skip
    path = os.pathsep.join([str(client), str(EXAMPLES)])
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "club_night.py"), "--base", live_server.url,
         "--client-id", app.client_id, "--redirect-uri", REDIRECT, "--username", "org",
         "--password", "a long enough password 1", "--club", "home"],
        capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": path},
    )  # fmt: skip
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert f"scope 'read score manage', clubs [{standing.club.pk}]" in said
    assert "30 deals in the night" in said
    assert "knock-out finished" in said

    night = Session.objects.get(club=standing.club, name="Friday night")
    assert night.status == Session.Status.CLOSED
    deals = Deal.objects.filter(game__table__session=night)
    assert deals.count() == 30
    submissions = Submission.objects.filter(deal__game__table__session=night)
    assert submissions.filter(status=Submission.Status.VOIDED).count() == 1
    assert submissions.filter(status=Submission.Status.SUPERSEDED).count() == 1
    assert submissions.filter(status=Submission.Status.ACCEPTED).count() == 29
    # Every ledger entry of the night sums to zero in each quantity (the pot a party).
    sums = (
        Posting.objects.filter(book__game__table__session=night)
        .values("entry", "quantity")
        .annotate(total=Sum("amount"))
    )
    assert sums and {row["total"] for row in sums} == {0}
    cup = Tournament.objects.get(club=standing.club, name="Winter cup")
    assert cup.status == Tournament.Status.FINISHED
