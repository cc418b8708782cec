"""A night of every format played with a real receiver: each body it is sent validates against
the event's component in the served schema (OpenAPI 3.1 ``webhooks``), and each player's
``points`` (signed, as the ledger moves them) and ``against`` (the rules' count) agree in the
API's result, the webhook, the player's history, the CSV, the deal page and the ledger."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from typing import Any

import pytest
from django.test import Client, TestCase
from django.utils.html import escape
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012
from rest_framework.test import APIClient

from ledger.models import AccountKind, Posting
from scoring.models import Submission
from scoring.nights import session_close
from scoring.undo import deal_void
from tests.scoring.helpers import correct, enter_deal, new_game, play, results
from tests.scoring.test_ratings import close_table
from tests.webhooks.receiver import Receiver, wait_for
from webhooks.models import EVENTS
from webhooks.schema import component_name
from webhooks.services import endpoint_create

NAMES = ["Asha", "Bilal", "Chitra"]


@pytest.fixture
def receiver(standing):
    made = Receiver()
    endpoint = endpoint_create(
        club=standing.club, actor=standing.organiser, url=made.url, events=[*EVENTS]
    )
    made.secret = endpoint.secret
    yield made
    made.close()


def play_night(standing: Any) -> list[Any]:
    """Four formats, a drop, a correction, a rejection, a void; every game ended and its night
    closed. Returns the games."""
    points, ids = new_game(standing, "points", NAMES, point_value_minor=10)
    first = play(standing, points, results(ids, Asha="winner", Bilal=20, Chitra="first_drop"))
    correct(standing, first.deal, results(ids, Asha="winner", Bilal=25, Chitra=30))
    _, refused = enter_deal(points, standing.scorer, {"results": [{"player": ids["Asha"]}]})
    assert refused is not None
    with TestCase.captureOnCommitCallbacks(execute=True):
        deal_void(deal=refused.deal, actor=standing.organiser)
    play(standing, points, results(ids, Bilal="winner", Asha=80, Chitra=12))
    close_table(standing, points)
    pool, ids = new_game(standing, "pool-101", NAMES, entry_fee_minor=1000)
    play(standing, pool, results(ids, Asha="winner", Bilal=40, Chitra="middle_drop"))
    deals, ids = new_game(standing, "deals-2", NAMES)
    play(standing, deals, results(ids, Chitra="winner", Asha=80, Bilal=17))
    sabra, ids = new_game(standing, "sabra", NAMES, point_value_minor=5)
    racks = {str(ids["Asha"]): [], str(ids["Bilal"]): ["R5", "B7"], str(ids["Chitra"]): ["JK"]}
    play(standing, sabra, {"racks": racks, "winner": ids["Asha"]})
    close_table(standing, sabra)
    games = [points, pool, deals, sabra]
    for game in (points, sabra):
        with TestCase.captureOnCommitCallbacks(execute=True):
            session_close(session=game.table.session, actor=standing.organiser)
    return games


def test_every_body_a_night_sends_validates_against_its_schema(standing, receiver):
    play_night(standing)
    wait_for(lambda: "session.closed" in [r.event for r in receiver.received])
    with TestCase.captureOnCommitCallbacks(execute=True):
        ping = standing.client("organiser").post(
            f"/api/v1/clubs/home/webhooks/{receiver_endpoint(standing)}/test/"
        )
    assert ping.status_code == 202
    wait_for(lambda: "ping" in [r.event for r in receiver.received])
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    assert schema["openapi"].startswith("3.1")
    registry = Registry().with_resource("urn:schema", DRAFT202012.create_resource(schema))
    sent = defaultdict(int)
    for received in receiver.received:
        operation = schema["webhooks"][received.event]["post"]
        body_schema = operation["requestBody"]["content"]["application/json"]["schema"]
        assert body_schema["$ref"].endswith("/" + component_name(received.event))
        validator = Draft202012Validator(
            {"$ref": "urn:schema" + body_schema["$ref"]}, registry=registry
        )
        errors = [e.message for e in validator.iter_errors(received.json)]
        assert not errors, (received.event, received.json, errors)
        sent[received.event] += 1
    assert set(sent) >= {
        "deal.scored", "deal.corrected", "deal.rejected", "game.finished", "session.closed",
        "ping",
    }  # fmt: skip
    # A body that breaks its schema is caught: the check is not vacuous.
    scored = next(r.json for r in receiver.received if r.event == "deal.scored")
    scored["data"]["players"][0]["points"] = "23"
    validator = Draft202012Validator(
        {"$ref": "urn:schema#/components/schemas/DealScoredEvent"}, registry=registry
    )
    assert not validator.is_valid(scored)
    assert not validator.is_valid({**scored, "event": "deal.corrected"})


def receiver_endpoint(standing: Any) -> int:
    return standing.club.webhook_endpoints.get().pk


def test_points_and_against_agree_in_the_api_the_webhook_the_history_the_csv_and_the_page(
    standing, receiver
):
    games = play_night(standing)
    wait_for(lambda: "session.closed" in [r.event for r in receiver.received])
    api = standing.client("organiser")
    base = "/api/v1/clubs/home"
    # The last webhook of each counted version (a deal scored, then corrected).
    webhook: dict[int, dict[int, dict[str, Any]]] = {}
    for received in receiver.received:
        data = received.json["data"]
        if received.event in ("deal.scored", "deal.corrected") and "players" in data:
            webhook[data["submission"]] = {line["player"]: line for line in data["players"]}
    history: dict[tuple[int, int], dict[str, Any]] = {}
    for pid in {p for game in games for p in game.seats.values_list("player_id", flat=True)}:
        lines = api.get(f"{base}/players/{pid}/history/", {"limit": 500}).json()["results"]
        history |= {(pid, line["deal"]): line for line in lines if line["kind"] == "deal"}
    browser = Client()
    browser.force_login(standing.organiser)
    checked = 0
    for game in games:
        csv_rows = csv_deal_rows(browser, game.table.session_id)
        for submission in Submission.objects.filter(deal__game=game, status="accepted"):
            result = api.get(f"{base}/submissions/{submission.pk}/").json()["result"]
            page = browser.get(f"/clubs/home/deals/{submission.deal_id}/").content.decode()
            moved: dict[tuple[int, str], int] = defaultdict(int)
            for pid, quantity, amount in Posting.objects.filter(
                entry__submission=submission, entry__kind="deal", account=AccountKind.PLAYER
            ).values_list("player_id", "quantity", "amount"):
                moved[(pid, quantity)] += amount
            for line in result["players"]:
                pid = line["player"]
                sent = webhook[submission.pk][pid]
                kept = history[(pid, submission.deal_id)]
                row = csv_rows[(line["name"], submission.deal.number)]
                assert line["points"] == moved[(pid, "points")]
                assert sent["points"] == kept["points"] == line["points"]
                assert row["points"] == ("" if game.format == "deals" else str(line["points"]))
                if game.format == "deals":
                    assert line["chips"] == sent["chips"] == kept["chips"] == int(row["chips"])
                    assert line["chips"] == moved[(pid, "chips")]
                if game.format == "rummikub":
                    assert "against" not in line and "against" not in sent
                    assert kept["against"] is None and row["against"] == ""
                else:
                    assert line["against"] >= 0
                    assert sent["against"] == kept["against"] == line["against"]
                    assert row["against"] == str(line["against"])
                    # The page says it as the rules do: the count against the player, the
                    # name and the figure each isolated (a Hebrew page keeps their order).
                    name, against = escape(line["name"]), line["against"]
                    said = f'<bdi>{name}</bdi> <bdi class="ltr">{against}</bdi>'
                    assert said in page
                checked += 1
    assert checked == 3 * 5  # two points deals, a pool deal, a deals deal, a Rummikub game
    pool_loser = next(
        line
        for s in Submission.objects.filter(deal__game=games[1], status="accepted")
        for line in s.result["players"]
        if line["outcome"] == "loser"
    )
    assert (pool_loser["points"], pool_loser["against"]) == (-40, 40)


def csv_deal_rows(browser: Client, session_id: int) -> dict[tuple[str, int], dict[str, str]]:
    """The night's CSV ledger lines of deals, by player name and deal number."""
    text = browser.get(f"/clubs/home/sessions/{session_id}/export.csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    head = rows[1]
    found = {}
    for row in rows[2 : rows.index([])]:
        named = dict(zip(head, row, strict=True))
        what = named["what"]
        if what.startswith(("Deal ", "Game ")) and named["version"]:
            found[(named["player"], int(what.split()[1]))] = named
    return found
