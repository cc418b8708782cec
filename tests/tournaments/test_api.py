"""A whole knock-out through the API alone, its tables settled by a real Celery worker on Redis
and PostgreSQL: create, enter, start, swap, release, play every table (a tie-breaker included),
and read the places and prizes, which agree with the ledger."""

from __future__ import annotations

import time
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import Player
from ledger.models import AccountKind, Posting
from scoring.models import RulePreset

C = "/api/v1/clubs/home"
T = f"{C}/tournaments"


def wait_for(read, predicate, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = read()
        if predicate(found):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting; last seen: {found}")
        time.sleep(0.1)


def play(
    client: APIClient, game: int, players: list[int], points: dict[int, int], close: bool = True
) -> None:
    """One deal: the seat without points wins, the others lose what ``points`` says; the
    worker validates it; then the organiser closes the table (``close``: a tie-breaker ends
    with its deal)."""
    lines = [
        {"player": p, "outcome": "loser", "points": points[p]}
        if p in points
        else {"player": p, "outcome": "winner"}
        for p in players
    ]
    answer = client.post(f"{C}/games/{game}/deals/", {"results": lines}, format="json")
    assert answer.status_code == 202, answer.content
    url = answer.json()["url"]
    wait_for(lambda: client.get(url).json()["status"], lambda s: s == "accepted")
    if not close:
        return
    closed = client.post(f"{C}/games/{game}/finish/", {"end": "by_organiser"}, format="json")
    assert closed.status_code == 200, closed.content


@pytest.mark.usefixtures("postgres_tx")
def test_a_knockout_runs_through_the_api_with_a_worker(standing, celery_worker):
    client = standing.client("organiser")
    entrants = [Player.objects.create(club=standing.club, name=f"Cup {n}").pk for n in range(8)]
    made = client.post(f"{T}/", {
        "name": "Winter cup", "preset": RulePreset.objects.get(club=None, key="points").pk,
        "table_max": 4, "advance_per_table": 2, "entry_fee_minor": 500, "club_fee_minor": 50,
        "payout": "seventy_thirty", "seed": 11,
    }, format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    # Seven pay at the desk as they are entered; the eighth is marked paid afterwards.
    for player in entrants[:-1]:
        added = client.post(f"{T}/{tid}/entries/", {"player": player, "paid": True}, format="json")
        assert added.status_code == 201, added.content
        assert added.json()["fee_status"] == "paid" and added.json()["paid_at"]
    added = client.post(f"{T}/{tid}/entries/", {"player": entrants[-1]}, format="json")
    assert added.status_code == 201 and added.json()["fee_status"] == "due", added.content
    assert client.get(f"{T}/{tid}/").json()["prize_pool_minor"] == 7 * (500 - 50)
    paid = client.post(f"{T}/{tid}/entries/{added.json()['id']}/paid/", format="json")
    assert paid.status_code == 200 and paid.json()["fee_status"] == "paid", paid.content
    twice = client.post(f"{T}/{tid}/entries/", {"player": entrants[0]}, format="json")
    assert twice.status_code in (400, 409) and "error" in twice.json()

    first = client.post(f"{T}/{tid}/start/", {}, format="json")
    assert first.status_code == 200, first.content
    tables = first.json()["tables"]
    assert first.json()["status"] == "draft" and sorted(len(t["players"]) for t in tables) == [4, 4]
    a, b = tables[0]["players"][0], tables[1]["players"][0]
    swapped = client.post(f"{T}/{tid}/rounds/1/swap/", {"first": a, "second": b}, format="json")
    assert swapped.status_code == 200, swapped.content
    assert b in swapped.json()["tables"][0]["players"]
    released = client.post(f"{T}/{tid}/rounds/1/release/", {}, format="json")
    assert released.status_code == 200 and released.json()["status"] == "released"

    # Table 1 plays plainly; table 2 leaves its second and third level: a tie-breaker decides.
    round_one = released.json()["tables"]
    assert all(t["table"] is None for t in tables)  # drawn: no table yet
    # Each released table names the night's table its game is at, for its table links.
    for table in round_one:
        game = client.get(f"/api/v1/clubs/home/games/{table['game']}/").json()
        assert table["table"] == game["table"]
    seats = {t["game"]: t["players"] for t in round_one}
    first_game, second_game = (t["game"] for t in round_one)
    one = seats[first_game]
    play(client, first_game, one, {one[1]: 10, one[2]: 20, one[3]: 30})
    two = seats[second_game]
    play(client, second_game, two, {two[1]: 25, two[2]: 25, two[3]: 40})

    def detail() -> dict[str, Any]:
        return client.get(f"{T}/{tid}/").json()

    tied = wait_for(detail, lambda d: any(t["tiebreaker_game"] for t in d["rounds"][0]["tables"]))
    table = next(t for t in tied["rounds"][0]["tables"] if t["tiebreaker_game"])
    assert sorted(table["tiebreaker"]) == sorted([two[1], two[2]])
    assert len(tied["rounds"]) == 1  # the round waits for its tie-breaker
    # Its one deal ends the tie-breaker: no one closes it.
    play(client, table["tiebreaker_game"], [two[1], two[2]], {two[1]: 5}, close=False)
    refused = client.post(f"{C}/games/{table['tiebreaker_game']}/finish/", {}, format="json")
    assert refused.status_code == 409, refused.content

    drawn = wait_for(detail, lambda d: len(d["rounds"]) == 2)
    assert sorted(drawn["rounds"][0]["advanced"]) == sorted([one[0], one[1], two[0], two[2]])
    assert drawn["rounds"][1]["stage"] == "final"
    final = client.post(f"{T}/{tid}/rounds/2/release/", {}, format="json").json()["tables"][0]
    order = final["players"]
    play(client, final["game"], order, {order[1]: 5, order[2]: 15, order[3]: 25})

    done = wait_for(detail, lambda d: d["status"] == "finished")
    places = {p["player"]: (p["place"], p["prize_minor"]) for p in done["places"]}
    pool = 8 * (500 - 50)
    assert done["prize_pool_minor"] == pool
    assert places[order[0]] == (1, pool * 70 // 100)
    assert places[order[1]] == (2, pool - pool * 70 // 100)
    assert sorted(place for place, _ in places.values()) == [1, 2, 3, 4, 5, 5, 7, 7]
    # The same prizes in the ledger: what each entrant got from the purse, less the fee.
    purse = done["tournament"]["purse"]
    for player, (_place, prize) in places.items():
        net = sum(
            Posting.objects.filter(
                book_id=purse, account=AccountKind.PLAYER, player_id=player
            ).values_list("amount", flat=True)
        )
        assert net == prize - 500
    listed = client.get(f"{T}/?status=finished").json()["results"]
    assert [t["id"] for t in listed] == [tid]


def test_ids_past_64_bits_are_refused_by_name(standing):
    client = standing.client("organiser")
    answer = client.post(f"{T}/", {"name": "Cup", "preset": 2**63}, format="json")
    assert answer.status_code == 400 and "preset" in answer.json()["error"]["details"]


@pytest.mark.parametrize("payout", [-155859926366980, 70, True, {"first": 100}, None])
def test_a_payout_that_is_no_structure_or_list_is_refused_naming_it(standing, payout):
    """A number or an object where a structure's name or a list of percentages belongs was a
    server error (found by the schema's fuzzing)."""
    answer = standing.client("organiser").post(f"{T}/", {
        "name": "Cup", "preset": RulePreset.objects.get(club=None, key="points").pk,
        "entry_fee_minor": 35, "payout": payout,
    }, format="json")  # fmt: skip
    assert answer.status_code == 400, answer.content
    assert "payout" in answer.json()["error"]["details"] or "payout" in str(answer.json())
