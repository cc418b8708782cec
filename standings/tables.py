"""The live tables: a page of a scope's ranked kept rows (``StandingRow``, updated with the
ledger by ``scoring.standing_rows``), so a page costs the same whatever the history; and a
player looking for their row."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import (
    F,
)

from clubs.models import Club, Player
from scoring.models import StandingRow
from scoring.standing_rows import TOTAL_FIELDS
from standings.metrics import METRICS, Metric, order_for, rank_key
from standings.scopes import (
    ScopeFacts,
    ranked_before,
    rating_of,
    scope_facts,
    sql_key,
    table_family,
)


@dataclass
class StandingLine:
    rank: int
    player_id: int
    name: str
    totals: dict[str, int]
    metrics: dict[str, int | Decimal] = field(default_factory=dict)
    #: Points per game format, when the table mixes formats whose points are different units.
    points_by_format: dict[str, int] = field(default_factory=dict)


@dataclass
class StandingsTable:
    scope: str
    scope_id: int
    metrics: list[Metric]
    lines: list[StandingLine]
    count: int
    as_of_entry: int | None = None
    game_format: str = ""  # "" for all formats
    #: The formats of a table of all formats whose points are different units (shown apart,
    #: never added); empty when the table has one unit of points.
    formats: list[str] = field(default_factory=list)
    #: Metrics of the club's order left out because they would add different units.
    left_out: list[Metric] = field(default_factory=list)


def _points_by_format(
    scope: str, scope_id: int, formats: list[str], players: list[int]
) -> dict[int, dict[str, int]]:
    rows = StandingRow.objects.filter(
        scope=scope, scope_id=scope_id, game_format__in=formats, player_id__in=players
    ).values_list("player_id", "game_format", "points")
    found: dict[int, dict[str, int]] = defaultdict(dict)
    for player_id, game_format, points in rows:
        found[player_id][game_format] = points
    return {pid: {f: found[pid].get(f, 0) for f in formats} for pid in players}


def ranked_lines(
    order: list[Metric],
    ranked: list[tuple[int, dict[str, Any]]],
    names: dict[int, str],
    *,
    offset: int = 0,
    first_rank: int = 1,
) -> list[StandingLine]:
    """Lines of ranked rows (player id, totals) from place ``offset`` of the table, the first
    at ``first_rank`` (lower than ``offset + 1`` when it ties with rows before the page): equal
    keys share a rank (1, 2, 2, 4)."""
    lines: list[StandingLine] = []
    previous: tuple[Any, ...] | None = None
    for index, (player_id, totals) in enumerate(ranked):
        key = rank_key(order, totals)
        if index == 0:
            rank = first_rank
        elif key == previous:
            rank = lines[-1].rank
        else:
            rank = offset + index + 1
        previous = key
        shown = {name: totals[name] for name in TOTAL_FIELDS if name in totals}
        line = StandingLine(rank, player_id, names[player_id], shown)
        line.metrics = {metric.id: metric.value(totals) for metric in order}
        lines.append(line)
    return lines


def standings_facts(*, club: Club, scope: str, scope_id: int, game_format: str = "") -> ScopeFacts:
    """What reading a table needs first, how many players it ranks among them: one aggregate
    of its kept rows. A caller that needs the count before it asks for a page (a projector
    sizing its pages) passes them on to ``standings_table``, which then does not read them
    again."""
    return scope_facts(club, scope, scope_id, game_format)


def standings_table(
    *,
    club: Club,
    scope: str,
    scope_id: int,
    metrics: Sequence[str] | None = None,
    limit: int = 50,
    offset: int = 0,
    game_format: str = "",
    facts: ScopeFacts | None = None,
) -> StandingsTable:
    """The ranked table of a scope from the kept rows. Players equal on every metric share a
    rank (1, 2, 2, 4) and are listed by id. A session or season can be read for one
    ``game_format``; a table of all formats that mixes units of points shows each format's
    points apart and does not rank by points.

    A page costs a fixed number of queries whatever the history (the default order's page comes
    from an index without sorting everyone). Ratio metrics are ordered by the database as
    ``field / per`` in floating point, which orders exact fractions exactly when the scope's
    largest numerator times its largest denominator is below 2**52 (two different fractions
    then differ by more than rounding can hide, and equal ones round alike); one more query
    checks that bound, and past it the rows are read and sorted here as fractions."""
    if facts is None:
        facts = scope_facts(club, scope, scope_id, game_format)
    formats = facts.mixed_formats
    order, left_out = order_for(club, metrics, bool(formats))
    rows = StandingRow.objects.filter(
        club=club, scope=scope, scope_id=scope_id, game_format=game_format
    )
    rated = [metric for metric in order if metric.rating is not None]
    if rated:  # the players' ratings in the table's family, beside their totals
        family = table_family(facts, scope, scope_id, game_format)
        rows = rows.annotate(**{m.field: rating_of(m, family) for m in rated})
    fields = [*TOTAL_FIELDS, *(m.field for m in rated)]
    if all(facts.floats_exact[m.id] for m in order if m.per is not None):
        keys = {f"m{index}": sql_key(metric) for index, metric in enumerate(order)}
        keyed = rows.annotate(**keys)
        ordering = [
            F(key).desc() if metric.descending else F(key).asc()
            for key, metric in zip(keys, order, strict=True)
        ]
        count = facts.count
        found = keyed.order_by(*ordering, "player_id").values("player_id", *keys, *fields)
        fetched = list(found[offset : offset + limit])
        page = [(row["player_id"], {name: row[name] for name in fields}) for row in fetched]
        first = offset + 1
        if fetched and offset > 0:
            values = tuple(fetched[0][key] for key in keys)
            first = 1 + ranked_before(rows, order, {"first": values})["first"]
    else:
        every = [
            (row["player_id"], {name: row[name] for name in fields})
            for row in rows.values("player_id", *fields)
        ]
        every.sort(key=lambda item: (rank_key(order, item[1]), item[0]))
        count = len(every)
        page = every[offset : offset + limit]
        first = offset + 1
        while (
            page
            and first > 1
            and rank_key(order, every[first - 2][1]) == rank_key(order, page[0][1])
        ):
            first -= 1
    names = dict(Player.objects.filter(pk__in=[pid for pid, _ in page]).values_list("pk", "name"))
    lines = ranked_lines(order, page, names, offset=offset, first_rank=first)
    if formats:
        by_format = _points_by_format(scope, scope_id, formats, [pid for pid, _ in page])
        for line in lines:
            points_apart(line, by_format[line.player_id])
    return StandingsTable(
        scope, scope_id, order, lines, count, game_format=game_format, formats=formats,
        left_out=left_out,
    )  # fmt: skip


#: Totals in points (net points, and the counts in points the formats declare): a table mixing
#: units shows them per format instead.
IN_POINTS = tuple(dict.fromkeys(m.field for m in METRICS.values() if m.in_points and m.per is None))


def points_apart(line: StandingLine, points_by_format: dict[str, int]) -> None:
    """A line of a table mixing units: each format's points apart, no sum of them."""
    line.points_by_format = points_by_format
    line.totals = {name: value for name, value in line.totals.items() if name not in IN_POINTS}


@dataclass
class FoundLine:
    player_id: int
    name: str
    rank: int


def standings_find(
    *, club: Club, scope: str, scope_id: int, name: str, game_format: str = "", limit: int = 10
) -> list[FoundLine]:
    """The players of a table whose names contain ``name`` (any case), best first, each with
    their rank: a player looking for their row. Three queries whatever the table's length (its
    facts, the players found with their keys, one count of the rows ranked before each)."""
    facts = scope_facts(club, scope, scope_id, game_format)
    order, _ = order_for(club, None, bool(facts.mixed_formats))
    rows = StandingRow.objects.filter(
        club=club, scope=scope, scope_id=scope_id, game_format=game_format
    )
    rated = [metric for metric in order if metric.rating is not None]
    if rated:
        family = table_family(facts, scope, scope_id, game_format)
        rows = rows.annotate(**{m.field: rating_of(m, family) for m in rated})
    keys = {f"m{index}": sql_key(metric) for index, metric in enumerate(order)}
    keyed = rows.annotate(**keys)
    ordering = [
        F(key).desc() if metric.descending else F(key).asc()
        for key, metric in zip(keys, order, strict=True)
    ]
    found = list(
        keyed.filter(player__name__icontains=name.strip())
        .order_by(*ordering, "player_id")
        .values("player_id", "player__name", *keys)[:limit]
    )
    if not found:
        return []
    before = ranked_before(
        rows, order, {f"before_{row['player_id']}": tuple(row[k] for k in keys) for row in found}
    )
    return [
        FoundLine(row["player_id"], row["player__name"], 1 + before[f"before_{row['player_id']}"])
        for row in found
    ]
