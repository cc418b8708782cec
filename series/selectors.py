"""The series' reads: a club's series, an event's places as the standings (a night) or the
tournament (its places) read them, the series table from the kept results, its awards, and the
table recomputed from the events themselves (always equal to the kept one)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_noop

from clubs.models import Club, Player
from config.errors import NotFoundError
from rules.series import CENT, EventResult, PointsTable, SeriesLine, event_points, series_lines
from rules.series import tier_multiplier as multiplier_of
from scoring.models import StandingScope
from series.models import Series, SeriesEvent, SeriesResult
from standings.models import RatingChange
from standings.tables import standings_facts, standings_table
from tournaments.models import Tournament

AWARD_KINDS = {
    # Words, marked here and put in the page's language where they are shown.
    "most_wins": gettext_noop("Most events won"),
    "best_average": gettext_noop("Best average series points an event (ranked players)"),
    "most_improved": gettext_noop(
        "Most rating gained in the series' games (ordinal, mu - 3 sigma)"
    ),
}


def series_list(*, club: Club) -> QuerySet[Series]:
    return Series.objects.filter(club=club).order_by("-created_at", "-id")


def series_get(*, club: Club, series_id: int) -> Series:
    found = Series.objects.filter(club=club, pk=series_id).first()
    if found is None:
        words = gettext("no series #%(id)s in %(club)s")
        raise NotFoundError(words % {"id": series_id, "club": club.name})
    return found


def series_events(*, series: Series) -> list[SeriesEvent]:
    return list(series.events.select_related("session", "tournament").order_by("id"))


def event_label(event: SeriesEvent) -> str:
    if event.tournament is not None:
        return event.tournament.name
    assert event.session is not None
    return event.session.name


def points_table_of(series: Series) -> PointsTable:
    return PointsTable(
        by=series.points_by, by_place=tuple(series.points_table or ()), top=series.share_top
    )


def event_places(*, event: SeriesEvent) -> dict[int, int]:
    """Player id -> place in the event: a night's rank in its standings table (the club's
    order of metrics, players equal on every metric sharing a place), a finished tournament's
    places; nothing for a tournament not finished."""
    if event.tournament_id is not None:
        tournament = Tournament.objects.get(pk=event.tournament_id)
        if tournament.status != Tournament.Status.FINISHED:
            return {}
        placed = tournament.entries.filter(place__isnull=False)
        return {pid: place for pid, place in placed.values_list("player_id", "place") if place}
    assert event.session_id is not None
    club = event.series.club
    facts = standings_facts(club=club, scope=StandingScope.SESSION, scope_id=event.session_id)
    if not facts.count:
        return {}
    table = standings_table(
        club=club,
        scope=StandingScope.SESSION,
        scope_id=event.session_id,
        limit=facts.count,
        facts=facts,
    )
    return {line.player_id: line.rank for line in table.lines}


def event_results(*, event: SeriesEvent, series: Series) -> dict[int, tuple[int, int, Decimal]]:
    """Player id -> (place, field size, series points) of an event, from its places now."""
    places = event_places(event=event)
    table = points_table_of(series)
    multiplier = multiplier_of(series.tiers.get(event.tier, "1"))
    size = len(places)
    return {
        pid: (place, size, event_points(table, place, size, multiplier))
        for pid, place in places.items()
    }


@dataclass
class Award:
    kind: str
    name: str
    description: str
    player_ids: list[int]
    players: list[str]
    value: str


@dataclass
class SeriesTable:
    series: Series
    events: list[SeriesEvent]
    lines: list[SeriesLine]
    names: dict[int, str]
    awards: list[Award] = field(default_factory=list)

    def rows(self) -> list[dict[str, Any]]:
        """The lines as every reader shows them (the API, the pages, the CSV)."""
        return [
            {
                "rank": line.rank,
                "ranked": line.ranked,
                "player_id": line.player_id,
                "name": self.names[line.player_id],
                "total": line.total,
                "played": line.played,
                "wins": line.wins,
                "average": _average(line),
                "counted": line.counted,
                "results": [
                    {
                        "event": r.event_id,
                        "place": r.place,
                        "field_size": r.field_size,
                        "points": r.points,
                        "counted": r.event_id in line.counted,
                    }
                    for r in line.results
                ],
            }
            for line in self.lines
        ]


def _average(line: SeriesLine) -> Decimal:
    """Series points an event played (every result, counted or not)."""
    if not line.played:
        return Decimal("0.00")
    total = sum((r.points for r in line.results), Decimal(0))
    return (total / line.played).quantize(CENT, rounding=ROUND_HALF_UP)


def _lines(series: Series, results: dict[int, list[EventResult]]) -> list[SeriesLine]:
    return series_lines(results, best_n=series.best_n, min_events=series.min_events)


def series_table(*, series: Series) -> SeriesTable:
    """The series table from the kept results: the one source of every page, API and CSV."""
    results: dict[int, list[EventResult]] = defaultdict(list)
    for event_id, pid, place, size, points in SeriesResult.objects.filter(
        event__series=series
    ).values_list("event_id", "player_id", "place", "field_size", "points"):
        results[pid].append(EventResult(event_id, place, size, points))
    return _table(series, results)


def series_table_recompute(*, series: Series) -> SeriesTable:
    """The series table computed afresh from the events' places: always equal to
    ``series_table``."""
    results: dict[int, list[EventResult]] = defaultdict(list)
    for event in series_events(series=series):
        for pid, (place, size, points) in event_results(event=event, series=series).items():
            results[pid].append(EventResult(event.pk, place, size, points))
    return _table(series, results)


def _table(series: Series, results: dict[int, list[EventResult]]) -> SeriesTable:
    lines = _lines(series, results)
    names = dict(Player.objects.filter(pk__in=results).values_list("pk", "name"))
    events = series_events(series=series)
    table = SeriesTable(series, events, lines, names)
    table.awards = _awards(series, table)
    return table


def _best(scores: dict[int, Decimal]) -> list[int]:
    if not scores:
        return []
    top = max(scores.values())
    return sorted(pid for pid, value in scores.items() if value == top)


def rating_gains(*, events: list[SeriesEvent]) -> dict[int, Decimal]:
    """Each player's rating gained in the series' games: the sum of their ordinal's changes
    (mu - 3 sigma, after minus before) over the rated games of the events' sessions."""
    sessions = [e.session_id for e in events if e.session_id is not None]
    sessions += [
        e.tournament.session_id
        for e in events
        if e.tournament is not None and e.tournament.session_id is not None
    ]
    gains: dict[int, Decimal] = defaultdict(Decimal)
    changes = RatingChange.objects.filter(rated_game__game__table__session_id__in=sessions)
    for pid, mu_b, sigma_b, mu_a, sigma_a in changes.values_list(
        "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after"
    ):
        gains[pid] += Decimal(repr((mu_a - 3 * sigma_a) - (mu_b - 3 * sigma_b)))
    return {pid: gain.quantize(CENT, rounding=ROUND_HALF_UP) for pid, gain in gains.items()}


def _awards(series: Series, table: SeriesTable) -> list[Award]:
    """The awards the club named, each with its winners (all of those equal at the top)."""
    found: list[Award] = []
    for award in series.awards or []:
        kind = award["kind"]
        scores: dict[int, Decimal] = {}
        if kind == "most_wins":
            scores = {line.player_id: Decimal(line.wins) for line in table.lines if line.wins}
        elif kind == "best_average":
            scores = {line.player_id: _average(line) for line in table.lines if line.ranked}
        elif kind == "most_improved":
            gains = rating_gains(events=table.events)
            scores = {pid: gain for pid, gain in gains.items() if gain > 0 and pid in table.names}
        winners = _best(scores)
        found.append(
            Award(
                kind,
                award["name"],
                AWARD_KINDS[kind],
                winners,
                [table.names[pid] for pid in winners],
                str(scores[winners[0]]) if winners else "",
            )
        )
    return found
