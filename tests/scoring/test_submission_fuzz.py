"""Whatever a score app posts as a deal's result, the answer is an accepted submission or a 4xx in
the one error shape, never a 500, and a refused request stores nothing. Each example starts from a
valid result for the game and replaces one to three places in it with values a score app might
send by mistake (cards, outcomes, seat ids in the wrong place) or with any JSON at all."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import TestCase
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring.models import Deal, Game, Submission
from tests.conftest import Standing
from tests.scoring.helpers import new_game

WINNER = [["2S", "3S", "4S", "5S"], ["6D", "7D", "8D"], ["9C", "10C", "JC"], ["KH", "KC", "KD"]]
LOSER = ["2H", "3H", "4H", "7C", "8C", "QS", "QS", "AH", "AD", "5D", "9H", "10H", "JH"]
ROYAL = [f"R{n}" for n in range(1, 14)] + ["R1"]
FOUR = ["Asha", "Bilal", "Chitra", "Dev"]

ANY_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
TOKENS = st.sampled_from(
    ["2S", "10H", "QD", "JK", "AH", "1S", "11H", "QX", "10", "♠5", "5♥", "jk", "",
     "R5", "K13", "B1", "O7", "JK=R7", "R14", "X5", "JK=JK"]
)  # fmt: skip
OUTCOMES = st.sampled_from(
    ["winner", "loser", "first_drop", "middle_drop", "missed_turns", "wrong_show", "late_declare",
     "valid_not_declared", "deal_show", "no_winner", "Winner", "open", "foot", "closed"]
)  # fmt: skip


def _indian_body(ids: dict[str, int]) -> dict[str, Any]:
    lines: list[dict[str, Any]] = [
        {"player": ids["Asha"], "outcome": "winner", "groups": WINNER},
        {"player": ids["Bilal"], "outcome": "loser", "cards": LOSER},
        {"player": ids["Chitra"], "outcome": "loser", "points": 40},
        {"player": ids["Dev"], "outcome": "first_drop"},
    ]
    return {"wild": "QD", "results": lines}


def _international_body(ids: dict[str, int]) -> dict[str, Any]:
    return {
        "racks": {str(ids["Asha"]): [], str(ids["Bilal"]): ["R5", "JK"], str(ids["Chitra"]): []},
        "winner": ids["Asha"],
        "win": "closed",
        "melded": {str(ids["Bilal"]): True, str(ids["Chitra"]): False},
        "closed_hand": ROYAL,
        "final_discard_joker": False,
    }


GAMES = {
    # preset, players, a valid result
    "points": ("points", FOUR, _indian_body),
    "pool": ("pool-101", FOUR, _indian_body),
    "international": ("international", ["Asha", "Bilal", "Chitra"], _international_body),
}


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value that a mutation can replace."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    value = copy.deepcopy(value)
    target = value
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return value


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_mangled_result_is_accepted_or_refused_cleanly(standing: Standing, kind: str):
    preset, names, make_body = GAMES[kind]
    game, ids = new_game(standing, preset, names, point_value_minor=100)
    seats = st.sampled_from([*ids.values(), 0, -1, 10**9])
    mistakes = st.one_of(
        TOKENS, OUTCOMES, seats, st.integers(-5, 200), st.lists(TOKENS, max_size=15)
    )
    client = standing.client("scorer")
    games = [game]

    @settings(
        max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(data=st.data())
    def check(data: Any) -> None:
        body = make_body(ids)
        for _ in range(data.draw(st.integers(min_value=1, max_value=3), label="mutations")):
            path = data.draw(st.sampled_from(_paths(body)), label="path")
            body = _replace(body, path, data.draw(st.one_of(mistakes, mistakes, ANY_JSON)))
        game = games[-1]
        counts = Deal.objects.count(), Submission.objects.count()
        with TestCase.captureOnCommitCallbacks(execute=True):
            response = client.post(
                f"/api/v1/clubs/home/games/{game.pk}/deals/", body, format="json"
            )
        assert response.status_code in (201, 202, 400, 409, 422), (response.status_code, body)
        event(f"answer {response.status_code}")
        if response.status_code >= 400:
            error = response.json()["error"]
            assert error["code"] and error["message"], body
            assert (Deal.objects.count(), Submission.objects.count()) == counts
        elif response.status_code == 202:
            event(f"validated: {Submission.objects.latest('pk').status}")
        game.refresh_from_db()
        if game.status != Game.Status.OPEN or game.deals.exclude(status=Deal.Status.FINAL):
            # The game ended, or waits for a deal to be counted: go on with a new one.
            games.append(new_game(standing, preset, names, point_value_minor=100)[0])

    check()
