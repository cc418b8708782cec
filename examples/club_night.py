"""A club night and a knock-out, end to end, through a client generated from the served schema:
what a score app built on `openapi-python-client` does. It signs in with OAuth2 (authorization
code with PKCE, ``pkce.py``), then, as the organiser's app:

- a night of four formats and 30 deals: a points table (a deal corrected, one voided), a
  pool 101 game to its end, a best-of-two deals game and a Sabra Rummikub match; the night
  closed and its settle-up read;
- a knock-out of eight: entries, the draw, every table, the final, the places and prizes.

Generate the client first, then run this with it on the path::

    curl -s http://127.0.0.1:8000/api/schema/?format=json > schema.json
    openapi-python-client generate --path schema.json --output-path client
    PYTHONPATH=client python examples/club_night.py --base http://127.0.0.1:8000 \\
        --client-id <id> --redirect-uri http://127.0.0.1:8765/callback \\
        --username organiser --password <password> --club demo

The app is registered as in docs/api.md (public, authorization code). The account must be an
organiser of the club: the app asks for ``read score manage``. It prints what it did, line by
line, and exits 0 when every figure it read back adds up."""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from pkce import SignInRefused, sign_in
from rummyclub_api_client import AuthenticatedClient
from rummyclub_api_client.api.deals import (
    deals_create,
    deals_void,
    submissions_create,
    submissions_retrieve,
)
from rummyclub_api_client.api.games import games_create, games_finish, games_state
from rummyclub_api_client.api.nights import (
    sessions_close,
    sessions_create,
    sessions_scoreboard,
    sessions_settlement,
    tables_create,
)
from rummyclub_api_client.api.players import players_create
from rummyclub_api_client.api.presets import presets_list
from rummyclub_api_client.api.tournaments import (
    tournaments_create,
    tournaments_entries_create,
    tournaments_retrieve,
    tournaments_rounds_release,
    tournaments_start,
)
from rummyclub_api_client.models.deal_create_input_request import DealCreateInputRequest
from rummyclub_api_client.models.entry_input_request import EntryInputRequest
from rummyclub_api_client.models.game_create_input_request import GameCreateInputRequest
from rummyclub_api_client.models.game_end_input_request import GameEndInputRequest
from rummyclub_api_client.models.player_create_input_request import PlayerCreateInputRequest
from rummyclub_api_client.models.session_create_input_request import SessionCreateInputRequest
from rummyclub_api_client.models.submission_input_request import SubmissionInputRequest
from rummyclub_api_client.models.table_create_input_request import TableCreateInputRequest
from rummyclub_api_client.models.tournament_create_input_request import (
    TournamentCreateInputRequest,
)

WAIT_SECONDS = 60


class Refused(Exception):
    """The API answered something the app did not expect; the message has the answer."""


class ClubApi:
    """The generated operations of one club, called with the app's token: each call checks the
    answer's status and returns the typed answer the client parsed."""

    def __init__(self, client: AuthenticatedClient, club: str) -> None:
        self.client = client
        self.club = club

    def call(self, operation: ModuleType, *path: Any, expect: int = 200, **kwargs: Any) -> Any:
        answer = operation.sync_detailed(self.club, *path, client=self.client, **kwargs)
        if answer.status_code != expect:
            name = operation.__name__.rsplit(".", 1)[-1]
            said = answer.content.decode(errors="replace")[:800]
            raise Refused(f"{name}{list(path)}: {int(answer.status_code)} {said}")
        return answer.parsed

    def wait(self, read: Callable[[], Any], done: Callable[[Any], bool], what: str) -> Any:
        """Poll ``read`` until ``done`` says so: results are validated in the background."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            seen = read()
            if done(seen):
                return seen
            if time.monotonic() > deadline:
                raise Refused(f"gave up waiting for {what}")
            time.sleep(0.2)


def key() -> str:
    """An Idempotency-Key: a retried write after a lost answer is then done once."""
    return secrets.token_hex(16)


class Night:
    def __init__(self, api: ClubApi, presets: dict[str, int], players: list[int]) -> None:
        self.api = api
        self.presets = presets
        self.players = players
        self.deals = 0

    def game(
        self, table: int, preset: str, seated: list[int], point_value_minor: int = 0,
        entry_fee_minor: int = 0,
    ) -> int:  # fmt: skip
        body = GameCreateInputRequest.from_dict({
            "preset": self.presets[preset], "players": seated,
            "point_value_minor": point_value_minor, "entry_fee_minor": entry_fee_minor,
        })  # fmt: skip
        made = self.api.call(games_create, table, body=body, idempotency_key=key(), expect=201)
        return int(made.id)

    def deal(self, game: int, result: dict[str, Any]) -> tuple[int, str]:
        """A deal and its result in one call; waits until it is validated. Its deal id and
        submission status."""
        body = DealCreateInputRequest.from_dict(result)
        taken = self.api.call(deals_create, game, body=body, idempotency_key=key(), expect=202)
        self.deals += 1
        return int(taken.deal), self.settled(int(taken.id))

    def settled(self, submission: int) -> str:
        validated = self.api.wait(
            lambda: self.api.call(submissions_retrieve, submission),
            lambda s: str(s.status) != "pending",
            f"submission {submission}",
        )
        return str(validated.status)


def indian(winner: int, losers: dict[int, int]) -> dict[str, Any]:
    """An Indian rummy result entered without cards: the winner, and each loser's count."""
    lines = [{"player": winner, "outcome": "winner"}]
    lines += [{"player": p, "outcome": "loser", "against": n} for p, n in losers.items()]
    return {"results": lines}


def run_night(api: ClubApi, presets: dict[str, int], players: list[int]) -> None:
    night = Night(api, presets, players)
    session = api.call(
        sessions_create, body=SessionCreateInputRequest.from_dict({"name": "Friday night"}),
        idempotency_key=key(), expect=201,
    )  # fmt: skip
    tables = [
        int(api.call(tables_create, session.id, body=TableCreateInputRequest.from_dict({}),
                     idempotency_key=key(), expect=201).id)
        for _ in range(4)
    ]  # fmt: skip
    print(f"night {session.id}: {len(tables)} tables")

    # Points rummy, four players, 16 deals at 0.50 a point: deal 3 corrected, deal 5 voided.
    a, b, c, d = players[:4]
    points = night.game(tables[0], "points", [a, b, c, d], point_value_minor=50)
    dealt: list[int] = []
    for n in range(16):
        seats = [a, b, c, d]
        winner = seats[n % 4]
        losers = {p: 5 + (7 * n + 3 * i) % 75 for i, p in enumerate(seats) if p != winner}
        deal, status = night.deal(points, indian(winner, losers))
        if status != "accepted":
            raise Refused(f"points deal {n + 1} was {status}")
        dealt.append(deal)
    corrected = api.call(
        submissions_create, dealt[2],
        body=SubmissionInputRequest.from_dict(indian(c, {a: 12, b: 30, d: 2})),
        idempotency_key=key(), expect=202,
    )  # fmt: skip
    if night.settled(int(corrected.id)) != "accepted":
        raise Refused("the correction of deal 3 was not accepted")
    voided = api.call(deals_void, dealt[4], idempotency_key=key())
    print(f"points table: 16 deals, deal 3 corrected (version {corrected.version}), "
          f"deal {voided.number} voided")  # fmt: skip

    # Pool 101, three players at 5.00 each, to its end: the second and third go over 101.
    e, f, g = players[4:7]
    pool = night.game(tables[1], "pool-101", [e, f, g], entry_fee_minor=500)
    for winner, losers in ((e, {f: 80, g: 20}), (e, {f: 30, g: 40}), (e, {g: 50})):
        night.deal(pool, indian(winner, losers))
    state = api.call(games_state, pool)
    print(f"pool 101: {state.status}, {len(state.players)} players")
    if str(state.status) != "finished":
        raise Refused(f"the pool game is {state.status} after its last deal")

    # Deals, best of two, three players: chips change hands, the game ends by itself.
    deals = night.game(tables[2], "deals-2", [a, e, h := players[7]], entry_fee_minor=200)
    night.deal(deals, indian(a, {e: 20, h: 30}))
    night.deal(deals, indian(e, {a: 10, h: 25}))
    state = api.call(games_state, deals)
    print(f"deals of two: {state.status}")

    # Sabra Rummikub, four players, nine games; the organiser ends the match.
    sabra = night.game(tables[3], "sabra", [b, f, g, h], point_value_minor=10)
    racks = [["R5", "B7"], ["JK"], ["K13", "O1", "O2"], ["B10"]]
    for n in range(9):
        seats = [b, f, g, h]
        winner = seats[n % 4]
        held = {str(p): ([] if p == winner else racks[(i + n) % 4]) for i, p in enumerate(seats)}
        night.deal(sabra, {"racks": held, "winner": winner, "last_mover": winner})
    api.call(games_finish, sabra, body=GameEndInputRequest.from_dict({"end": "by_organiser"}),
             idempotency_key=key())  # fmt: skip
    print(f"sabra: 9 games, {night.deals} deals in the night")

    api.call(games_finish, points, body=GameEndInputRequest.from_dict({"end": "by_organiser"}),
             idempotency_key=key())  # fmt: skip
    api.call(sessions_close, session.id, idempotency_key=key())
    board = api.call(sessions_scoreboard, session.id)
    players_money = sum(int(line.money_minor) for line in board.lines)
    held = sum(int(pot.amount_minor) for pot in board.pots)
    settled = api.call(sessions_settlement, session.id)
    print(f"night closed: {len(settled.transfers)} transfers settle it; players "
          f"{players_money:+d}, club {board.club_money_minor:+d}, pots {held:+d}")  # fmt: skip
    # Money is zero-sum: what the players gave up, the club's fees and any pot still held.
    if players_money + int(board.club_money_minor) + held != 0:
        raise Refused("the night's money does not sum to zero")


def run_knockout(api: ClubApi, presets: dict[str, int], players: list[int]) -> None:
    made = api.call(
        tournaments_create,
        body=TournamentCreateInputRequest.from_dict({
            "name": "Winter cup", "preset": presets["points"], "table_max": 4,
            "advance_per_table": 2, "entry_fee_minor": 500, "club_fee_minor": 50,
            "payout": "seventy_thirty",
        }),
        idempotency_key=key(), expect=201,
    )  # fmt: skip
    cup = int(made.id)
    for player in players:
        api.call(tournaments_entries_create, cup, body=EntryInputRequest.from_dict(
            {"player": player, "paid": True}), idempotency_key=key(), expect=201)  # fmt: skip
    api.call(tournaments_start, cup, idempotency_key=key())
    tables = Night(api, presets, players)  # the tournament's tables are games like any other
    number = 1
    while True:
        released = api.call(tournaments_rounds_release, cup, number, idempotency_key=key())
        print(f"round {number}: {len(released.tables)} tables")
        for table in released.tables:
            seated = list(table.players)
            losers = {p: 10 * i for i, p in enumerate(seated) if i}  # no ties: no tie-breakers
            tables.deal(int(table.game), indian(seated[0], losers))
            api.call(games_finish, table.game, idempotency_key=key(),
                     body=GameEndInputRequest.from_dict({"end": "by_organiser"}))  # fmt: skip
        detail = api.wait(
            lambda: api.call(tournaments_retrieve, cup),
            lambda t, played=number: len(t.rounds) > played or str(t.status) == "finished",
            f"round {number} to end",
        )
        if str(detail.status) == "finished":
            break
        number += 1
    places = sorted((p.place, p.prize_minor) for p in detail.places)
    print(f"knock-out finished: prize pool {detail.prize_pool_minor}, "
          f"prizes {[prize for _, prize in places if prize]}")  # fmt: skip
    if sum(prize for _, prize in places) != detail.prize_pool_minor:
        raise Refused("the prizes do not add up to the prize pool")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    for name in ("base", "client-id", "redirect-uri", "username", "password", "club"):
        parser.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)
    base = args.base.rstrip("/")
    try:
        tokens = sign_in(
            base, client_id=args.client_id, redirect_uri=args.redirect_uri,
            username=args.username, password=args.password, club=args.club,
            scope="read score manage",
        )  # fmt: skip
    except SignInRefused as refused:
        sys.exit(str(refused))
    print(f"signed in: scope {tokens['scope']!r}, clubs {tokens['clubs']}")
    with AuthenticatedClient(base_url=base, token=tokens["access_token"], timeout=60) as client:
        api = ClubApi(client, args.club)
        presets = {p.key: int(p.id) for p in api.call(presets_list, limit=500).results}
        tag = secrets.token_hex(2)  # fresh names each run, so it can run again on one club
        players = [
            int(api.call(players_create, idempotency_key=key(), expect=201, body=(
                PlayerCreateInputRequest.from_dict({"name": f"{name} {tag}"}))).id)
            for name in ("Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid", "Gauri", "Hari")
        ]  # fmt: skip
        try:
            run_night(api, presets, players)
            run_knockout(api, presets, players)
        except Refused as refused:
            print(f"stopped: {refused}")
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
