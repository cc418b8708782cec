"""A series' arithmetic (rules/series.py): points by place and by share of the field, tiers,
best N, the minimum events and the order of equal totals (docs/rules.md, "Season series")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rules.errors import RuleViolation
from rules.series import EventResult, PointsTable, event_points, series_lines, tier_multiplier


def test_points_by_place_and_beyond_the_table():
    table = PointsTable(by_place=(10, 7, 5))
    assert [table.points(place, 5) for place in range(1, 6)] == [10, 7, 5, 0, 0]


def test_points_by_share_of_the_field():
    table = PointsTable(by="share", top=1000)
    assert [table.points(place, 4) for place in range(1, 5)] == [
        Decimal(1000),
        Decimal("666.67"),
        Decimal("333.33"),
        Decimal(0),
    ]
    assert table.points(1, 1) == 1000


def test_tiers_multiply_and_round_half_up():
    assert event_points(PointsTable(by_place=(7,)), 1, 3, tier_multiplier("1.5")) == Decimal(
        "10.50"
    )
    assert event_points(PointsTable(by="share", top=1), 2, 3, Decimal("1.01")) == Decimal("0.51")


@pytest.mark.parametrize("bad", ["0", "-1", "1.234", "abc", "NaN", "101"])
def test_a_bad_multiplier_is_refused(bad):
    with pytest.raises(RuleViolation) as caught:
        tier_multiplier(bad)
    assert caught.value.code == "bad_tier"


@pytest.mark.parametrize("table", [{"by_place": (5, 10)}, {"by_place": ()}, {"by": "share"},
                                   {"by": "odd", "by_place": (1,)}])  # fmt: skip
def test_a_bad_points_table_is_refused(table):
    with pytest.raises(RuleViolation) as caught:
        PointsTable(**table)
    assert caught.value.code == "bad_points_table"


def _r(event: int, place: int, points: str) -> EventResult:
    return EventResult(event, place, 4, Decimal(points))


def test_best_n_and_the_minimum_events():
    lines = series_lines(
        {1: [_r(1, 1, "10"), _r(2, 3, "5"), _r(3, 2, "7")], 2: [_r(1, 2, "7")]},
        best_n=2, min_events=2,
    )  # fmt: skip
    first, second = lines
    assert (first.player_id, first.total, first.counted, first.rank) == (1, 17, [1, 3], 1)
    assert (second.player_id, second.ranked, second.rank) == (2, False, None)


def test_equal_totals_rank_by_wins_then_best_result_then_share():
    lines = series_lines(
        {
            1: [_r(1, 2, "7"), _r(2, 2, "7")],  # 14, no win, best 7
            2: [_r(1, 1, "10"), _r(2, 4, "4")],  # 14, one win
            3: [_r(1, 3, "5"), _r(2, 3, "9")],  # 14, no win, best 9
            4: [_r(1, 2, "7"), _r(2, 2, "7")],  # as player 1: they share
        },
        best_n=None, min_events=1,
    )  # fmt: skip
    assert [(line.player_id, line.rank) for line in lines] == [(2, 1), (3, 2), (1, 3), (4, 3)]
