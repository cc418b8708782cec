"""What the server answers is what the served schema says: a deal of every format, counted and
refused, read back through the API and validated against the schema's components (each format's
result, payload and state, told apart by ``format``); every reason names its player and seat and
the card or tile at fault."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from django.test import TestCase
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

from tests.scoring.helpers import new_game
from tests.tournaments.helpers import enter, new_tournament, roster
from tournaments.figures import prize_pool_minor

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]
WILD = "9D"
#: A valid declaration (pure sequence, a second sequence, a set) and three losers' hands.
WINNER_GROUPS = [
    ["2H", "3H", "4H"], ["5C", "6C", "7C", "8C"], ["JS", "QS", "KS"], ["7D", "7S", "7H"],
]  # fmt: skip
LOSER_CARDS = [
    "AH KH 5S 6S 8S 2D 3D 4D 10C JC QC KC AC",
    "2S 3S 4S AD 5D 6D 8D 10D JD QD KD 2C 3C",
    "5H 6H 8H 10H JH QH 9S 10S AS 4C 9C 10H 8H",
]


@cache
def _served() -> dict[str, Any]:
    return _json_schema(APIClient().get("/api/schema/", {"format": "json"}).json())


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` as JSON Schema says it (a null besides the schema)."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _json_schema(value) for key, value in node.items()}
    if converted.pop("nullable", False):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def assert_valid(component: str, answer: Any) -> None:
    root = copy.copy(_served())
    validator = Draft202012Validator({**root, "$ref": f"#/components/schemas/{component}"})
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(answer)]
    assert not errors, errors


def _indian_deal(ids: dict[str, int], winner: str) -> dict[str, Any]:
    losers = [name for name in ids if name != winner]
    lines = [{"player": ids[winner], "outcome": "winner", "groups": WINNER_GROUPS}]
    lines += [
        {"player": ids[name], "outcome": "loser", "cards": cards.split()}
        for name, cards in zip(losers, LOSER_CARDS, strict=False)
    ]
    return {"wild": WILD, "results": lines}


def _submission(standing, submission_id: int) -> dict[str, Any]:
    response = standing.client("player").get(f"/api/v1/clubs/home/submissions/{submission_id}/")
    assert response.status_code == 200
    assert_valid("SubmissionOutput", response.json())
    return response.json()


def _checked(
    standing, game, payload: dict[str, Any], expect: str, *, deal: int | None = None
) -> dict[str, Any]:
    """Enter ``payload`` as the game's next deal (or a new version of ``deal``) through the API,
    and read the version back."""
    url = f"/api/v1/clubs/home/games/{game.pk}/deals/"
    if deal is not None:
        url = f"/api/v1/clubs/home/deals/{deal}/submissions/"
    with TestCase.captureOnCommitCallbacks(execute=True):
        answer = standing.client("scorer").post(url, payload, format="json")
    assert answer.status_code == 202, answer.json()
    body = _submission(standing, answer.json()["id"])
    assert body["status"] == expect, body["reasons"]
    listed = standing.client("player").get(f"/api/v1/clubs/home/deals/{body['deal']}/submissions/")
    assert_valid("SubmissionPage", listed.json())
    return body


def _state(standing, game) -> dict[str, Any]:
    response = standing.client("player").get(f"/api/v1/clubs/home/games/{game.pk}/state/")
    assert response.status_code == 200
    assert_valid("GameState", response.json())
    return response.json()


@pytest.mark.parametrize(
    ("preset", "fee", "rate"), [("points", 0, 5), ("pool-101", 500, 0), ("deals-2", 200, 0)]
)
def test_an_indian_deal_answers_its_formats_components(standing, preset, fee, rate):
    game, ids = new_game(standing, preset, FOUR, entry_fee_minor=fee, point_value_minor=rate)
    counted = _checked(standing, game, _indian_deal(ids, "Asha"), "accepted")
    assert counted["format"] == counted["result"]["format"] == counted["payload"]["format"]
    assert counted["result"]["format"] == game.format
    lines = {line["name"]: line for line in counted["result"]["players"]}
    assert lines["Asha"]["outcome"] == "winner" and lines["Asha"]["hand"]["valid"]
    assert {group["kind"] for group in lines["Asha"]["hand"]["groups"]} >= {"pure_sequence"}
    assert lines["Bilal"]["basis"] == "arranged" and lines["Bilal"]["against"] > 0
    # Points as the ledger moved them: what the loser gave up, or none in deals (chips move).
    moved = lines["Bilal"]["chips"] if game.format == "deals" else lines["Bilal"]["points"]
    assert moved < 0 and (game.format != "deals" or lines["Bilal"]["points"] == 0)

    refused = copy.deepcopy(_indian_deal(ids, "Bilal"))
    refused["results"][0]["groups"][1][2] = "7X"  # Bilal's second group, its third card
    rejected = _checked(standing, game, refused, "rejected")
    assert rejected["result"] is None and rejected["payload"]["format"] == game.format
    [reason] = rejected["reasons"]
    assert reason["code"] == "bad_card" and reason["token"] == "7X"
    assert (reason["player"], reason["player_name"], reason["seat"]) == (ids["Bilal"], "Bilal", 2)
    assert reason["details"]["group"] == 1 and reason["details"]["position"] == 2

    state = _state(standing, game)
    assert state["format"] == game.format and len(state["players"]) == 4
    history = standing.client("player").get(f"/api/v1/clubs/home/players/{ids['Asha']}/history/")
    assert_valid("PlayerHistoryOutput", history.json())
    assert {line["outcome"] for line in history.json()["results"]} >= {"winner"}


def _racks(ids: dict[str, int], winner: str | None, **racks: list[str]) -> dict[str, Any]:
    return {"racks": {str(ids[name]): tiles for name, tiles in racks.items()}, "winner": (
        ids[winner] if winner else None
    )}  # fmt: skip


@pytest.mark.parametrize("preset", ["sabra", "american", "international"])
def test_a_rummikub_game_answers_its_components_and_names_the_rack(standing, preset):
    game, ids = new_game(standing, preset, ["Asha", "Bilal", "Chitra"])
    extra: dict[str, Any] = {}
    if preset == "international":
        extra = {"win": "open", "melded": {str(ids["Bilal"]): True, str(ids["Chitra"]): True}}
    payload = {**_racks(ids, "Asha", Asha=[], Bilal=["R5", "JK"], Chitra=["B9"]), **extra}
    counted = _checked(standing, game, payload, "accepted")
    assert counted["result"]["format"] == "rummikub" and counted["result"]["variant"] == preset
    assert [line["outcome"] for line in counted["result"]["players"]] == [
        "winner", "loser", "loser",
    ]  # fmt: skip
    if preset == "international":
        assert counted["result"]["win"] == "open"

    bad = {**_racks(ids, "Asha", Asha=[], Bilal=["R5"], Chitra=["B9", "Q77"]), **extra}
    rejected = _checked(standing, game, bad, "rejected")
    [reason] = rejected["reasons"]
    assert reason["code"] == "bad_tile" and reason["token"] == "Q77"
    assert (reason["player"], reason["seat"]) == (ids["Chitra"], 3)
    assert reason["details"]["position"] == 1

    again = rejected["deal"]
    copies = _racks(ids, "Asha", Asha=[], Bilal=["R5", "R5"], Chitra=["R5"])
    [reason] = _checked(standing, game, {**copies, **extra}, "rejected", deal=again)["reasons"]
    assert reason["code"] == "too_many_copies" and reason["player"] == ids["Chitra"]
    assert reason["token"] == "R5" and reason["details"]["count"] == 3

    stranger = {**_racks(ids, "Asha", Asha=[], Bilal=["R5"]), **extra}
    stranger["racks"]["999999"] = ["B9"]
    [reason] = _checked(standing, game, stranger, "rejected", deal=again)["reasons"]
    assert reason["code"] == "not_seated" and reason["player"] == 999999

    state = _state(standing, game)
    assert state["format"] == "rummikub" and state["variant"] == preset


def test_the_evaluate_endpoints_answers_and_errors_match_the_schema(db):
    client = APIClient()
    hand = {"id": 7, "game": "indian", "wild": WILD, "outcome": "loser",
            "cards": LOSER_CARDS[0].split()}  # fmt: skip
    answer = client.post("/api/v1/rules/evaluate/", hand, format="json")
    assert answer.status_code == 200 and answer.json()["points"] > 0
    bad = {**hand, "cards": ["7X", *hand["cards"][1:]]}
    refused = client.post("/api/v1/rules/evaluate/", bad, format="json")
    assert refused.status_code == 400
    assert_valid("EvaluateErrorOutput", refused.json())
    [reason] = refused.json()["error"]["details"]["reasons"]
    assert reason["token"] == "7X" and reason["player"] is None
    batch = client.post("/api/v1/rules/evaluate/", [hand, bad], format="json").json()
    assert batch[1]["error"] == reason


def test_a_tournaments_purse_is_held_on_its_nights_scoreboard(standing):
    """A tournament's purse is a book of its night, not a game: the night's scoreboard shows
    what it holds as a pot of its own (its book, no game, no format), and each entrant's fee in
    their money."""
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000, club_fee_minor=100)
    players = roster(standing, 4)
    enter(standing, cup, players)
    response = standing.client("player").get(
        f"/api/v1/clubs/home/sessions/{cup.session_id}/scoreboard/"
    )
    assert response.status_code == 200, response.content
    board = response.json()
    assert_valid("ScoreboardOutput", board)
    # It holds every fee until the prizes are paid (the club's cut is taken then).
    assert board["pots"] == [
        {"book": cup.purse_id, "game": None, "table": "Purse", "game_format": "",
         "amount_minor": 4 * 1000}
    ]  # fmt: skip
    assert {line["player"]: line["money_minor"] for line in board["lines"]} == {
        p.pk: -1000 for p in players
    }
    assert prize_pool_minor(tournament=cup) == 4 * 900
