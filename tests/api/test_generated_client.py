"""A score app's first step: a client generated from the served schema with openapi-python-client's
default settings builds with no error and no warning, imports, and reads the service's answers
as typed models (a submission's result as its format's class)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.test import TestCase

from tests.api.test_typed_results import LOSER_CARDS, WILD, WINNER_GROUPS
from tests.generated_client import generate_client
from tests.scoring.helpers import new_game

pytestmark = pytest.mark.slow


def _recorded(standing, preset: str, payload: dict) -> dict:
    """A deal entered through the API as an app would, and its submission and game state as
    answered."""
    game, ids = new_game(standing, preset, ["Asha", "Bilal"])
    client = standing.client("scorer")
    with TestCase.captureOnCommitCallbacks(execute=True):
        accepted = client.post(
            f"/api/v1/clubs/home/games/{game.pk}/deals/", payload(ids), format="json"
        )
    submission = client.get(f"/api/v1/clubs/home/submissions/{accepted.json()['id']}/")
    state = client.get(f"/api/v1/clubs/home/games/{game.pk}/state/")
    return {"submission": submission.json(), "state": state.json()}


def _points_deal(ids: dict) -> dict:
    return {"wild": WILD, "results": [
        {"player": ids["Asha"], "outcome": "winner", "groups": WINNER_GROUPS},
        {"player": ids["Bilal"], "outcome": "loser", "cards": LOSER_CARDS[0].split()},
    ]}  # fmt: skip


def _sabra_game(ids: dict) -> dict:
    return {"racks": {str(ids["Asha"]): [], str(ids["Bilal"]): ["R5", "JK"]}, "winner": ids["Asha"]}


# The generated models read the answers: the unions of the formats' components come back as the
# format's own class, their enums as enums.
_READ = """
import json
from rummyclub_api_client.models import (
    IndianOutcomeEnum, PointsResultOutput, PointsStateOutput, RummikubResultOutput,
    RummikubStateOutput, SubmissionOutput,
)
import httpx
from rummyclub_api_client import Client
from rummyclub_api_client.api.games import games_state

recorded = json.load(open("recorded.json"))
points = SubmissionOutput.from_dict(recorded["points"]["submission"])
assert isinstance(points.result, PointsResultOutput), type(points.result)
assert points.result.players[0].outcome is IndianOutcomeEnum.WINNER
assert points.result.players[0].hand.groups[0].kind.value == "pure_sequence"
sabra = SubmissionOutput.from_dict(recorded["sabra"]["submission"])
assert isinstance(sabra.result, RummikubResultOutput), type(sabra.result)
assert sabra.result.variant.value == "sabra" and sabra.result.players[1].points == -35
for name, kind in (("points", PointsStateOutput), ("sabra", RummikubStateOutput)):
    answer = httpx.Response(200, json=recorded[name]["state"])
    state = games_state._parse_response(client=Client(base_url="http://x"), response=answer)
    assert isinstance(state, kind), type(state)
print("typed")
"""


def test_the_default_generator_builds_a_client_with_no_warning(standing, tmp_path):
    client, said = generate_client(tmp_path)
    assert "warning" not in said.lower() and "error" not in said.lower(), said
    imported = subprocess.run(
        [sys.executable, "-c",
         "from rummyclub_api_client import AuthenticatedClient\n"
         "from rummyclub_api_client.api.clubs import clubs_list\n"
         "from rummyclub_api_client.api.deals import deals_create\n"
         "from rummyclub_api_client.api.rules import rules_evaluate\n"
         "print(AuthenticatedClient.__name__)"],
        cwd=client, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert imported.returncode == 0 and imported.stdout.strip() == "AuthenticatedClient", (
        imported.stderr
    )
    recorded = {
        "points": _recorded(standing, "points", _points_deal),
        "sabra": _recorded(standing, "sabra", _sabra_game),
    }
    (client / "recorded.json").write_text(json.dumps(recorded))
    read = subprocess.run(
        [sys.executable, "-c", _READ], cwd=client, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert read.returncode == 0 and read.stdout.strip() == "typed", read.stderr
