"""A federation's two lists, kept apart (docs/rules.md, "Federation").

The **rating list** is skill: the released events' rated games replayed through OpenSkill
(``rules.ratings``) in release order, then each event's games in their own order; a player is
provisional until a minimum number of rated games. A list is published per rating period: the
list of a period takes every event released before the period ends.

The **ranking list** is results: an event scores ``1000 x (N - rank) / (N - 1)`` by place in a
field of N, times its tier's multiplier, times a decay by age (full weight for a number of days,
then falling linearly to 0 at the end of the window); a player's best N results of the window
count. Exact ``Decimal`` arithmetic, each result rounded half up to hundredths.

Pure: players and events are any hashable keys; nothing here knows about clubs or the database."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from itertools import pairwise
from typing import Any, Generic, TypeVar

from rules.errors import RuleViolation
from rules.ratings import DEFAULT_MODEL, RatingModel, Replay, Skill
from rules.series import CENT, tier_multiplier

K = TypeVar("K", bound=Hashable)
E = TypeVar("E", bound=Hashable)

#: The winner's points in a field of two or more (the last scores 0).
TOP_POINTS = Decimal(1000)


# --- the ranking list ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RankingRules:
    """How a federation ranks: the window in days (results older than it count nothing), the
    days a result keeps its full weight before it starts to decay, how many of the best results
    count (``None``: all), and each tier's multiplier (hundredths, e.g. ``{"club": "1"}``)."""

    window_days: int = 3 * 365
    full_weight_days: int = 0
    best_n: int | None = 5
    tiers: Mapping[str, str] = field(default_factory=lambda: {"regular": "1"})

    def __post_init__(self) -> None:
        if self.window_days < 1:
            raise RuleViolation("bad_number", "window_days: 1 day or more")
        if not 0 <= self.full_weight_days < self.window_days:
            raise RuleViolation(
                "bad_number", "full_weight_days: 0 or more and shorter than the window"
            )
        if self.best_n is not None and self.best_n < 1:
            raise RuleViolation("bad_number", "best_n: count 1 result or more (empty: all)")
        if not self.tiers:
            raise RuleViolation("bad_tier", "tiers: name one tier at least")
        for multiplier in self.tiers.values():
            tier_multiplier(multiplier)

    def multiplier(self, tier: str) -> Decimal:
        if tier not in self.tiers:
            raise RuleViolation(
                "bad_tier", f"tier: use one of {', '.join(self.tiers)}, not {tier!r}"
            )
        return tier_multiplier(self.tiers[tier])

    def decay(self, age_days: int) -> Decimal:
        """The weight of a result ``age_days`` old: 1 up to ``full_weight_days``, then linearly
        down to 0 at ``window_days`` (and 0 beyond; a result dated after the list counts full)."""
        if age_days <= self.full_weight_days:
            return Decimal(1)
        if age_days >= self.window_days:
            return Decimal(0)
        return Decimal(self.window_days - age_days) / Decimal(
            self.window_days - self.full_weight_days
        )


def place_points(rank: int, field_size: int) -> Decimal:
    """``1000 x (N - rank) / (N - 1)``: the winner 1000, the last 0 (players sharing a place
    share its points). A field of one scores nothing: there was nobody to beat."""
    if field_size < 1 or not 1 <= rank <= field_size:
        raise RuleViolation("bad_place", f"place {rank} is not in a field of {field_size}")
    if field_size == 1:
        return Decimal(0)
    return TOP_POINTS * (field_size - rank) / (field_size - 1)


@dataclass(frozen=True)
class RankedResult(Generic[E]):
    """One player's result in one released event: when it was played, the place, the field."""

    event: E
    played_on: date
    rank: int
    field_size: int
    tier: str


@dataclass(frozen=True)
class ScoredResult(Generic[E]):
    event: E
    played_on: date
    base: Decimal
    weight: Decimal
    points: Decimal
    counted: bool


@dataclass(frozen=True)
class RankingLine(Generic[K, E]):
    rank: int
    player: K
    total: Decimal
    results: tuple[ScoredResult[E], ...]

    @property
    def counted(self) -> int:
        return sum(1 for result in self.results if result.counted)


def score_result(result: RankedResult[E], as_of: date, rules: RankingRules) -> Decimal:
    """A result's points on ``as_of``: place points x tier x decay, rounded half up to hundredths
    once (at the end, so no rounding compounds)."""
    base = place_points(result.rank, result.field_size)
    weight = rules.decay((as_of - result.played_on).days)
    raw = base * rules.multiplier(result.tier) * weight
    return raw.quantize(CENT, rounding=ROUND_HALF_UP)


def ranking_list(
    results: Mapping[K, Iterable[RankedResult[E]]], as_of: date, rules: RankingRules
) -> list[RankingLine[K, E]]:
    """Every player with a result inside the window on ``as_of``, best total first. The best N
    results count (among equal ones the most recent); players equal on total share the rank
    (1, 2, 2, 4) and are listed by their key."""
    lines: list[tuple[Decimal, K, tuple[ScoredResult[E], ...]]] = []
    for player, own in results.items():
        scored = []
        for result in own:
            age = (as_of - result.played_on).days
            if age >= rules.window_days:
                continue
            scored.append((score_result(result, as_of, rules), result))
        if not scored:
            continue
        scored.sort(key=lambda pair: (pair[0], pair[1].played_on), reverse=True)
        keep = len(scored) if rules.best_n is None else rules.best_n
        out = tuple(
            ScoredResult(
                event=result.event,
                played_on=result.played_on,
                base=place_points(result.rank, result.field_size).quantize(
                    CENT, rounding=ROUND_HALF_UP
                ),
                weight=rules.decay((as_of - result.played_on).days),
                points=points,
                counted=index < keep,
            )
            for index, (points, result) in enumerate(scored)
        )
        total = sum((r.points for r in out if r.counted), Decimal(0))
        lines.append((total, player, out))
    lines.sort(key=lambda line: (-line[0], _order_key(line[1])))
    ranked: list[RankingLine[K, E]] = []
    for index, (total, player, out) in enumerate(lines):
        rank = ranked[-1].rank if ranked and ranked[-1].total == total else index + 1
        ranked.append(RankingLine(rank=rank, player=player, total=total, results=out))
    return ranked


def _order_key(key: Hashable) -> tuple[int, int, str]:
    """Whole-number keys in their order, any other key by its text after them."""
    return (0, key, "") if isinstance(key, int) else (1, 0, repr(key))


# --- the rating list ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingRules:
    """Provisional until this many rated games; the OpenSkill model's parameters."""

    provisional_games: int = 5
    model: RatingModel = DEFAULT_MODEL

    def __post_init__(self) -> None:
        if self.provisional_games < 0:
            raise RuleViolation("bad_number", "provisional_games: 0 or more")


@dataclass(frozen=True)
class RatingLine(Generic[K]):
    rank: int | None
    player: K
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool


@dataclass(frozen=True)
class ReleasedEvent(Generic[K, E]):
    """A released event's rated games, in their own order, and when it was released."""

    event: E
    released_on: date
    games: Sequence[Mapping[K, int]]


def rating_lines(skills: Mapping[K, Skill], rules: RatingRules) -> list[RatingLine[K]]:
    """The rated players, highest ordinal (mu - 3 sigma) first; the established ones are
    ranked (1, 2, 3, ...), the provisional ones listed after them without a rank."""
    ordered = sorted(
        skills.items(),
        key=lambda item: (
            item[1].games < rules.provisional_games,
            -item[1].ordinal,
            _order_key(item[0]),
        ),
    )
    lines: list[RatingLine[K]] = []
    place = 0
    for player, skill in ordered:
        provisional = skill.games < rules.provisional_games
        if not provisional:
            place += 1
        lines.append(
            RatingLine(
                rank=None if provisional else place,
                player=player,
                mu=skill.mu,
                sigma=skill.sigma,
                ordinal=skill.ordinal,
                games=skill.games,
                provisional=provisional,
            )
        )
    return lines


def rating_lists(
    events: Iterable[ReleasedEvent[K, E]], period_ends: Sequence[date], rules: RatingRules
) -> list[list[RatingLine[K]]]:
    """The rating list at the end of each period (``period_ends`` ascending; a period ending on
    a day takes the events released before that day): one replay in release order, the events
    given in that order."""
    if list(period_ends) != sorted(period_ends):
        raise RuleViolation("bad_number", "period ends: give them in order")
    state: Replay[K] = Replay(rules.model)
    pending = list(events)
    for before, after in pairwise(pending):
        if after.released_on < before.released_on:
            raise RuleViolation("bad_number", "events: give them in the order they were released")
    lists: list[list[RatingLine[K]]] = []
    position = 0
    for end in period_ends:
        while position < len(pending) and pending[position].released_on < end:
            for ranks in pending[position].games:
                state.apply(ranks)
            position += 1
        lists.append(rating_lines(dict(state.skills), rules))
    return lists


def add_months(day: date, months: int) -> date:
    """The same day ``months`` later (the month's last day when it has fewer days)."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise AssertionError("unreachable")


def period_bounds(start: date, months: int, index: int) -> tuple[date, date]:
    """Period ``index`` (0 first) of ``months`` months from ``start``: [first day, end day)."""
    if months < 1:
        raise RuleViolation("bad_number", "rating period: 1 month or more")
    return add_months(start, months * index), add_months(start, months * (index + 1))


# A ranking list kept (in a cache) as plain tuples and strings: unpickling 10,000 lines of
# dataclasses and Decimals took about twice as long as building them again from these.
PackedRanking = list[tuple[Any, Any, str, list[tuple[Any, int, str, str, str, bool]]]]


def pack_ranking(lines: list[RankingLine[K, E]]) -> PackedRanking:
    return [
        (
            line.rank,
            line.player,
            str(line.total),
            [
                (r.event, r.played_on.toordinal(), str(r.base), str(r.weight), str(r.points),
                 r.counted)
                for r in line.results
            ],
        )
        for line in lines
    ]  # fmt: skip


def unpack_ranking(packed: PackedRanking) -> list[RankingLine[Any, Any]]:
    return [
        RankingLine(
            rank,
            player,
            Decimal(total),
            tuple(
                ScoredResult(event, date.fromordinal(day), Decimal(b), Decimal(w), Decimal(p), c)
                for event, day, b, w, p, c in results
            ),
        )
        for rank, player, total, results in packed
    ]
