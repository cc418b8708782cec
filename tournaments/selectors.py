"""Reads of tournaments, scoped to a club: the list, one tournament, and its whole state (rounds
with their tables and who must play a tie-breaker, places and prizes) in a fixed number of
queries whatever its size."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from clubs.models import Club
from config.errors import InvalidInput, NotFoundError
from rules.prizes import prize_pool_of
from scoring.formats.reads import player_paid_in
from scoring.models import Game, Quantity
from tournaments.models import Entry, Round, RoundTable, Tournament


def tournament_list(*, club: Club, status: str | None = None) -> QuerySet[Tournament]:
    found = club.tournaments.select_related("preset").order_by("-created_at", "-id")
    if status:
        if status not in Tournament.Status.values:
            raise InvalidInput(
                f"status: use {', '.join(Tournament.Status.values)}, not {status!r}",
                code="bad_status",
            )
        found = found.filter(status=status)
    return found


def tournament_get(*, club: Club, tournament_id: int) -> Tournament:
    found = (
        club.tournaments.select_related("preset", "final_preset", "session", "purse")
        .filter(pk=tournament_id)
        .first()
    )
    if found is None:
        raise NotFoundError(f"no tournament #{tournament_id} in {club.name}")
    return found


@dataclass
class TableView:
    number: int
    game: int | None
    players: list[int]
    status: str  # "draft", "playing", "tiebreaker", "settled"
    tiebreaker: list[int]
    tiebreaker_game: int | None = None


@dataclass
class RoundView:
    number: int
    stage: str
    status: str
    cost: dict[str, Any]
    advanced: list[int]
    byes: list[int]
    tables: list[TableView] = field(default_factory=list)


@dataclass
class TournamentView:
    tournament: Tournament
    entries: list[Entry]
    prize_pool_minor: int
    rounds: list[RoundView]
    places: list[Entry]


def tournament_view(*, tournament: Tournament) -> TournamentView:
    """The whole tournament as the API and the pages show it; player ids throughout."""
    entries = list(tournament.entries.select_related("player").order_by("seed", "id"))
    player_of = {entry.pk: entry.player_id for entry in entries}
    assert tournament.purse is not None
    paid = sum(1 for amount in player_paid_in(tournament.purse, Quantity.MONEY).values() if amount)
    pool = prize_pool_of(paid, tournament.entry_fee_minor, tournament.club_fee_minor)
    tables_by_round: dict[int, list[RoundTable]] = {}
    for table in RoundTable.objects.filter(round__tournament=tournament).select_related(
        "game", "tiebreaker"
    ):
        tables_by_round.setdefault(table.round_id, []).append(table)
    rounds = []
    for played in tournament.round_set.order_by("number"):
        view = RoundView(
            played.number, played.stage, played.status, played.cost,
            [player_of[e] for e in played.advanced if e in player_of],
            [player_of[e] for e in played.draw.get("byes", []) if e in player_of],
        )  # fmt: skip
        if played.status == Round.Status.DRAFT:
            for number, table in enumerate(played.draw.get("tables", []), start=1):
                seated = [player_of[e] for e in table if e in player_of]
                view.tables.append(TableView(number, None, seated, "draft", []))
        for table in sorted(tables_by_round.get(played.pk, []), key=lambda t: t.number):
            seated = [player_of[e] for e in played.draw["tables"][table.number - 1]]
            tied = [player_of[e] for e in table.outcome.get("tied", []) if e in player_of]
            if tied:
                status = "tiebreaker"
            elif "advancing" in table.outcome:
                status = "settled"
            else:
                status = "playing" if table.game.status == Game.Status.OPEN else "finished"
            view.tables.append(
                TableView(table.number, table.game_id, seated, status, tied, table.tiebreaker_id)
            )
        rounds.append(view)
    places = sorted((e for e in entries if e.place), key=lambda e: (e.place, e.seed or 0))
    return TournamentView(tournament, entries, pool, rounds, places)
