"""A series' arithmetic (a club's season series, later a federation's ranking): points for a
place in an event, by a table of places or by share of the field, times the event's tier; a
player's best results counted; the table ranked. Pure functions on exact decimals.

The decisions (docs/rules.md, "Series"): players who share a place each score that place's
points (a 1, 2, 2, 4 field gives both second places the second's points); an event's points
are rounded half up to hundredths after the tier's multiplier; players equal on total points
rank by more events won, then by their best counted result, then share the rank."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from rules.errors import RuleViolation

CENT = Decimal("0.01")
BY_PLACE = "place"
BY_SHARE = "share"


@dataclass(frozen=True)
class PointsTable:
    """Points by place: ``by_place`` lists the points of places 1, 2, ... (places beyond it
    score 0); or, ``by`` share of the field, ``top`` x (N - place) / (N - 1) of a field of N
    (the winner ``top``, the last 0; a field of one scores ``top``)."""

    by: str = BY_PLACE
    by_place: tuple[int, ...] = ()
    top: int = 0

    def __post_init__(self) -> None:
        if self.by not in (BY_PLACE, BY_SHARE):
            raise RuleViolation(
                "bad_points_table", f"points_by: use place or share, not {self.by!r}"
            )
        if self.by == BY_PLACE and not self.by_place:
            raise RuleViolation(
                "bad_points_table", "points_table: give the points of place 1 at least"
            )
        if any(points < 0 for points in self.by_place) or self.top < 0:
            raise RuleViolation("bad_points_table", "points_table: points are 0 or more")
        if list(self.by_place) != sorted(self.by_place, reverse=True):
            raise RuleViolation(
                "bad_points_table", "points_table: a place scores no more than the place before it"
            )
        if self.by == BY_SHARE and self.top <= 0:
            raise RuleViolation(
                "bad_points_table", "share_top: give the winner's points (1 or more)"
            )

    def points(self, place: int, field_size: int) -> Decimal:
        """The points of ``place`` (1 best) in a field of ``field_size``."""
        if place < 1 or field_size < place:
            raise RuleViolation("bad_place", f"place {place} is not in a field of {field_size}")
        if self.by == BY_SHARE:
            if field_size == 1:
                return Decimal(self.top)
            share = Decimal(self.top) * (field_size - place) / (field_size - 1)
            return share.quantize(CENT, rounding=ROUND_HALF_UP)
        return Decimal(self.by_place[place - 1]) if place <= len(self.by_place) else Decimal(0)


def tier_multiplier(raw: str | int | Decimal) -> Decimal:
    """A tier's multiplier read exactly (a number above 0, hundredths at most)."""
    try:
        value = Decimal(str(raw))
    except ArithmeticError:
        raise RuleViolation("bad_tier", f"tiers: {raw!r} is not a number") from None
    if not value.is_finite() or value <= 0 or value != value.quantize(CENT) or value > 100:
        raise RuleViolation(
            "bad_tier", f"tiers: a multiplier is above 0, up to 100, in hundredths, not {raw!r}"
        )
    return value


def event_points(table: PointsTable, place: int, field_size: int, multiplier: Decimal) -> Decimal:
    """A place's points in an event of a tier: rounded half up to hundredths."""
    return (table.points(place, field_size) * multiplier).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class EventResult:
    """One player's result in one event of the series."""

    event_id: int
    place: int
    field_size: int
    points: Decimal


@dataclass
class SeriesLine:
    """A player's line of a series table: ``total`` of the best ``best_n`` results (``counted``
    their event ids); ``ranked`` once they played ``min_events``; ``rank`` None otherwise."""

    player_id: int
    total: Decimal
    played: int
    wins: int
    counted: list[int]
    results: list[EventResult] = field(default_factory=list)
    ranked: bool = True
    rank: int | None = None


def _counted(results: Sequence[EventResult], best_n: int | None) -> list[EventResult]:
    """The best ``best_n`` results (all when None): most points first, an earlier event first
    among equal points (which of them counts changes no total)."""
    ordered = sorted(results, key=lambda r: (-r.points, r.event_id))
    return ordered if best_n is None else ordered[:best_n]


def _tie_key(line: SeriesLine) -> tuple[Decimal, int, Decimal]:
    best = max((r.points for r in line.results if r.event_id in line.counted), default=Decimal(0))
    return (-line.total, -line.wins, -best)


def series_lines(
    results: Mapping[int, Iterable[EventResult]], *, best_n: int | None, min_events: int
) -> list[SeriesLine]:
    """The series table from each player's results: the ranked players (those with at least
    ``min_events`` events) first, by ``_tie_key`` (equal keys share a rank: 1, 2, 2, 4), then
    the others by the same key, unranked; equal keys are listed by player id."""
    lines: list[SeriesLine] = []
    for player_id, found in results.items():
        own = sorted(found, key=lambda r: r.event_id)
        counted = _counted(own, best_n)
        lines.append(
            SeriesLine(
                player_id=player_id,
                total=sum((r.points for r in counted), Decimal(0)),
                played=len(own),
                wins=sum(1 for r in own if r.place == 1),
                counted=sorted(r.event_id for r in counted),
                results=own,
                ranked=len(own) >= min_events,
            )
        )
    lines.sort(key=lambda line: (not line.ranked, _tie_key(line), line.player_id))
    previous: tuple[Decimal, int, Decimal] | None = None
    for index, line in enumerate(lines):
        if not line.ranked:
            break
        key = _tie_key(line)
        line.rank = lines[index - 1].rank if key == previous else index + 1
        previous = key
    return lines
