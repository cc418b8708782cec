"""A loser's count as entered is ``against`` on the way in too: each endpoint that takes an Indian
rummy result reads ``against``, and ``points`` (its older name, deprecated) the same; both given
and different is a 400 naming ``results[i].against``; what is stored, and read back, says
``against``."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import TestCase
from rest_framework.test import APIClient

from scoring.formats.indian.forms import DealEntryForm
from scoring.models import Submission
from scoring.selectors import deal_outcomes
from tests.api.test_errors import assert_error
from tests.scoring.conftest import Night, make_night
from tests.scoring.helpers import enter_deal

ENDPOINTS = ["new deal", "submission", "table link"]
COUNTS = {"Asha": 10, "Bilal": 20, "Chitra": 30}


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()


def _lines(night: Night, name: str = "against", **extra: dict[str, Any]) -> list[dict]:
    """The six lines of a deal: three losers counted with ``name``, two drops, the winner."""
    counted = {who: {"outcome": "loser", name: count} for who, count in COUNTS.items()}
    lines = {
        **counted, "Dev": {"outcome": "first_drop"}, "Esther": {"outcome": "middle_drop"},
        "Farid": {"outcome": "winner"},
    }  # fmt: skip
    for who, more in extra.items():
        lines[who] = {**lines[who], **more}
    return night.results(**lines)


def _enter(night: Night, endpoint: str, results: list[dict]):
    """The result through one endpoint, as an app sends it; its validation runs on commit."""
    standing = night.standing
    body: dict[str, Any] = {"wild": "QH", "results": results}
    with TestCase.captureOnCommitCallbacks(execute=True):
        if endpoint == "new deal":
            return standing.client("scorer").post(
                f"/api/v1/clubs/home/games/{night.game.pk}/deals/", body, format="json"
            )
        if endpoint == "submission":
            client = standing.client("scorer")
            deal = client.post(
                f"/api/v1/clubs/home/games/{night.game.pk}/deals/", {}, format="json"
            )
            assert deal.status_code == 201, deal.content
            return client.post(
                f"/api/v1/clubs/home/deals/{deal.json()['id']}/submissions/", body, format="json"
            )
    link = standing.client("scorer").post(
        f"/api/v1/clubs/home/tables/{night.game.table_id}/links/", {"mode": "trusted"},
        format="json",
    )  # fmt: skip
    assert link.status_code == 201, link.content
    with TestCase.captureOnCommitCallbacks(execute=True):
        return APIClient().post(
            f"/api/v1/table/{link.json()['token']}/deals/", {"seat": 1, **body}, format="json"
        )


def _read_back(night: Night, answer) -> dict:
    assert answer.status_code == 202, answer.content
    url = f"/api/v1/clubs/home/submissions/{answer.json()['id']}/"
    submission = night.standing.client("player").get(url)
    assert submission.status_code == 200
    return submission.json()


def _entered(submission: dict) -> dict[int, dict]:
    return {line["player"]: line for line in submission["payload"]["results"]}


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("spelling", ["against", "points", "both"])
def test_each_spelling_is_read_and_stored_as_against(standing, endpoint, spelling):
    night = make_night(standing)
    if spelling == "both":  # both given, and equal: one count
        results = _lines(night, "against", **{w: {"points": c} for w, c in COUNTS.items()})
    else:
        results = _lines(night, spelling)
    submission = _read_back(night, _enter(night, endpoint, results))
    assert submission["status"] == "accepted", submission["reasons"]
    entered = _entered(submission)
    for who, count in COUNTS.items():
        line = entered[night.pid(who)]
        assert line["against"] == count and "points" not in line
    counted = {line["name"]: line for line in submission["result"]["players"]}
    assert {who: counted[who]["against"] for who in COUNTS} == COUNTS
    assert {who: counted[who]["points"] for who in COUNTS} == {w: -c for w, c in COUNTS.items()}
    stored = Submission.objects.get(pk=submission["id"]).payload
    assert all("points" not in line for line in stored["results"])


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_against_and_points_that_differ_are_400_naming_against(standing, endpoint):
    night = make_night(standing)
    results = _lines(night, "against", Bilal={"points": 25})  # Bilal's line is the second
    error = assert_error(_enter(night, endpoint, results), 400, "invalid")
    [message] = error["details"]["results"]["1"]["against"]
    assert "against is 20 and points 25" in message
    assert error["message"] == f"results: 1: against: {message}"
    assert not Submission.objects.exists()


def test_the_schema_shows_against_and_marks_points_deprecated(standing):
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    components = schema["components"]["schemas"]
    # The input of a result, and the typed payload answered back, are built from the same fields.
    for name in ("ResultLineInputRequest", "ResultLineInput"):
        fields = components[name]["properties"]
        assert fields["against"]["type"] == "integer" and "deprecated" not in fields["against"]
        assert fields["points"]["deprecated"] is True, name
        assert "against" in fields["points"]["description"]


def test_a_line_stored_with_points_before_is_still_counted_and_corrected_from(standing):
    """Stored payloads never change: one entered as ``points`` before counts as it did, and a
    correction's form starts from its count."""
    night = make_night(standing)
    old = {"wild": "QH", "results": _lines(night, "points")}
    _, submission = enter_deal(night.game, standing.scorer, old)
    assert submission is not None
    submission.refresh_from_db()
    assert submission.status == "accepted", submission.reasons
    counted = {line["name"]: line["against"] for line in submission.result["players"]}
    assert {who: counted[who] for who in COUNTS} == COUNTS
    initial = DealEntryForm.initial_from(submission.payload)
    assert {who: initial[f"p{night.pid(who)}-points"] for who in COUNTS} == COUNTS


def test_the_entry_form_enters_against(standing):
    night = make_night(standing)
    seats = [(night.pid(who), who) for who in night.players]
    data = {f"p{night.pid(who)}-outcome": "loser" for who in night.players}
    data |= {f"p{night.pid('Farid')}-outcome": "winner", f"p{night.pid('Asha')}-points": "23"}
    form = DealEntryForm(data, seats=seats, outcomes=deal_outcomes(game=night.game))
    assert form.is_valid(), form.errors
    [asha] = [line for line in form.payload()["results"] if line["player"] == night.pid("Asha")]
    assert asha == {"player": night.pid("Asha"), "outcome": "loser", "against": 23}
    initial = DealEntryForm.initial_from(form.payload())
    assert initial[f"p{night.pid('Asha')}-points"] == 23
