"""The demo club's tournaments: a finished knock-out of eighteen with a tie-breaker and prizes,
and a Rummikub rounds tournament in its second round."""

from __future__ import annotations

from typing import Any

from clubs.demo import DemoContext
from clubs.models import Player
from scoring.demo import count_now, tasks_in_process
from scoring.games import game_finish
from scoring.models import Game, RulePreset
from tournaments.models import Round, RoundTable, Tournament
from tournaments.services.draws import round_release
from tournaments.services.entries import entry_add
from tournaments.services.setup import tournament_create, tournament_start
from tournaments.services.tables import table_game_ended

GUESTS = ["Mira", "Nadia", "Omar", "Priya", "Quinn", "Ravi"]


def _close(game: Game, actor: Any) -> None:
    """Close a table (a tie-breaker has ended with its deal) and settle it now: the demo loads
    in one transaction, so the announcement sent on commit would come too late for the next
    round."""
    game.refresh_from_db()
    if game.status == Game.Status.OPEN:
        game_finish(game=game, actor=actor)
    table_game_ended(game_id=game.pk)


def _points_deal(game: Game, actor: Any, points: list[int | None]) -> None:
    """One deal of a points table: ``points`` by seat, ``None`` for the winner."""
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    lines = [
        {"player": p, "outcome": "winner"}
        if lost is None
        else {"player": p, "outcome": "loser", "against": lost}
        for p, lost in zip(seats, points, strict=True)
    ]
    count_now(game, actor, {"results": lines})


def _tables(tournament: Tournament, number: int) -> list[Game]:
    played = tournament.round_set.get(number=number)
    return [t.game for t in RoundTable.objects.filter(round=played).order_by("number") if t.game]


def _release(tournament: Tournament, actor: Any, number: int) -> list[Game]:
    round_release(tournament=tournament, actor=actor, number=number)
    return _tables(tournament, number)


def demo_knockout(context: DemoContext) -> Tournament:
    """Eighteen players at three tables of six, two of each table to a final of six; at the
    third table two players tie for the second place and play a tie-breaker."""
    club, organiser = context.club, context.organiser
    guests = [Player.objects.get_or_create(club=club, name=name)[0] for name in GUESTS]
    tournament = tournament_create(
        club=club, actor=organiser, name="Autumn knock-out",
        preset=RulePreset.objects.get(club=None, key="points"), table_max=6, advance_per_table=2,
        entry_fee_minor=2000, club_fee_minor=200, payout="seventy_thirty", seed=2026,
    )  # fmt: skip
    for player in context.players + guests:
        entry_add(tournament=tournament, actor=organiser, player=player, paid=True)
    tournament_start(tournament=tournament, actor=organiser)
    first, second, third = _release(tournament, organiser, 1)
    _points_deal(first, organiser, [None, 12, 30, 45, 60, 80])
    _points_deal(second, organiser, [25, None, 7, 33, 41, 52])
    _points_deal(third, organiser, [18, 18, None, 40, 55, 62])  # seats 1 and 2 level
    for game in (first, second, third):
        _close(game, organiser)
    tiebreak = RoundTable.objects.get(round__tournament=tournament, game=third).tiebreaker
    assert tiebreak is not None
    _points_deal(tiebreak, organiser, [None, 9])
    _close(tiebreak, organiser)
    (final,) = _release(tournament, organiser, 2)
    _points_deal(final, organiser, [14, 29, None, 40, 6, 51])
    _points_deal(final, organiser, [None, 22, 35, 12, 20, 44])
    _close(final, organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED, tournament.status
    return tournament


def _rummikub_deal(game: Game, actor: Any, racks: list[list[str]], winner: int) -> None:
    ids = [str(p) for p in game.seats.order_by("position").values_list("player_id", flat=True)]
    count_now(game, actor, {
        "racks": dict(zip(ids, racks, strict=True)), "winner": int(ids[winner]),
        "last_mover": int(ids[winner]),
    })  # fmt: skip


def demo_rummikub_rounds(context: DemoContext) -> Tournament:
    """Eight players, tables of four, two rounds redrawn against repeats, then the top four by
    their points to a final: round 1 played, round 2 being played."""
    club, organiser = context.club, context.organiser
    tournament = tournament_create(
        club=club, actor=organiser, name="Rummikub league night", kind="rounds",
        preset=RulePreset.objects.get(club=None, key="sabra"), table_max=4, rounds=2, cut=4,
        entry_fee_minor=500, payout="winner_takes_all", seed=11,
    )  # fmt: skip
    for player in context.players[:8]:
        entry_add(tournament=tournament, actor=organiser, player=player, paid=True)
    tournament_start(tournament=tournament, actor=organiser)
    racks = [
        [[], ["R5", "JK"], ["K13", "K12"], ["B1"]],
        [["O7", "O8"], [], ["R3"], ["B10", "K2"]],
    ]
    for game, rack, winner in zip(_release(tournament, organiser, 1), racks, (0, 1), strict=True):
        _rummikub_deal(game, organiser, rack, winner)
        _close(game, organiser)
    playing = _release(tournament, organiser, 2)
    _rummikub_deal(playing[0], organiser, [["R9"], [], ["B4", "B5"], ["K11", "JK"]], 1)
    tournament.refresh_from_db()
    assert tournament.round_set.get(number=2).status == Round.Status.RELEASED
    return tournament


def demo_tournaments(context: DemoContext) -> None:
    with tasks_in_process():
        demo_knockout(context)
        demo_rummikub_rounds(context)
