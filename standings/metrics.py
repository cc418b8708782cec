"""The standings' metrics: the registry (``METRICS``, stable ids the API and the club's
``standings_metrics`` keep), the exact key a row ranks by and the order a table ranks by."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.models import Club
from config.errors import InvalidInput
from scoring.formats import FORMAT_ORDER, HANDLERS


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


def _tally_metrics() -> list[Metric]:
    """The metrics of the counts the formats declare (``tallies``: points conceded, drops, full
    counts), each once, in the formats' order; fewest first."""
    found: dict[str, Metric] = {}
    for key in FORMAT_ORDER:
        for tally in HANDLERS[key].tallies:
            found.setdefault(
                tally.metric,
                Metric(tally.metric, tally.label, tally.description, False, tally.field,
                       in_points=tally.in_points),
            )  # fmt: skip
    return list(found.values())


METRICS: dict[str, Metric] = {
    metric.id: metric
    for metric in [
        Metric("points", gettext_noop("Points"), gettext_noop("Net points: won minus lost."),
               True, "points", in_points=True),
        Metric("money", gettext_noop("Money"), gettext_noop("Net money won, in minor units."),
               True, "money_minor"),
        Metric("chips", gettext_noop("Chips"), gettext_noop("Chips held (deals rummy)."), True,
               "chips"),
        Metric("deals_won", gettext_noop("Deals won"),
               gettext_noop("Deals (or Rummikub games) won."), True, "deals_won"),
        Metric("deals_played", gettext_noop("Deals played"),
               gettext_noop("Deals (or Rummikub games) played."), True, "deals_played"),
        Metric("win_rate", gettext_noop("Win rate"), gettext_noop("Deals won per deal played."),
               True, "deals_won", per="deals_played"),
        Metric("points_per_deal", gettext_noop("Points per deal"),
               gettext_noop("Net points per deal played."), True, "points", per="deals_played",
               in_points=True),
        *_tally_metrics(),
        Metric("rating", gettext_noop("Rating"),
               gettext_noop("Skill rating (mu) in the table's game family."), True, "rating_mu",
               rating="mu"),
        Metric("ordinal", gettext_noop("Ordinal"),
               gettext_noop("Skill rating less three times its uncertainty (mu - 3 sigma) in the "
                            "table's game family."),
               True, "rating_ordinal", rating="ordinal"),
    ]
}  # fmt: skip
#: What a table ranks by when every metric of its order is in points and it mixes formats.
UNITLESS_ORDER = ["money", "deals_won", "win_rate"]


def rank_key(order: Sequence[Metric], totals: dict[str, Any]) -> tuple[Any, ...]:
    """The exact key a row ranks by (smaller first): each metric, negated where higher is
    better. The one comparison of the live tables and the tables as they stood."""
    return tuple(-m.exact(totals) if m.descending else m.exact(totals) for m in order)


DEFAULT_ORDER = ["points", "deals_won", "win_rate"]


def club_metrics(club: Club) -> list[Metric]:
    """The metrics a club's standings may rank by: all of them, but money in a club that plays
    for points only (no money shown)."""
    return [m for m in METRICS.values() if not (club.points_only and m.id == MONEY_METRIC)]


MONEY_METRIC = "money"


def metric_order(club: Club, requested: Sequence[str] | None = None) -> list[Metric]:
    """The metrics that rank a table: the request's, else the club's, else the default. A club
    that plays for points only ranks by no money: asked for, it is refused; in the club's own
    order (kept from before), it is left out."""
    if requested:
        check_metric_ids(requested, club=club)
    ids = list(requested or club.standings_metrics or DEFAULT_ORDER)
    check_metric_ids(ids)
    if club.points_only:
        ids = [metric_id for metric_id in ids if metric_id != MONEY_METRIC] or DEFAULT_ORDER
    return [METRICS[metric_id] for metric_id in ids]


def check_metric_ids(ids: Iterable[str], club: Club | None = None) -> None:
    seen: set[str] = set()
    for metric_id in ids:
        if club is not None and club.points_only and metric_id == MONEY_METRIC:
            raise InvalidInput(
                "metrics: "
                + _("%(club)s plays for points only: its standings rank by no money")
                % {"club": club.name},
                code="points_only",
                details={"token": metric_id},
            )
        if metric_id not in METRICS:
            raise InvalidInput(
                "metrics: "
                + _("unknown metric %(metric)s; use %(metrics)s")
                % {"metric": repr(metric_id), "metrics": ", ".join(METRICS)},
                code="bad_metric",
                details={"token": metric_id},
            )
        if metric_id in seen:
            words = _("%(metric)s is listed twice") % {"metric": repr(metric_id)}
            raise InvalidInput("metrics: " + words, code="bad_metric")
        seen.add(metric_id)


def order_for(
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
        kept = [METRICS[m] for m in UNITLESS_ORDER if not (club.points_only and m == MONEY_METRIC)]
    return kept, left_out
