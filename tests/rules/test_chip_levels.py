"""The chip-level tournament settings and arithmetic (``rules.chip_levels``): the default
preset, every bad setting refused naming it, a level's split at its thresholds, and chips
zero-sum whenever the points are."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.chip_levels import (
    DEFAULT_CHIP_LEVELS,
    ChipLevel,
    ChipLevelRules,
    chips_for_points,
    level_split,
)
from rules.errors import RuleViolation


def test_the_default_preset_is_the_online_sites_levels():
    rules = DEFAULT_CHIP_LEVELS
    assert rules.starting_chips == 1000
    assert [lv.point_value for lv in rules.levels] == [5, 10, 15, 20]
    assert [lv.minimum for lv in rules.levels] == [800, 1000, 1200, 1600]
    assert rules.levels[0].qualify == 1200
    assert ChipLevelRules.from_dict(rules.as_dict()) == rules
    assert rules.level(9) == rules.levels[-1]  # past the last level, the last


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"levels": [{"point_value": 5, "minimum": 900, "qualify": 900}]}, "qualify"),
        ({"levels": [{"point_value": 0, "minimum": 800, "qualify": 1200}]}, "point_value"),
        ({"levels": [{"point_value": 1.5, "minimum": 800, "qualify": 1200}]}, "point_value"),
        ({"levels": []}, "levels"),
        ({"levels": [{"point_value": 5}]}, "levels[1]"),
        ({"starting_chips": 700}, "starting_chips"),
        ({"rebuys": 1, "rebuy_until_level": 9}, "rebuy_until_level"),
        ({"rebuy_price_minor": "5"}, "rebuy_price_minor"),
        ({"blinds": 5}, "blinds"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(settings, named):
    with pytest.raises(RuleViolation) as refused:
        ChipLevelRules.from_dict(settings)
    assert named in str(refused.value)


def test_a_level_splits_at_its_thresholds():
    level = ChipLevel(point_value=5, minimum=800, qualify=1200)
    split = level_split({"a": 799, "b": 800, "c": 1199, "d": 1200, "e": 2000}, level)
    assert split.out == ("a",)
    assert split.between == ("c", "b")
    assert split.qualified == ("e", "d")


@given(st.lists(st.integers(min_value=-400, max_value=400), min_size=2, max_size=6))
def test_chips_are_zero_sum_when_the_points_are(losses):
    points = {f"p{i}": -x for i, x in enumerate(losses)}
    points["winner"] = sum(losses)
    for level in DEFAULT_CHIP_LEVELS.levels:
        moves = chips_for_points(points, level)
        assert sum(moves.values()) == 0
        assert all(moves[p] == points[p] * level.point_value for p in points)
