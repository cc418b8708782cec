"""A federation's lists (rules/federation.py): the ranking list against a computation written
here apart from the code it checks (fractions, not decimals), its properties, and the rating
list against a replay straight through ``openskill`` (docs/rules.md, "Federation")."""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from rules.errors import RuleViolation
from rules.federation import (
    RankedResult,
    RankingRules,
    RatingRules,
    ReleasedEvent,
    add_months,
    pack_ranking,
    period_bounds,
    place_points,
    ranking_list,
    rating_lists,
    unpack_ranking,
)

TIERS = {"club": "1", "open": "1.5", "national": "2.25"}


def _independent_ranking(results, as_of, window, full, best_n, tiers):
    """Player -> total, computed from the rule's words: 1000 (N - r) / (N - 1) x tier x
    (window - age) / (window - full) past the full-weight days, each rounded half up to
    hundredths, the best N summed."""
    totals = {}
    for player, own in results.items():
        points = []
        for _event, played_on, rank, size, tier in own:
            age = (as_of - played_on).days
            if age >= window:
                continue
            base = Fraction(1000 * (size - rank), size - 1) if size > 1 else Fraction(0)
            weight = Fraction(1) if age <= full else Fraction(window - age, window - full)
            exact = base * Fraction(tiers[tier]) * weight
            hundredths = (exact * 100 * 2 + 1) // 2  # half up (never negative)
            points.append(Fraction(hundredths, 100))
        if points:
            points.sort(reverse=True)
            totals[player] = sum(points[: best_n or len(points)], Fraction(0))
    return totals


def _world(seed, players=40, events=30):
    rng = random.Random(seed)
    start = date(2023, 1, 1)
    results = {p: [] for p in range(players)}
    for event in range(events):
        field = rng.sample(range(players), rng.randint(2, 12))
        day = start + timedelta(days=rng.randint(0, 3 * 365 + 100))
        tier = rng.choice(list(TIERS))
        ranks = sorted(rng.randint(1, len(field)) for _ in field)
        # Shared places as a table shows them (1, 1, 3): a rank is one more than those before.
        shown = [next(i + 1 for i, r in enumerate(ranks) if r == rank) for rank in ranks]
        for player, rank in zip(field, shown, strict=True):
            results[player].append((event, day, rank, len(field), tier))
    return results


@pytest.mark.parametrize("seed", range(6))
def test_the_ranking_list_equals_the_independent_computation(seed):
    results = _world(seed)
    as_of = date(2026, 3, 1)
    rules = RankingRules(window_days=1095, full_weight_days=365, best_n=4, tiers=TIERS)
    lines = ranking_list(
        {p: [RankedResult(*r) for r in own] for p, own in results.items()}, as_of, rules
    )
    expected = _independent_ranking(results, as_of, 1095, 365, 4, TIERS)
    assert {line.player: Fraction(line.total) for line in lines} == expected
    ordered = sorted(expected.items(), key=lambda item: (-item[1], item[0]))
    assert [line.player for line in lines] == [player for player, _ in ordered]
    for line in lines:
        assert line.rank == 1 + sum(
            1 for total in expected.values() if total > expected[line.player]
        )


def test_place_points_decay_and_tiers_by_hand():
    assert [place_points(r, 5) for r in range(1, 6)] == [1000, 750, 500, 250, 0]
    assert place_points(1, 1) == 0
    rules = RankingRules(window_days=1000, full_weight_days=200, best_n=2, tiers=TIERS)
    assert rules.decay(200) == 1 and rules.decay(600) == Decimal("0.5") and rules.decay(1000) == 0
    as_of = date(2026, 1, 1)
    own = [
        RankedResult("a", as_of - timedelta(days=600), 2, 5, "open"),  # 750 x 1.5 x 0.5
        RankedResult("b", as_of, 3, 4, "club"),  # 333.33...
        RankedResult("c", as_of, 4, 4, "national"),  # 0
        RankedResult("d", as_of - timedelta(days=1000), 1, 4, "national"),  # out of the window
    ]
    (line,) = ranking_list({"x": own}, as_of, rules)
    assert line.total == Decimal("562.50") + Decimal("333.33")
    assert [r.event for r in line.results if r.counted] == ["a", "b"]
    assert [r.event for r in line.results] == ["a", "b", "c"]
    # Kept in a cache as tuples and strings, the list comes back equal, every Decimal's digits.
    packed = pack_ranking([line])
    assert unpack_ranking(packed) == [line]
    assert str(unpack_ranking(packed)[0].results[0].weight) == str(line.results[0].weight)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"window_days": 0}, "bad_number"),
        ({"window_days": 10, "full_weight_days": 10}, "bad_number"),
        ({"best_n": 0}, "bad_number"),
        ({"tiers": {}}, "bad_tier"),
        ({"tiers": {"club": "0"}}, "bad_tier"),
    ],
)
def test_bad_ranking_rules_are_refused(kwargs, code):
    with pytest.raises(RuleViolation) as caught:
        RankingRules(**kwargs)
    assert caught.value.code == code


def test_an_unknown_tier_or_place_is_refused():
    rules = RankingRules(tiers=TIERS)
    with pytest.raises(RuleViolation):
        ranking_list(
            {1: [RankedResult(1, date(2026, 1, 1), 1, 3, "world")]}, date(2026, 1, 2), rules
        )
    with pytest.raises(RuleViolation):
        place_points(4, 3)


_results = st.lists(
    st.tuples(
        st.integers(0, 2000), st.integers(1, 20), st.integers(0, 19), st.sampled_from(list(TIERS))
    ),
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(_results, st.integers(1, 8))
def test_properties_best_n_bounds_and_monotony(raw, best_n):
    as_of = date(2026, 6, 1)
    own = [
        RankedResult(i, as_of - timedelta(days=age), min(rank, size), size, tier)
        for i, (age, size, rank, tier) in enumerate(
            (age, size, rank % size + 1, tier) for age, size, rank, tier in raw
        )
    ]
    rules = RankingRules(window_days=1095, full_weight_days=100, best_n=best_n, tiers=TIERS)
    wider = RankingRules(window_days=1095, full_weight_days=100, best_n=best_n + 1, tiers=TIERS)
    lines = ranking_list({"p": own}, as_of, rules)
    if not lines:
        assert all(r.played_on <= as_of - timedelta(days=1095) for r in own)
        return
    (line,) = lines
    # Never more than best N results, each at most 1000 x the largest tier.
    assert line.counted <= best_n
    assert Decimal(0) <= line.total <= best_n * 1000 * Decimal("2.25")
    # Counting one more result never lowers a total; the counted ones are the best.
    (more,) = ranking_list({"p": own}, as_of, wider)
    assert more.total >= line.total
    counted = [r.points for r in line.results if r.counted]
    others = [r.points for r in line.results if not r.counted]
    assert not others or min(counted) >= max(others)
    # A later day never raises a total (results only decay).
    later = ranking_list({"p": own}, as_of + timedelta(days=30), rules)
    assert not later or later[0].total <= line.total


def _openskill_replay(games):
    model = PlackettLuce()
    ratings = {}
    for ranks in games:
        players = list(ranks)
        teams = [[ratings.get(p) or model.rating()] for p in players]
        rated = model.rate(teams, ranks=[float(ranks[p]) for p in players])
        for player, team in zip(players, rated, strict=True):
            ratings[player] = team[0]
    return ratings


def test_the_rating_list_per_period_equals_an_openskill_replay_in_release_order():
    rng = random.Random(7)
    start = date(2026, 1, 1)
    events = []
    for index in range(12):
        games = []
        for _ in range(rng.randint(1, 4)):
            table = rng.sample(range(20), rng.randint(2, 4))
            games.append({p: rank for rank, p in enumerate(table, start=1)})
        events.append(ReleasedEvent(index, start + timedelta(days=index * 15), games))
    ends = [period_bounds(start, 1, i)[1] for i in range(6)]
    lists = rating_lists(events, ends, RatingRules(provisional_games=3))
    for end, listed in zip(ends, lists, strict=True):
        games = [g for e in events if e.released_on < end for g in e.games]
        expected = _openskill_replay(games)
        assert {line.player: (line.mu, line.sigma) for line in listed} == {
            p: (r.mu, r.sigma) for p, r in expected.items()
        }
        counts = {}
        for game in games:
            for p in game:
                counts[p] = counts.get(p, 0) + 1
        assert {line.player for line in listed if line.provisional} == {
            p for p, n in counts.items() if n < 3
        }
        ranked = [line for line in listed if not line.provisional]
        assert [line.rank for line in ranked] == list(range(1, len(ranked) + 1))
        assert [line.ordinal for line in ranked] == sorted(
            (line.ordinal for line in ranked), reverse=True
        )


def test_events_out_of_release_order_are_refused_and_months_end_well():
    events = [ReleasedEvent(1, date(2026, 2, 1), []), ReleasedEvent(2, date(2026, 1, 1), [])]
    with pytest.raises(RuleViolation):
        rating_lists(events, [date(2026, 3, 1)], RatingRules())
    assert add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert period_bounds(date(2026, 1, 1), 3, 1) == (date(2026, 4, 1), date(2026, 7, 1))
