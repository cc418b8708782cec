"""What every read of a table shares: the rows and postings of a scope (a game, a session, a
season; of one game format or all), the facts read first about its kept rows, the database's
keys of the metrics and the count of the rows ranked before a key."""

from __future__ import annotations

from dataclasses import dataclass
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
    Value,
    When,
)
from django.db.models.functions import Abs, Cast, Coalesce
from django.utils.translation import gettext as _

from clubs.models import Club
from config.errors import InvalidInput
from rules.families import Family
from rules.ratings import initial_skill
from scoring.formats import FORMAT_ORDER, HANDLERS, points_column
from scoring.models import Game, StandingRow, StandingScope
from standings.metrics import METRICS, Metric
from standings.models import Rating


def scope_filter(scope: str, scope_id: int, game_format: str = "", game: str = "game__") -> Q:
    """The rows of a scope's games (of one format, if given), for a model with a ``game``
    foreign key; ``game=""`` for the games themselves."""
    paths: dict[str, str] = {
        StandingScope.GAME: f"{game}id" if game else "pk",
        StandingScope.SESSION: f"{game}table__session_id",
        StandingScope.SEASON: f"{game}table__session__season_id",
    }
    condition = Q(**{paths[scope]: scope_id})
    if scope != StandingScope.GAME:  # a tie-breaker's points decide the tie only
        condition &= Q(**{f"{game}breaks_tie": False})
    if game_format:
        condition &= Q(**{f"{game}format": game_format})
    return condition


def postings_in_scope(scope: str, scope_id: int, game_format: str = "") -> Q:
    """The postings of a scope: of its games' books (of one format, if given) and, for a night
    or a season of all formats, of its accounts' books too (a tournament's fees and prizes)."""
    in_games = scope_filter(scope, scope_id, game_format, "book__game__")
    in_accounts = accounts_in_scope(scope, scope_id, game_format)
    return in_games if in_accounts is None else in_games | in_accounts


def accounts_in_scope(scope: str, scope_id: int, game_format: str) -> Q | None:
    """The postings of the scope's accounts' books; None for a game or a table of one format
    (an account has no format)."""
    if game_format or scope == StandingScope.GAME:
        return None
    paths: dict[str, str] = {
        StandingScope.SESSION: "book__session_account__session_id",
        StandingScope.SEASON: "book__session_account__session__season_id",
    }
    return Q(**{paths[scope]: scope_id})


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


def scope_facts(club: Club, scope: str, scope_id: int, game_format: str) -> ScopeFacts:
    # One group a format, in the order of the rows' index: a third cheaper than one row of
    # filtered aggregates (each row then tested against every format), and the same figures.
    aggregates: dict[str, Any] = {"count": Count("*")}
    for metric in RATIOS:
        assert metric.per is not None
        aggregates[f"{metric.id}_n"] = Max(Abs(metric.field))
        aggregates[f"{metric.id}_d"] = Max(metric.per)
    by_format: dict[str, Any] = {
        row["game_format"]: row
        for row in StandingRow.objects.filter(club=club, scope=scope, scope_id=scope_id)
        .values("game_format")
        .annotate(**aggregates)
        .order_by()
    }
    found: dict[str, Any] = by_format.get(game_format, {"count": 0})
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


def table_family(facts: ScopeFacts, scope: str, scope_id: int, game_format: str) -> str:
    """The game family whose ratings a table's rating metrics read: the family of its formats
    (a game's rows carry no format: its own is read); refused for a table of all formats that
    mixes Indian rummy and Rummikub."""
    formats = [game_format] if game_format else facts.played_formats
    if scope == StandingScope.GAME:
        formats = list(Game.objects.filter(pk=scope_id).values_list("format", flat=True))
    families = {HANDLERS[key].family for key in formats}
    if len(families) > 1:
        raise InvalidInput(
            "metrics: "
            + _(
                "this table mixes Indian rummy and Rummikub, rated apart; rank by rating in a "
                "table of one game format"
            ),
            code="bad_metric",
            details={"token": "rating"},
        )
    return next(iter(families), Family.INDIAN.value)


def rating_of(metric: Metric, family: str) -> Any:
    """A player's rating figure in a family; an unrated player stands at the model's start."""
    start = initial_skill()
    default = start.mu if metric.rating == "mu" else start.ordinal
    found = Rating.objects.filter(player_id=OuterRef("player_id"), family=family).values(
        metric.rating or "mu"
    )[:1]
    return Coalesce(Subquery(found), Value(default), output_field=FloatField())


def sql_key(metric: Metric) -> Any:
    """What the database orders a metric by: the total, or the quotient of a ratio (0 when
    nothing was played)."""
    if metric.per is None:
        return F(metric.field)
    return Case(
        When(**{metric.per: 0}, then=Value(0.0)),
        default=Cast(F(metric.field), FloatField()) / Cast(F(metric.per), FloatField()),
        output_field=FloatField(),
    )


def ranked_before(
    rows: QuerySet[StandingRow], order: list[Metric], wanted: dict[str, tuple[Any, ...]]
) -> dict[str, int]:
    """For each of ``wanted`` (a label: the keys of a row as the database reads them,
    ``sql_key``), how many of ``rows`` rank strictly before it; one query. The keys are
    compared as one row value, each negated where higher is better: one comparison a count,
    however many metrics order the table. (The ORM's form of it, a tree of ORs a metric over
    the annotated keys, took tens of milliseconds to build for a projector's dozen counts.)"""
    if not wanted:
        return {}
    keys = {
        f"k{index}": -sql_key(metric) if metric.descending else sql_key(metric)
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
