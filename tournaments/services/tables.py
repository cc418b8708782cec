"""A table's game ended: the table settled through ``rules.knockout`` (who goes on, who is out and
placed, as many going on as its kind lets), tie-breakers opened between the players level across
the cut, and, once every table of the round is settled, the round done as its kind does it. The
periodic catch-up of tables never settled."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from clubs.models import Player
from rules import knockout
from scoring import selectors as scoring_selectors
from scoring.formats import GameEnd, handler_for
from scoring.games import game_create
from scoring.lifecycle import game_end, game_finishing_order
from scoring.models import Game, RulePreset
from tournaments.changes import E, audit, lock
from tournaments.kinds import kind_for
from tournaments.models import Round, RoundTable, Tournament


def _tiebreak_preset(tournament: Tournament) -> RulePreset:
    """A tie-breaker is one deal (or game) of the table's family, between the tied players."""
    key = handler_for(tournament.preset.format).tiebreak_preset
    return RulePreset.objects.filter(club=None, key=key).order_by("-version").first()  # type: ignore[return-value]


@transaction.atomic
def table_game_ended(*, game_id: int) -> str:
    """A game of a tournament ended (a table's, or a tie-breaker's): settle the table, and when
    every table of the round is settled, complete the round: the next round drawn, or the
    tournament finished. Idempotent: a table already settled is left alone."""
    table = (
        RoundTable.objects.filter(game_id=game_id).first()
        or RoundTable.objects.filter(tiebreaker_id=game_id).first()
    )
    if table is None:
        return "not a tournament table"
    tournament = lock(table.round.tournament)
    table = (
        RoundTable.objects.select_for_update(of=("self",))
        .select_related("round", "game")
        .get(pk=table.pk)
    )
    played = table.round
    if played.status != Round.Status.RELEASED:
        return "round already complete"
    result = _settle_table(tournament, table)
    if result != "settled":
        return result
    if played.tables.exclude(outcome__has_key="advancing").exists() or any(
        t.outcome.get("tied") for t in played.tables.all()
    ):
        return "waiting for other tables"
    kind_for(tournament).round_done(tournament, played)
    return "round complete"


def _ranks_at(game: Game, entry_of: dict[int, int]) -> dict[int, int] | None:
    """A finished game's places by entry id, or ``None`` while it is open or had no result."""
    order = game_finishing_order(game=game)
    if order is None:
        return None
    return {entry_of[player]: place for player, place in order.items() if player in entry_of}


def _settle_table(tournament: Tournament, table: RoundTable) -> str:
    entry_of = dict(tournament.entries.values_list("player_id", "pk"))
    gone = set(
        tournament.entries.filter(status__in=[E.WITHDRAWN, E.DISQUALIFIED]).values_list(
            "pk", flat=True
        )
    )
    game = Game.objects.get(pk=table.game_id)
    ranks = _ranks_at(game, entry_of)
    if ranks is None:
        return "table still playing"
    # Who left the tournament cannot go on: the cut is made among those still in.
    staying = {entry: place for entry, place in ranks.items() if entry not in gone}
    advance = kind_for(tournament).advance_at(tournament, table.round, len(ranks))
    outcome = (
        knockout.table_outcome(staying, advance)
        if staying
        else knockout.TableOutcome((), {}, (), 0)
    )
    outcome.out.update({entry: ranks[entry] for entry in gone if entry in ranks})
    result = "settled"
    used: set[int] = set()
    while outcome.tied:  # a tie-breaker may tie again: then another, between those still level
        tiebreak = _tiebreaker_for(tournament, table, outcome.tied, used)
        used.add(tiebreak.pk)
        tied_ranks = _ranks_at(tiebreak, entry_of)
        if tied_ranks is None:
            result = "tie-breaker still playing"
            break
        outcome = knockout.after_tiebreaker(outcome, tied_ranks)
    table.outcome = {
        "ranks": {str(k): v for k, v in ranks.items()},  # the game's own order
        "advancing": list(outcome.advancing),
        "out": {str(k): v for k, v in outcome.out.items()},
        "tied": list(outcome.tied),
        "left": outcome.places_left,
    }
    table.save(update_fields=["outcome", "tiebreaker"])
    return result


def game_stop(game: Game, actor: AbstractBaseUser | None) -> None:
    """End a game the tournament no longer needs: abandoned (fees back) where its format allows,
    else closed with the deals it has (each already settled)."""
    allowed = {e.end for e in scoring_selectors.game_endings(game=game)}
    end = GameEnd.ABANDONED if GameEnd.ABANDONED in allowed else GameEnd.BY_ORGANISER
    game_end(game=game, actor=actor, end=end)


def _tiebreaker_for(
    tournament: Tournament, table: RoundTable, tied: Sequence[int], used: set[int]
) -> Game:
    """The tie-breaker game between the ``tied`` entries: the first one at the table between
    exactly them that this settling has not ``used`` yet, played or being played (a table
    settled again after a correction finds its own); else a new one is opened there. One still
    open between others (a correction changed who tied) is abandoned."""
    players = dict(tournament.entries.values_list("pk", "player"))
    wanted = {players[e] for e in tied}
    game = Game.objects.get(pk=table.game_id)
    chosen = None
    for other in Game.objects.filter(table=game.table).exclude(pk=game.pk).order_by("pk"):
        seated = set(other.seats.values_list("player_id", flat=True))
        if other.pk in used:
            continue
        if seated == wanted and other.end != GameEnd.ABANDONED:
            chosen = chosen or other
        elif other.status == Game.Status.OPEN:
            game_stop(other, None)
    if chosen is None:
        roster = {p.pk: p for p in Player.objects.filter(pk__in=wanted)}
        chosen = game_create(
            table=game.table, actor=tournament.created_by,  # type: ignore[arg-type]
            preset=_tiebreak_preset(tournament), players=[roster[players[e]] for e in tied],
            breaks_tie=True,
        )  # fmt: skip
        audit(tournament, None, "tiebreaker", table=table.pk, players=list(tied))
    table.tiebreaker = chosen
    return chosen


def tables_catch_up() -> list[int]:
    """Tables of released rounds whose game (or tie-breaker) has ended but which were never
    settled (the announcement lost with the broker, a worker gone): each is settled now. The
    periodic safety net of :func:`table_game_ended`, which is idempotent."""
    waiting = RoundTable.objects.filter(
        round__status=Round.Status.RELEASED, round__tournament__status=Tournament.Status.RUNNING
    ).select_related("game", "tiebreaker")
    caught = []
    for table in waiting:
        ended = table.game is not None and table.game.status == Game.Status.FINISHED
        unsettled = "advancing" not in table.outcome or bool(table.outcome.get("tied"))
        tiebreak_open = table.tiebreaker is not None and table.tiebreaker.status == Game.Status.OPEN
        if ended and unsettled and not tiebreak_open:
            table_game_ended(game_id=table.game_id)
            caught.append(table.pk)
    return caught
