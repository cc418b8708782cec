"""Standings: per game, per session and per season, ranked by tie-break metrics the club orders.

- ``METRICS`` is the registry: each metric has a stable id (used by the API and kept in the club's
  ``standings_metrics``), a label, a direction and how to read it.
- ``StandingRow`` holds each player's running totals per scope, updated in the same transaction
  as the ledger (``scoring.standing_rows``), so reading a table costs the same whatever the
  history.
- ``standings_recompute`` derives the same totals from the ledger itself; with ``as_of_entry`` it
  reproduces the standings as they stood after any past ledger entry (a deal, a session).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db import connection
from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Abs, Cast, Coalesce

from clubs.models import Club, Player
from config.errors import InvalidInput
from ledger.models import AccountKind, LedgerEntry, Posting
from rules.families import Family
from rules.ratings import initial_skill
from scoring.formats import FORMAT_ORDER, HANDLERS, handler_for, points_column
from scoring.models import Game, PlayerResult, Rating, StandingRow, StandingScope
from scoring.ratings import ratings_at
from scoring.standing_rows import QUANTITY_FIELD, TOTAL_FIELDS


@dataclass(frozen=True)
class Metric:
    """A way to rank a table. A plain metric is one total (``field``); a ratio metric is
    ``field`` per ``per`` (0 when ``per`` is 0), compared as an exact fraction, never as a
    rounded decimal or a float (1/34 ranks above 1/35). ``in_points``: its value is in the
    points of a game format, so a table mixing formats cannot rank by it."""

    id: str
    label: str
    description: str
    descending: bool
    field: str
    per: str | None = None
    in_points: bool = False
    #: A rating metric reads the player's rating in the table's game family (``mu`` or
    #: ``ordinal``), not a total; ``field`` names it among a line's figures.
    rating: str | None = None

    def exact(self, totals: dict[str, Any]) -> Fraction | int | float:
        """The value a table ranks by."""
        if self.per is None:
            return totals[self.field]  # type: ignore[no-any-return]
        denominator = totals[self.per]
        return Fraction(totals[self.field], denominator) if denominator else Fraction(0)

    def value(self, totals: dict[str, Any]) -> int | Decimal:
        """The value shown: a ratio to three decimals (rounded half up), a rating to two, a
        total as it is."""
        exact = self.exact(totals)
        if isinstance(exact, float):
            return Decimal(exact).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        if isinstance(exact, int):
            return exact
        shown = Decimal(exact.numerator) / Decimal(exact.denominator)
        return shown.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)


METRICS: dict[str, Metric] = {
    metric.id: metric
    for metric in [
        Metric("points", "Points", "Net points: won minus lost.", True, "points",
               in_points=True),
        Metric("money", "Money", "Net money won, in minor units.", True, "money_minor"),
        Metric("chips", "Chips", "Chips held (deals rummy).", True, "chips"),
        Metric("deals_won", "Deals won", "Deals (or Rummikub games) won.", True, "deals_won"),
        Metric("deals_played", "Deals played", "Deals (or Rummikub games) played.", True,
               "deals_played"),
        Metric("win_rate", "Win rate", "Deals won per deal played.", True, "deals_won",
               per="deals_played"),
        Metric("points_per_deal", "Points per deal", "Net points per deal played.", True,
               "points", per="deals_played", in_points=True),
        Metric("fewest_conceded", "Points conceded", "Fewest points conceded as a loser.",
               False, "points_conceded", in_points=True),
        Metric("fewest_drops", "Drops", "Fewest drops (first and middle).", False, "drops"),
        Metric("fewest_full_counts", "Full counts", "Fewest wrong shows and late declarations.",
               False, "full_counts"),
        Metric("rating", "Rating", "Skill rating (mu) in the table's game family.", True,
               "rating_mu", rating="mu"),
        Metric("ordinal", "Ordinal", "Skill rating less three times its uncertainty "
               "(mu - 3 sigma) in the table's game family.", True, "rating_ordinal",
               rating="ordinal"),
    ]
}  # fmt: skip
#: What a table ranks by when every metric of its order is in points and it mixes formats.
UNITLESS_ORDER = ["money", "deals_won", "win_rate"]


def rank_key(order: Sequence[Metric], totals: dict[str, Any]) -> tuple[Any, ...]:
    """The exact key a row ranks by (smaller first): each metric, negated where higher is
    better. The one comparison of the live tables and the tables as they stood."""
    return tuple(-m.exact(totals) if m.descending else m.exact(totals) for m in order)


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


# --- reading --------------------------------------------------------------------------------------


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


def _scope_filter(scope: str, scope_id: int, game_format: str = "", game: str = "game__") -> Q:
    """The rows of a scope's games (of one format, if given), for a model with a ``game``
    foreign key; ``game=""`` for the games themselves."""
    path = {
        StandingScope.GAME: f"{game}id" if game else "pk",
        StandingScope.SESSION: f"{game}table__session_id",
        StandingScope.SEASON: f"{game}table__session__season_id",
    }[scope]
    condition = Q(**{path: scope_id})
    if scope != StandingScope.GAME:  # a tie-breaker's points decide the tie only
        condition &= Q(**{f"{game}breaks_tie": False})
    if game_format:
        condition &= Q(**{f"{game}format": game_format})
    return condition


def _postings_in_scope(scope: str, scope_id: int, game_format: str = "") -> Q:
    """The postings of a scope: of its games' books (of one format, if given) and, for a night
    or a season of all formats, of its accounts' books too (a tournament's fees and prizes)."""
    in_games = _scope_filter(scope, scope_id, game_format, "book__game__")
    in_accounts = _accounts_in_scope(scope, scope_id, game_format)
    return in_games if in_accounts is None else in_games | in_accounts


def _accounts_in_scope(scope: str, scope_id: int, game_format: str) -> Q | None:
    """The postings of the scope's accounts' books; None for a game or a table of one format
    (an account has no format)."""
    if game_format or scope == StandingScope.GAME:
        return None
    path = {
        StandingScope.SESSION: "book__session_account__session_id",
        StandingScope.SEASON: "book__session_account__session__season_id",
    }[scope]
    return Q(**{path: scope_id})


def _order_for(
    club: Club, metrics: Sequence[str] | None, mixed: bool
) -> tuple[list[Metric], list[Metric]]:
    """The metrics that rank the table, and those left out: a table mixing units of points
    cannot rank by a metric in points."""
    order = metric_order(club, metrics)
    if not mixed:
        return order, []
    kept = [m for m in order if not m.in_points]
    left_out = [m for m in order if m.in_points]
    if not kept:
        kept = [METRICS[m] for m in UNITLESS_ORDER]
    return kept, left_out


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


def _lines(
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
    return _scope_facts(club, scope, scope_id, game_format)


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
        facts = _scope_facts(club, scope, scope_id, game_format)
    formats = facts.mixed_formats
    order, left_out = _order_for(club, metrics, bool(formats))
    rows = StandingRow.objects.filter(
        club=club, scope=scope, scope_id=scope_id, game_format=game_format
    )
    rated = [metric for metric in order if metric.rating is not None]
    if rated:  # the players' ratings in the table's family, beside their totals
        family = _table_family(facts, scope, scope_id, game_format)
        rows = rows.annotate(**{m.field: _rating_of(m, family) for m in rated})
    fields = [*TOTAL_FIELDS, *(m.field for m in rated)]
    if all(facts.floats_exact[m.id] for m in order if m.per is not None):
        keys = {f"m{index}": _sql_key(metric) for index, metric in enumerate(order)}
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
            first = 1 + _ranked_before(rows, order, {"first": values})["first"]
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
    lines = _lines(order, page, names, offset=offset, first_rank=first)
    if formats:
        by_format = _points_by_format(scope, scope_id, formats, [pid for pid, _ in page])
        for line in lines:
            _apart(line, by_format[line.player_id])
    return StandingsTable(
        scope, scope_id, order, lines, count, game_format=game_format, formats=formats,
        left_out=left_out,
    )  # fmt: skip


#: Totals in points: a table mixing units shows them per format instead.
IN_POINTS = ("points", "points_conceded")


def _apart(line: StandingLine, points_by_format: dict[str, int]) -> None:
    """A line of a table mixing units: each format's points apart, no sum of them."""
    line.points_by_format = points_by_format
    line.totals = {name: value for name, value in line.totals.items() if name not in IN_POINTS}


#: Below this, the floating-point quotients of whole numbers order as the fractions do: for
#: a/b != c/d, |a/b - c/d| >= 1/(bd), more than the rounding of either (|a/b| x 2**-52 at most)
#: whenever |a| x d < 2**52; and a fraction is one real number, so it always rounds alike.
EXACT_PRODUCT = 2**52


@dataclass(frozen=True)
class ScopeFacts:
    """What reading a table needs to know first, in one query: its rows, the formats of a
    table of all formats that mixes units of points, and whether each ratio metric may be
    ordered by the database (``EXACT_PRODUCT``)."""

    count: int
    played_formats: list[str]
    mixed_formats: list[str]
    floats_exact: dict[str, bool]


RATIOS = [metric for metric in METRICS.values() if metric.per is not None]


def _scope_facts(club: Club, scope: str, scope_id: int, game_format: str) -> ScopeFacts:
    # One group a format, in the order of the rows' index: a third cheaper than one row of
    # filtered aggregates (each row then tested against every format), and the same figures.
    aggregates: dict[str, Any] = {"count": Count("*")}
    for metric in RATIOS:
        assert metric.per is not None
        aggregates[f"{metric.id}_n"] = Max(Abs(metric.field))
        aggregates[f"{metric.id}_d"] = Max(metric.per)
    by_format = {
        row["game_format"]: row
        for row in StandingRow.objects.filter(club=club, scope=scope, scope_id=scope_id)
        .values("game_format")
        .annotate(**aggregates)
        .order_by()
    }
    found = by_format.get(game_format, {"count": 0})
    mixed: list[str] = []
    played = [key for key in FORMAT_ORDER if key in by_format]
    if not game_format and scope != StandingScope.GAME:
        with_points = [key for key in played if points_column(key) is not None]
        mixed = with_points if len(with_points) > 1 else []
    exact = {
        m.id: (found.get(f"{m.id}_n") or 0) * (found.get(f"{m.id}_d") or 0) < EXACT_PRODUCT
        for m in RATIOS
    }
    return ScopeFacts(found["count"], played, mixed, exact)


def _table_family(facts: ScopeFacts, scope: str, scope_id: int, game_format: str) -> str:
    """The game family whose ratings a table's rating metrics read: the family of its formats
    (a game's rows carry no format: its own is read); refused for a table of all formats that
    mixes Indian rummy and Rummikub."""
    formats = [game_format] if game_format else facts.played_formats
    if scope == StandingScope.GAME:
        formats = list(Game.objects.filter(pk=scope_id).values_list("format", flat=True))
    families = {HANDLERS[key].family for key in formats}
    if len(families) > 1:
        raise InvalidInput(
            "metrics: this table mixes Indian rummy and Rummikub, rated apart; rank by rating "
            "in a table of one game format",
            code="bad_metric",
            details={"token": "rating"},
        )
    return next(iter(families), Family.INDIAN.value)


def _rating_of(metric: Metric, family: str) -> Any:
    """A player's rating figure in a family; an unrated player stands at the model's start."""
    start = initial_skill()
    default = start.mu if metric.rating == "mu" else start.ordinal
    found = Rating.objects.filter(player_id=OuterRef("player_id"), family=family).values(
        metric.rating or "mu"
    )[:1]
    return Coalesce(Subquery(found), Value(default), output_field=FloatField())


def _sql_key(metric: Metric) -> Any:
    """What the database orders a metric by: the total, or the quotient of a ratio (0 when
    nothing was played)."""
    if metric.per is None:
        return F(metric.field)
    return Case(
        When(**{metric.per: 0}, then=Value(0.0)),
        default=Cast(F(metric.field), FloatField()) / Cast(F(metric.per), FloatField()),
        output_field=FloatField(),
    )


def _ranked_before(
    rows: QuerySet[StandingRow], order: list[Metric], wanted: dict[str, tuple[Any, ...]]
) -> dict[str, int]:
    """For each of ``wanted`` (a label: the keys of a row as the database reads them,
    ``_sql_key``), how many of ``rows`` rank strictly before it; one query. The keys are
    compared as one row value, each negated where higher is better: one comparison a count,
    however many metrics order the table. (The ORM's form of it, a tree of ORs a metric over
    the annotated keys, took tens of milliseconds to build for a projector's dozen counts.)"""
    if not wanted:
        return {}
    keys = {
        f"k{index}": -_sql_key(metric) if metric.descending else _sql_key(metric)
        for index, metric in enumerate(order)
    }
    inner, params = rows.annotate(**keys).values(*keys).query.sql_with_params()
    columns = ", ".join(connection.ops.quote_name(key) for key in keys)
    marks = ", ".join(["%s"] * len(keys))
    counts = ", ".join([f"SUM(CASE WHEN ({columns}) < ({marks}) THEN 1 ELSE 0 END)"] * len(wanted))
    values = [
        -value if metric.descending else value
        for key in wanted.values()
        for value, metric in zip(key, order, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts} FROM ({inner}) ranked", [*values, *params])
        found = cursor.fetchone()
    return {label: int(count or 0) for label, count in zip(wanted, found, strict=True)}


def standings_recompute(
    *, scope: str, scope_id: int, as_of_entry: int | None = None, game_format: str = ""
) -> dict[int, dict[str, int]]:
    """Every player's totals in a scope (of one game format, if given) computed from the ledger;
    with ``as_of_entry``, as they stood right after that ledger entry (later entries,
    corrections included, left out)."""
    totals: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(TOTAL_FIELDS, 0))
    postings = Posting.objects.filter(
        _postings_in_scope(scope, scope_id, game_format), account=AccountKind.PLAYER
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
    for player_id, game_format, outcome, points, won in results.values_list(
        "player_id", "game__format", "outcome", "points", "won"
    ):
        tallies = handler_for(game_format).deal_tallies(outcome=outcome, points=points, won=won)
        for name, value in tallies.items():
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
    limit: int | None = None,
    offset: int = 0,
) -> StandingsTable:
    """The table as it stood after a past ledger entry (recomputed from the ledger), ranked by
    the same exact keys as the live table; ``limit`` lines from ``offset`` (all when None)."""
    facts = _scope_facts(club, scope, scope_id, game_format)
    formats = facts.mixed_formats
    order, left_out = _order_for(club, metrics, bool(formats))
    totals: dict[int, dict[str, Any]] = dict(
        standings_recompute(
            scope=scope, scope_id=scope_id, as_of_entry=as_of_entry, game_format=game_format
        )
    )
    rated = [metric for metric in order if metric.rating is not None]
    if rated:  # the ratings as they stood then: before the club's next ledger entry
        family = _table_family(facts, scope, scope_id, game_format)
        following = (
            LedgerEntry.objects.filter(book__club=club, id__gt=as_of_entry)
            .order_by("id")
            .values_list("created_at", flat=True)
            .first()
        )
        skills = ratings_at(club=club, family=family, before=following)
        start = initial_skill()
        for pid, values in totals.items():
            skill = skills.get(pid, start)
            values.update(rating_mu=skill.mu, rating_ordinal=skill.ordinal)
    names = dict(Player.objects.filter(pk__in=totals).values_list("pk", "name"))
    ranked = sorted(totals.items(), key=lambda item: (rank_key(order, item[1]), item[0]))
    lines = _lines(order, ranked, names)
    if formats:
        per_format = {
            f: standings_recompute(
                scope=scope, scope_id=scope_id, as_of_entry=as_of_entry, game_format=f
            )
            for f in formats
        }
        for line in lines:
            _apart(
                line, {f: per_format[f].get(line.player_id, {}).get("points", 0) for f in formats}
            )
    count = len(lines)
    lines = lines[offset:] if limit is None else lines[offset : offset + limit]
    return StandingsTable(
        scope, scope_id, order, lines, count, as_of_entry, game_format=game_format,
        formats=formats, left_out=left_out,
    )  # fmt: skip


@dataclass
class LastChange:
    """The ledger entry a table last changed by (a deal counted, a correction, a fee) and the
    ranks of the players it touched before and after: what a projector shows first."""

    entry_id: int
    at: Any  # when it was counted
    table: str
    deal: int | None
    #: Player id -> (rank now, rank before; None when the player was new to the table).
    ranks: dict[int, tuple[int, int | None]]
    names: dict[int, str]
    #: The rank keys of the touched players now and before, to tell a line the entry did not
    #: touch how far it was pushed (``rank_before``).
    keys_now: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    keys_before: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    order: list[Metric] = field(default_factory=list)

    def rank_before(self, line: StandingLine) -> int | None:
        """Where a line of the table stood before the entry: a touched player's own rank; any
        other line's rank less the touched players who passed it, plus those who fell behind."""
        if line.player_id in self.ranks:
            return self.ranks[line.player_id][1]
        key = rank_key(self.order, line.totals)
        ahead_now = sum(1 for k in self.keys_now.values() if k < key)
        ahead_before = sum(1 for k in self.keys_before.values() if k < key)
        return line.rank - ahead_now + ahead_before


#: How many of the newest player postings (of every club) are looked through for a table's last
#: change before asking each of its games: a table in play finds it among them.
RECENT_POSTINGS = 200


def _last_entry(scope: str, scope_id: int, game_format: str) -> LedgerEntry | None:
    """The scope's newest ledger entry with player postings. A table in play finds it among the
    newest postings of all clubs (a backward walk of a bounded length); a table no longer
    written to asks each of its games for its newest entry (an index probe a game), which grows
    with its games (and its accounts, of a table of all formats) but not with what other clubs
    wrote since. Either way the same entry: one newer in scope would be among the newest
    postings too. One query, or two (three with accounts)."""
    entries = LedgerEntry.objects.select_related(
        "book__game__table", "book__session_account", "deal"
    )
    recent = Posting.objects.filter(account=AccountKind.PLAYER).order_by("-entry_id")
    newest_recent = (
        Posting.objects.filter(
            _postings_in_scope(scope, scope_id, game_format),
            pk__in=Subquery(recent.values("pk")[:RECENT_POSTINGS]),
        )
        .order_by("-entry_id")
        .values("entry_id")[:1]
    )
    last = entries.filter(pk=Subquery(newest_recent)).first()
    if last is not None:
        return last
    newest_of_game = Subquery(
        Posting.objects.filter(book_id=OuterRef("book_id"), account=AccountKind.PLAYER)
        .order_by("-entry_id")
        .values("entry_id")[:1]
    )
    newest = (
        Game.objects.filter(_scope_filter(scope, scope_id, game_format, game=""))
        .annotate(newest=newest_of_game)
        .order_by(F("newest").desc(nulls_last=True))
        .values("newest")[:1]
    )
    last = entries.filter(pk=Subquery(newest)).first()
    in_accounts = _accounts_in_scope(scope, scope_id, game_format)
    if in_accounts is not None:
        of_accounts = (
            Posting.objects.filter(in_accounts, account=AccountKind.PLAYER)
            .order_by("-entry_id")
            .values("entry_id")[:1]
        )
        newer = entries.filter(pk=Subquery(of_accounts)).first()
        if newer is not None and (last is None or newer.pk > last.pk):
            last = newer
    return last


def _where(book: Any) -> str:
    """The name of where an entry was posted: its game's table, or the account's own."""
    game = getattr(book, "game", None)
    return game.table.name if game is not None else book.session_account.name


def standings_last_change(
    *, club: Club, scope: str, scope_id: int, order: list[Metric], game_format: str = ""
) -> LastChange | None:
    """The table's last change read from the ledger: its last entry, what that entry added to
    each player's totals (its postings and counted results, less the results a correction took
    back), and each touched player's rank before and after. Five queries whatever the history
    (the entry, its postings, its results, the touched rows, one count of the rows ranked
    before each of them); ``order`` is the table's (``StandingsTable.metrics``). ``None`` when
    nothing is counted, or when the table ranks by rating (a rating before a deal is not kept
    beside the rows)."""
    if any(metric.rating is not None for metric in order):
        return None
    in_scope = _scope_filter(scope, scope_id, game_format)
    last = _last_entry(scope, scope_id, game_format)
    if last is None:
        return None
    delta: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(TOTAL_FIELDS, 0))
    for player_id, quantity, total in (
        Posting.objects.filter(
            _postings_in_scope(scope, scope_id, game_format),
            account=AccountKind.PLAYER,
            entry_id=last.pk,
        )
        .values_list("player_id", "quantity")
        .annotate(total=Sum("amount"))
    ):
        delta[player_id][QUANTITY_FIELD[quantity]] += total
    # Its results, and those of the entry it reverses (a correction's earlier version).
    entries = [last.pk] if last.reverses_id is None else [last.pk, last.reverses_id]
    for player_id, entry_id, fmt, outcome, points, won in PlayerResult.objects.filter(
        in_scope, entry_id__in=entries
    ).values_list("player_id", "entry_id", "game__format", "outcome", "points", "won"):
        sign = 1 if entry_id == last.pk else -1  # a corrected result no longer counts
        for name, value in (
            handler_for(fmt).deal_tallies(outcome=outcome, points=points, won=won).items()
        ):
            delta[player_id][name] += sign * value
    touched = list(delta)
    rows = StandingRow.objects.filter(
        club=club, scope=scope, scope_id=scope_id, game_format=game_format, player_id__in=touched
    ).values("player_id", "player__name", *TOTAL_FIELDS)
    now: dict[int, dict[str, Any]] = {}
    names: dict[int, str] = {}
    for row in rows:
        now[row["player_id"]] = {name: row[name] for name in TOTAL_FIELDS}
        names[row["player_id"]] = row["player__name"]
    before = {
        pid: {name: totals[name] - delta[pid][name] for name in TOTAL_FIELDS}
        for pid, totals in now.items()
    }
    keys_now = {pid: rank_key(order, totals) for pid, totals in now.items()}
    keys_before = {
        pid: rank_key(order, totals) for pid, totals in before.items() if any(totals.values())
    }

    # One query counts, for each touched player, the untouched rows ranked before them now
    # and before the entry (the untouched rows did not move).
    def sql_values(key: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(
            float(-v if m.descending else v) if m.per is not None else (-v if m.descending else v)
            for v, m in zip(key, order, strict=True)
        )

    wanted = {f"now_{pid}": sql_values(key) for pid, key in keys_now.items()}
    wanted |= {f"before_{pid}": sql_values(key) for pid, key in keys_before.items()}
    found = _ranked_before(
        StandingRow.objects.filter(
            club=club, scope=scope, scope_id=scope_id, game_format=game_format
        ).exclude(player_id__in=touched),
        order,
        wanted,
    )
    ranks: dict[int, tuple[int, int | None]] = {}
    for pid, key in keys_now.items():
        rank_now = 1 + found[f"now_{pid}"] + sum(1 for k in keys_now.values() if k < key)
        rank_then = None
        if pid in keys_before:
            then = keys_before[pid]
            rank_then = 1 + found[f"before_{pid}"]
            rank_then += sum(1 for k in keys_before.values() if k < then)
        ranks[pid] = (rank_now, rank_then)
    return LastChange(
        entry_id=last.pk, at=last.created_at, table=_where(last.book),
        deal=last.deal.number if last.deal else None, ranks=ranks, names=names,
        keys_now=keys_now, keys_before=keys_before, order=order,
    )  # fmt: skip


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
    facts = _scope_facts(club, scope, scope_id, game_format)
    order, _ = _order_for(club, None, bool(facts.mixed_formats))
    rows = StandingRow.objects.filter(
        club=club, scope=scope, scope_id=scope_id, game_format=game_format
    )
    rated = [metric for metric in order if metric.rating is not None]
    if rated:
        family = _table_family(facts, scope, scope_id, game_format)
        rows = rows.annotate(**{m.field: _rating_of(m, family) for m in rated})
    keys = {f"m{index}": _sql_key(metric) for index, metric in enumerate(order)}
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
    before = _ranked_before(
        rows, order, {f"before_{row['player_id']}": tuple(row[k] for k in keys) for row in found}
    )
    return [
        FoundLine(row["player_id"], row["player__name"], 1 + before[f"before_{row['player_id']}"])
        for row in found
    ]
