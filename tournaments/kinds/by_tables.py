"""What the kinds that go on by their tables' places share (knock-out, rounds): a round complete
(those out of each table placed, the kind's cut, the next round drawn), and after the final
everyone placed through ``rules.knockout``."""

from __future__ import annotations

from typing import Protocol

from rules import knockout
from tournaments.changes import E, audit
from tournaments.kinds.places import finish_placed
from tournaments.kinds.seating import draw_round
from tournaments.models import Entry, Round, RoundTable, Tournament


class GoesOnByTables(Protocol):
    def stage_for(self, tournament: Tournament, players: int, number: int) -> str: ...

    def leaver_place(self, tournament: Tournament, number: int, at_table: int) -> int: ...

    def cut(self, tournament: Tournament, played: Round, survivors: list[Entry]) -> list[Entry]: ...


def round_complete(kind: GoesOnByTables, tournament: Tournament, played: Round) -> None:
    """Every table of ``played`` settled: who goes on kept, those out placed by their table, the
    kind's cut made among the survivors and the next round drawn; after the final, the end."""
    tables = list(played.tables.all())
    advancing = [e for t in tables for e in t.outcome["advancing"]] + played.draw.get("byes", [])
    played.advanced = advancing
    played.status = Round.Status.COMPLETE
    played.save(update_fields=["advanced", "status"])
    _place_leavers(kind, tournament, played)
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
    survivors = kind.cut(tournament, played, survivors)
    number = played.number + 1
    draw_round(tournament, number, kind.stage_for(tournament, len(survivors), number),
          [e.pk for e in survivors])  # fmt: skip
    audit(tournament, None, "round_complete", round=played.number, advanced=len(survivors))


def _place_leavers(kind: GoesOnByTables, tournament: Tournament, played: Round) -> None:
    """Who left after the start (their fee counts) and is not placed yet goes out of the last
    round they sat at a table in, by where they stood at it (a qualifier who left before the
    next round above those out of that round); one who never sat at a table, below everyone
    of the first round. A final's own players are placed by the final."""
    leavers = tournament.entries.filter(
        status__in=[E.WITHDRAWN, E.DISQUALIFIED], seed__isnull=False, out_in_round=None
    )
    if played.stage == Round.Stage.FINAL:
        leavers = leavers.exclude(pk__in=[e for t in played.draw["tables"] for e in t])
    if not leavers.exists():
        return
    stood: dict[int, tuple[int, int]] = {}  # entry -> (round, place at its table)
    tables = RoundTable.objects.filter(
        round__tournament=tournament, round__number__lte=played.number
    )
    for table in tables.select_related("round").order_by("round__number"):
        for entry, place in table.outcome.get("ranks", {}).items():
            stood[int(entry)] = (table.round.number, place)
    first = tournament.round_set.order_by("number").values_list("number", flat=True).first()
    for entry in leavers:
        number, at_table = stood.get(entry.pk, (first or played.number, 0))
        entry.out_in_round = number
        # Never seated: after every place at a table of that round.
        entry.table_place = (
            kind.leaver_place(tournament, number, at_table)
            if at_table
            else (tournament.entries.count() * 2 + 1)
        )
        entry.save(update_fields=["out_in_round", "table_place"])


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
