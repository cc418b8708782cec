"""Points rummy: the money of one deal (formats.md, "Points rummy")."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleViolation
from rules.indian.points import FULL_COUNT, points_deal
from rules.money import FeePolicy

SEED_LOSERS = {"P2": 45, "P3": 78, "P4": 23, "P5": 20, "P6": 40}


def seed_points() -> dict[str, int]:
    return {"P1": 0, **SEED_LOSERS}


class TestPointsDeal:
    def test_seed_example_winner_receives_82400_paise(self) -> None:
        """formats.md Points rummy, seed example: losers 45, 78, 23, 20, 40 at Rs 4 a point: the
        winner receives Rs 824 (82,400 paise) before the fee."""
        deal = points_deal(seed_points(), "P1", 400, FeePolicy.no_fee())
        assert deal.winnings_minor == 82_400
        assert deal.money == {
            "P1": 82_400,
            "P2": -18_000,
            "P3": -31_200,
            "P4": -9_200,
            "P5": -8_000,
            "P6": -16_000,
        }
        assert deal.points == {"P1": 206, "P2": -45, "P3": -78, "P4": -23, "P5": -20, "P6": -40}
        assert deal.club_fee == 0

    def test_winner_receives_the_sum_less_the_fee(self) -> None:
        """formats.md Points rummy: losers pay points x value; the winner receives the sum less the
        club's fee (10% of 82,400 = 8,240)."""
        deal = points_deal(seed_points(), "P1", 400, FeePolicy.percentage(Decimal("10")))
        assert deal.club_fee == 8_240
        assert deal.money["P1"] == 74_160
        assert sum(deal.money.values()) + deal.club_fee == 0

    def test_fee_rounds_half_up(self) -> None:
        """formats.md Points rummy: the fee is rounded to the minor unit, half up."""
        deal = points_deal({"w": 0, "l": 15}, "w", 1, FeePolicy.percentage("10"))
        assert deal.winnings_minor == 15
        assert deal.club_fee == 2  # 1.5 -> 2
        assert deal.money == {"w": 13, "l": -15}

    def test_flat_fee(self) -> None:
        """formats.md Points rummy: a flat amount per deal (parameter)."""
        deal = points_deal({"w": 0, "l": 2}, "w", 100, FeePolicy.flat(500))
        assert deal.club_fee == 200  # never more than the winnings
        assert deal.money == {"w": 0, "l": -200}

    @given(
        st.lists(st.integers(0, FULL_COUNT), min_size=1, max_size=5),
        st.integers(0, 10_000),
        st.integers(0, 100),
    )
    def test_zero_sum(self, losers: list[int], value: int, percent: int) -> None:
        """formats.md: every money movement sums to zero, the club's fee included."""
        points = {"winner": 0, **{f"l{i}": count for i, count in enumerate(losers)}}
        deal = points_deal(points, "winner", value, FeePolicy.percentage(percent))
        assert sum(deal.points.values()) == 0
        assert sum(deal.money.values()) + deal.club_fee == 0
        assert 0 <= deal.club_fee <= deal.winnings_minor
        for key, count in points.items():
            if key != "winner":
                assert deal.money[key] == -count * value

    def test_bad_input_names_the_player(self) -> None:
        """indian-rummy.md outcome table: the winner scores 0, a loser at most 80."""
        with pytest.raises(RuleViolation) as caught:
            points_deal({"w": 0, "Asha": 81}, "w", 100, FeePolicy())
        assert "'Asha'" in caught.value.message
        assert caught.value.details == {"player": "Asha"}
        with pytest.raises(RuleViolation) as caught:
            points_deal({"w": 0, "Asha": -1}, "w", 100, FeePolicy())
        assert "'Asha'" in caught.value.message
        with pytest.raises(RuleViolation) as caught:
            points_deal({"w": 5, "Asha": 10}, "w", 100, FeePolicy())
        assert caught.value.code == "winner_has_points"
        with pytest.raises(RuleViolation) as caught:
            points_deal({"w": 0, "Asha": 10}, "Bilal", 100, FeePolicy())
        assert caught.value.code == "unknown_player"
        with pytest.raises(RuleViolation) as caught:
            points_deal({"w": 0}, "w", 100, FeePolicy())
        assert caught.value.code == "too_few_players"
        with pytest.raises(RuleViolation) as caught:
            points_deal({"w": 0, "Asha": 10}, "w", 4.0, FeePolicy())  # type: ignore[arg-type]
        assert "point value" in caught.value.message
