"""Playing a tournament through the services, as its tables would."""

from __future__ import annotations

import random
from typing import Any

from django.test import TestCase

from clubs.models import Player
from scoring.games import game_finish
from scoring.models import Game, RulePreset
from tests.conftest import Standing
from tests.scoring.helpers import enter_deal
from tournaments.models import Round, RoundTable, Tournament
from tournaments.services.draws import round_release
from tournaments.services.entries import entry_add
from tournaments.services.setup import tournament_create, tournament_start


def roster(standing: Standing, count: int) -> list[Player]:
    return [
        Player.objects.get_or_create(club=standing.club, name=f"Entrant {n:03d}")[0]
        for n in range(1, count + 1)
    ]


def new_tournament(standing: Standing, **options: Any) -> Tournament:
    params: dict[str, Any] = {
        "name": "Spring knock-out",
        "preset": RulePreset.objects.get(club=None, key="points"),
        "table_max": 6,
        "advance_per_table": 2,
        "seed": 7,
    }
    params.update(options)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return tournament_create(club=standing.club, actor=standing.organiser, **params)


def enter(
    standing: Standing, tournament: Tournament, players: list[Player], paid: bool = True
) -> None:
    """Enter the players at the desk, their fees paid there (``paid``)."""
    for player in players:
        entry_add(tournament=tournament, actor=standing.organiser, player=player, paid=paid)


def play_table(standing: Standing, game: Game, points: dict[int, int]) -> None:
    """One deal at the table, each loser counting ``points[player]`` (the winner the one with
    none given, or the first), then the table closed (a tie-breaker ends by itself with its
    deal); its end is announced (run on commit)."""
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    winner = next((p for p in seats if p not in points), seats[0])
    lines = [
        {"player": p, "outcome": "winner"}
        if p == winner
        else {"player": p, "outcome": "loser", "points": points.get(p, 10)}
        for p in seats
    ]
    with TestCase.captureOnCommitCallbacks(execute=True):
        enter_deal(game, standing.scorer, {"results": lines})
    game.refresh_from_db()
    if game.status == Game.Status.OPEN:
        with TestCase.captureOnCommitCallbacks(execute=True):
            game_finish(game=game, actor=standing.organiser)


def play_round(
    standing: Standing, tournament: Tournament, rng: random.Random, ties: bool = False
) -> Round:
    """Release the current draft and play every table (and any tie-breaker) to the end."""
    current = tournament.round_set.order_by("-number").first()
    assert current is not None
    if current.status == Round.Status.DRAFT:
        with TestCase.captureOnCommitCallbacks(execute=True):
            current = round_release(
                tournament=tournament, actor=standing.organiser, number=current.number
            )
    for _ in range(20):  # tables, then tie-breakers as they come
        pending = [
            game
            for table in RoundTable.objects.filter(round=current)
            for game in (table.game, table.tiebreaker)
            if game is not None and game.status == Game.Status.OPEN
        ]
        if not pending:
            break
        for game in pending:
            seats = list(game.seats.values_list("player_id", flat=True))
            if ties:
                points = {p: rng.choice([10, 20]) for p in seats[1:]}
            else:
                points = {p: rng.randint(1, 80) for p in seats[1:]}
            play_table(standing, game, points)
    current.refresh_from_db()
    return current


def finished_knockout(standing: Standing, seed: int = 2, **options: Any) -> Tournament:
    """A knock-out of eight at tables of four, played through to its end."""
    cup = new_tournament(standing, table_max=4, **options)
    enter(standing, cup, roster(standing, 8))
    tournament_start(tournament=cup, actor=standing.organiser)
    rng = random.Random(seed)
    for _ in range(5):
        cup.refresh_from_db()
        if cup.status != Tournament.Status.RUNNING:
            break
        play_round(standing, cup, rng)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    return cup
