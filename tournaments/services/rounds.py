"""A round complete: those out placed, the next round drawn (after the rounds before a cut, the
top by points), or after the final everyone placed through ``rules.knockout`` and the prizes
paid from the purse through ``rules.prizes``."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from rules import knockout, prizes
from scoring.figures import players_net_points
from tournaments.figures import entries_counted, prize_pool_minor
from tournaments.models import Entry, Round, RoundTable, Tournament
from tournaments.purse import purse_pay_prizes
from tournaments.services.common import E, audit, event
from tournaments.services.draws import draw_round, stage_for


def round_complete(tournament: Tournament, played: Round) -> None:
    tables = list(played.tables.all())
    advancing = [e for t in tables for e in t.outcome["advancing"]] + played.draw.get("byes", [])
    played.advanced = advancing
    played.status = Round.Status.COMPLETE
    played.save(update_fields=["advanced", "status"])
    if played.stage == Round.Stage.FINAL:
        _finish(tournament, played)
        return
    out = {int(k): v for t in tables for k, v in t.outcome["out"].items()}
    for entry in tournament.entries.filter(pk__in=out, status=E.ACTIVE):
        entry.status = E.ELIMINATED
        entry.out_in_round = played.number
        entry.table_place = out[entry.pk]
        entry.save(update_fields=["status", "out_in_round", "table_place"])
    survivors = list(
        tournament.entries.filter(pk__in=advancing, status=E.ACTIVE).order_by("seed", "id")
    )
    if tournament.kind == Tournament.Kind.ROUNDS:
        survivors = _after_rounds(tournament, played, survivors)
    number = played.number + 1
    draw_round(tournament, number, stage_for(tournament, len(survivors), number),
          [e.pk for e in survivors])  # fmt: skip
    audit(tournament, None, "round_complete", round=played.number, advanced=len(survivors))


def _after_rounds(tournament: Tournament, played: Round, survivors: list[Entry]) -> list[Entry]:
    """Rounds kind: after the last round before the cut, the top ``cut`` by their points over
    those rounds go on (seeded by them); after a semi-final, the top ``table_max`` by their
    semi-final points. The rest are out, placed by those points (ties share a place)."""
    if played.stage == Round.Stage.SEMIFINAL:
        points = _points_in(tournament.round_set.filter(pk=played.pk))
        keep = tournament.table_max
    elif played.number < tournament.rounds:
        return survivors
    else:
        points = _points_in(tournament.round_set.filter(stage=Round.Stage.ROUND))
        keep = tournament.cut or tournament.table_max
    ordered = sorted(survivors, key=lambda e: (-points.get(e.player_id, 0), e.seed or 0))
    place = keep + 1
    for index, entry in enumerate(ordered[keep:], start=keep + 1):
        if points.get(entry.player_id, 0) != points.get(ordered[index - 2].player_id, 0):
            place = index
        entry.status = E.ELIMINATED
        entry.out_in_round = played.number
        entry.table_place = place
        entry.save(update_fields=["status", "out_in_round", "table_place"])
    return ordered[:keep]


def _points_in(rounds: Any) -> dict[int, int]:
    """Each player's net points over the tables of ``rounds``, from the ledger (the session's
    other games, and those of a round unwound, do not count)."""
    games = RoundTable.objects.filter(round__in=rounds).values("game_id")
    return players_net_points(games=games)


def _finish(tournament: Tournament, final: Round) -> None:
    """The final's order and the rounds before it place everyone; prizes are paid."""
    (table,) = list(final.tables.all())
    final_ranks = {int(k): v for k, v in table.outcome["ranks"].items()}
    knocked: list[dict[int, int]] = []
    for past in tournament.round_set.exclude(pk=final.pk).order_by("number"):
        knocked.append(
            {
                pk: place
                for pk, place in tournament.entries.filter(out_in_round=past.number).values_list(
                    "pk", "table_place"
                )
                if place is not None  # whoever went out of a round has their table place
            }
        )
    finish_placed(tournament, knockout.final_places(final_ranks, knocked))


def finish_placed(tournament: Tournament, places: dict[int, int]) -> None:
    """Everyone placed (entry id -> place): the places kept, the prizes paid from the purse,
    the tournament finished."""
    # The field the payout structure is scaled to: the entries that count (everyone placed
    # when entry is free).
    entrants = (
        entries_counted(tournament=tournament).count()
        if tournament.entry_fee_minor
        else len(places)
    )
    percentages = prizes.payout_percentages(tournament.payout, entrants)
    pool = prize_pool_minor(tournament=tournament)
    won = prizes.prizes(pool, percentages, places) if places else {}
    for entry in tournament.entries.filter(pk__in=places):
        entry.place = places[entry.pk]
        entry.save(update_fields=["place"])
    player_of = dict(tournament.entries.values_list("pk", "player_id"))
    shares = {player_of[e]: amount for e, amount in won.items() if amount}
    purse_pay_prizes(tournament=tournament, shares=shares)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    audit(tournament, None, "finish", places=len(places), prizes_minor=sum(won.values()))
    event(tournament, "tournament.finished", places=len(places), prizes_minor=sum(won.values()))
