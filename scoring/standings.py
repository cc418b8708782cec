"""Standings: per game, per session and per season, ranked by tie-break metrics the club orders.

- ``METRICS`` is the registry: each metric has a stable id (used by the API and kept in the club's
  ``standings_metrics``), a label, a direction and how to read it.
- ``StandingRow`` holds each player's running totals per scope, updated in the same transaction
  as the ledger (``standings_apply``, for postings and deal results), so reading a table costs
  the same whatever the history.
- ``standings_recompute`` derives the same totals from the ledger itself; with ``as_of_entry`` it
  reproduces the standings as they stood after any past ledger entry (a deal, a session).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import connection
from django.db.models import Case, F, FloatField, Q, Sum, Value, When
from django.db.models.functions import Cast

from clubs.models import Club, Player
from config.errors import InvalidInput
from scoring.models import (
    AccountKind,
    Game,
    PlayerResult,
    Posting,
    Quantity,
    StandingRow,
    StandingScope,
)

TOTAL_FIELDS = (
    "points", "chips", "money_minor", "deals_played", "deals_won", "drops", "full_counts",
    "points_conceded",
)  # fmt: skip
QUANTITY_FIELD = {Quantity.POINTS: "points", Quantity.CHIPS: "chips", Quantity.MONEY: "money_minor"}
DROPS = {"first_drop", "middle_drop"}
FULL_COUNTS = {"wrong_show", "late_declare"}


def _ratio(numerator: int, denominator: int) -> Decimal:
    if not denominator:
        return Decimal(0)
    return (Decimal(numerator) / Decimal(denominator)).quantize(
        Decimal("0.001"), rounding=ROUND_HALF_UP
    )


@dataclass(frozen=True)
class Metric:
    id: str
    label: str
    description: str
    descending: bool
    #: The SQL expression standings are ordered by (over ``StandingRow`` columns).
    order: Callable[[], Any]
    #: The value shown, from a row's totals.
    value: Callable[[dict[str, int]], int | Decimal]


def _rate(numerator: str, denominator: str) -> Callable[[], Any]:
    def expression() -> Any:
        return Case(
            When(**{denominator: 0}, then=Value(0.0)),
            default=Cast(F(numerator), FloatField()) / Cast(F(denominator), FloatField()),
            output_field=FloatField(),
        )

    return expression


METRICS: dict[str, Metric] = {
    metric.id: metric
    for metric in [
        Metric("points", "Points", "Net points: won minus lost.", True,
               lambda: F("points"), lambda r: r["points"]),
        Metric("money", "Money", "Net money won, in minor units.", True,
               lambda: F("money_minor"), lambda r: r["money_minor"]),
        Metric("chips", "Chips", "Chips held (deals rummy).", True,
               lambda: F("chips"), lambda r: r["chips"]),
        Metric("deals_won", "Deals won", "Deals (or Rummikub games) won.", True,
               lambda: F("deals_won"), lambda r: r["deals_won"]),
        Metric("deals_played", "Deals played", "Deals (or Rummikub games) played.", True,
               lambda: F("deals_played"), lambda r: r["deals_played"]),
        Metric("win_rate", "Win rate", "Deals won per deal played.", True,
               _rate("deals_won", "deals_played"),
               lambda r: _ratio(r["deals_won"], r["deals_played"])),
        Metric("points_per_deal", "Points per deal", "Net points per deal played.", True,
               _rate("points", "deals_played"),
               lambda r: _ratio(r["points"], r["deals_played"])),
        Metric("fewest_conceded", "Points conceded", "Fewest points conceded as a loser.",
               False, lambda: F("points_conceded"), lambda r: r["points_conceded"]),
        Metric("fewest_drops", "Drops", "Fewest drops (first and middle).", False,
               lambda: F("drops"), lambda r: r["drops"]),
        Metric("fewest_full_counts", "Full counts", "Fewest wrong shows and late declarations.",
               False, lambda: F("full_counts"), lambda r: r["full_counts"]),
    ]
}  # fmt: skip
DEFAULT_ORDER = ["points", "deals_won", "win_rate"]


def metric_order(club: Club, requested: Sequence[str] | None = None) -> list[Metric]:
    """The metrics that rank a table: the request's, else the club's, else the default."""
    ids = list(requested or club.standings_metrics or DEFAULT_ORDER)
    check_metric_ids(ids)
    return [METRICS[metric_id] for metric_id in ids]


def check_metric_ids(ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for metric_id in ids:
        if metric_id not in METRICS:
            raise InvalidInput(
                f"metrics: unknown metric {metric_id!r}; use {', '.join(METRICS)}",
                code="bad_metric",
                details={"token": metric_id},
            )
        if metric_id in seen:
            raise InvalidInput(f"metrics: {metric_id!r} is listed twice", code="bad_metric")
        seen.add(metric_id)


# --- keeping the rows in step with the ledger ----------------------------------------------------


Scope = tuple[str, int, str]  # (scope, scope id, game format or "" for all formats)


def _scopes(game: Game) -> tuple[int, list[Scope]]:
    session = game.table.session
    scopes = [(StandingScope.GAME, game.pk, ""), (StandingScope.SESSION, session.pk, "")]
    if session.season_id is not None:
        scopes.append((StandingScope.SEASON, session.season_id, ""))
        scopes.append((StandingScope.SEASON, session.season_id, game.format))
    return session.club_id, scopes


def result_totals(outcome: str, points: int, won: bool) -> dict[str, int]:
    """What one player's deal result adds to their totals (besides the ledger amounts)."""
    conceded = -points if points < 0 else (0 if won or outcome == "no_winner" else points)
    return {
        "deals_played": 1,
        "deals_won": int(won),
        "drops": int(outcome in DROPS),
        "full_counts": int(outcome in FULL_COUNTS),
        "points_conceded": conceded,
    }


def _upsert(club_id: int, deltas: dict[tuple[str, int, str, int], dict[str, int]]) -> None:
    rows = [
        (club_id, scope, scope_id, game_format, player_id,
         *(values.get(name, 0) for name in TOTAL_FIELDS))
        for (scope, scope_id, game_format, player_id), values in deltas.items()
        if any(values.values())
    ]  # fmt: skip
    if not rows:
        return
    table = connection.ops.quote_name(StandingRow._meta.db_table)
    columns = ["club_id", "scope", "scope_id", "game_format", "player_id", *TOTAL_FIELDS]
    if connection.vendor == "postgresql":
        # One array per column: the statement reads the same whatever the number of rows, so
        # PostgreSQL prepares it once per connection rather than planning it for every deal.
        kinds = ["bigint", "text", "bigint", "text", "bigint", *["bigint"] * len(TOTAL_FIELDS)]
        source = "SELECT * FROM UNNEST(" + ", ".join(f"%s::{kind}[]" for kind in kinds) + ")"
        params: list[Any] = [list(column) for column in zip(*rows, strict=True)]
    else:
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        source = "VALUES " + ", ".join([row] * len(rows))
        params = [value for values in rows for value in values]
    updates = ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in TOTAL_FIELDS)
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) {source}"
        f" ON CONFLICT (scope, scope_id, game_format, player_id) DO UPDATE SET {updates}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def standings_apply(
    *,
    game: Game,
    lines: Iterable[Any] = (),
    results: Iterable[tuple[int, str, int, bool]] = (),
    sign: int = 1,
) -> None:
    """Add a ledger entry's player amounts (``lines``) and deal results (player, outcome,
    points, won; ``sign`` -1 takes them back) to the totals of the game, session and season
    (all formats, and the game's format), in one statement."""
    club_id, scopes = _scopes(game)
    deltas: dict[tuple[str, int, str, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for line in lines:
        if line.account != AccountKind.PLAYER or line.player_id is None:
            continue
        field_name = QUANTITY_FIELD[line.quantity]
        for scope in scopes:
            deltas[(*scope, line.player_id)][field_name] += line.amount
    for player_id, outcome, points, won in results:
        for name, value in result_totals(outcome, points, won).items():
            for scope in scopes:
                deltas[(*scope, player_id)][name] += sign * value
    _upsert(club_id, deltas)


# --- reading --------------------------------------------------------------------------------------


@dataclass
class StandingLine:
    rank: int
    player_id: int
    name: str
    totals: dict[str, int]
    metrics: dict[str, int | Decimal] = field(default_factory=dict)


@dataclass
class StandingsTable:
    scope: str
    scope_id: int
    metrics: list[Metric]
    lines: list[StandingLine]
    count: int
    as_of_entry: int | None = None
    game_format: str = ""  # "" for all formats


def _scope_filter(scope: str, scope_id: int, game_format: str = "") -> Q:
    path = {
        StandingScope.GAME: "game_id",
        StandingScope.SESSION: "game__table__session_id",
        StandingScope.SEASON: "game__table__session__season_id",
    }[scope]
    condition = Q(**{path: scope_id})
    if game_format:
        condition &= Q(game__format=game_format)
    return condition


def standings_table(
    *,
    club: Club,
    scope: str,
    scope_id: int,
    metrics: Sequence[str] | None = None,
    limit: int = 50,
    offset: int = 0,
    game_format: str = "",
) -> StandingsTable:
    """The ranked table of a scope from the kept rows, in a fixed number of queries whatever the
    history: the count, the page (with the default order an index gives it without sorting
    everyone), the rank of the page's first row (past the first page), and the names.

    Players equal on every metric share a rank (1, 2, 2, 4) and are listed by id. A season can
    be read for one ``game_format``."""
    order = metric_order(club, metrics)
    keys = {f"m{index}": metric.order() for index, metric in enumerate(order)}
    rows = StandingRow.objects.filter(
        club=club, scope=scope, scope_id=scope_id, game_format=game_format
    ).annotate(**keys)
    ordering = [
        F(key).desc() if metric.descending else F(key).asc()
        for key, metric in zip(keys, order, strict=True)
    ]
    count = rows.count()
    page = list(
        rows.order_by(*ordering, "player_id").values("player_id", *keys, *TOTAL_FIELDS)[
            offset : offset + limit
        ]
    )
    names = dict(
        Player.objects.filter(pk__in=[row["player_id"] for row in page]).values_list("pk", "name")
    )
    lines: list[StandingLine] = []
    previous: tuple[Any, ...] | None = None
    for index, row in enumerate(page):
        values = tuple(row[key] for key in keys)
        if previous is not None and values == previous:
            rank = lines[-1].rank
        elif index == 0 and offset > 0:
            rank = 1 + rows.filter(_better_than(values, list(keys), order)).count()
        else:
            rank = offset + index + 1
        previous = values
        totals = {name: row[name] for name in TOTAL_FIELDS}
        line = StandingLine(rank, row["player_id"], names[row["player_id"]], totals)
        line.metrics = {metric.id: metric.value(totals) for metric in order}
        lines.append(line)
    return StandingsTable(scope, scope_id, order, lines, count, game_format=game_format)


def _better_than(values: tuple[Any, ...], keys: list[str], order: list[Metric]) -> Q:
    """Rows ranked strictly before a row with these metric values."""
    better = Q()
    for index, (key, metric) in enumerate(zip(keys, order, strict=True)):
        step = Q(**{f"{key}__gt" if metric.descending else f"{key}__lt": values[index]})
        for earlier in range(index):
            step &= Q(**{keys[earlier]: values[earlier]})
        better |= step
    return better


def standings_recompute(
    *, scope: str, scope_id: int, as_of_entry: int | None = None, game_format: str = ""
) -> dict[int, dict[str, int]]:
    """Every player's totals in a scope (of one game format, if given) computed from the ledger;
    with ``as_of_entry``, as they stood right after that ledger entry (later entries,
    corrections included, left out)."""
    totals: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(TOTAL_FIELDS, 0))
    postings = Posting.objects.filter(
        _scope_filter(scope, scope_id, game_format), account=AccountKind.PLAYER
    )
    if as_of_entry is not None:
        postings = postings.filter(entry_id__lte=as_of_entry)
    for player_id, quantity, total in postings.values_list("player_id", "quantity").annotate(
        total=Sum("amount")
    ):
        totals[player_id][QUANTITY_FIELD[quantity]] += total
    results = PlayerResult.objects.filter(
        _scope_filter(scope, scope_id, game_format), entry__isnull=False
    )
    if as_of_entry is None:
        results = results.filter(entry__reversed_by__isnull=True)
    else:
        results = results.filter(entry_id__lte=as_of_entry).exclude(
            entry__reversed_by__id__lte=as_of_entry
        )
    for player_id, outcome, points, won in results.values_list(
        "player_id", "outcome", "points", "won"
    ):
        for name, value in result_totals(outcome, points, won).items():
            totals[player_id][name] += value
    return {pid: values for pid, values in totals.items() if any(values.values())}


def standings_table_as_of(
    *,
    club: Club,
    scope: str,
    scope_id: int,
    as_of_entry: int,
    metrics: Sequence[str] | None = None,
    game_format: str = "",
) -> StandingsTable:
    """The table as it stood after a past ledger entry (recomputed from the ledger)."""
    order = metric_order(club, metrics)
    totals = standings_recompute(
        scope=scope, scope_id=scope_id, as_of_entry=as_of_entry, game_format=game_format
    )
    names = dict(Player.objects.filter(pk__in=totals).values_list("pk", "name"))

    def key(pid: int) -> tuple[Any, ...]:
        values = [metric.value(totals[pid]) for metric in order]
        return tuple(-v if m.descending else v for v, m in zip(values, order, strict=True))

    ordered = sorted(totals, key=lambda pid: (key(pid), pid))
    lines: list[StandingLine] = []
    for index, pid in enumerate(ordered):
        rank = lines[-1].rank if lines and key(ordered[index - 1]) == key(pid) else index + 1
        line = StandingLine(rank, pid, names[pid], totals[pid])
        line.metrics = {metric.id: metric.value(totals[pid]) for metric in order}
        lines.append(line)
    return StandingsTable(
        scope, scope_id, order, lines, len(lines), as_of_entry, game_format=game_format
    )
