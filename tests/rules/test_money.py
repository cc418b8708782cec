"""Money arithmetic: rounding half up, the club's fee, even splits, prize pools (formats.md)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvariantError, RuleViolation
from rules.money import (
    FeePolicy,
    div_half_up,
    prize_pool,
    round_half_up,
    split_evenly,
)


def reference_half_up(value: Fraction) -> int:
    """Half away from zero, the slow way."""
    magnitude = abs(value)
    whole = int(magnitude)
    if magnitude - whole >= Fraction(1, 2):
        whole += 1
    return whole if value >= 0 else -whole


class TestRounding:
    def test_halves_go_up(self) -> None:
        """formats.md Points rummy: the fee is rounded to the minor unit, half up."""
        assert div_half_up(5, 2) == 3
        assert div_half_up(7, 2) == 4
        assert div_half_up(1, 3) == 0
        assert div_half_up(2, 3) == 1
        assert round_half_up(Decimal("1234.5")) == 1235
        assert round_half_up(Decimal("1234.49")) == 1234

    def test_negative_values_are_symmetric(self) -> None:
        """Decision (money.py): negative amounts round half away from zero, mirroring positives."""
        assert div_half_up(-5, 2) == -3
        assert div_half_up(5, -2) == -3
        assert div_half_up(-5, -2) == 3
        assert round_half_up(Decimal("-2.5")) == -3

    @given(st.integers(-(10**12), 10**12), st.integers(-(10**6), 10**6).filter(bool))
    def test_div_half_up_matches_exact_fractions(self, numerator: int, denominator: int) -> None:
        """formats.md: money is exact (integers), never floats; rounding half up."""
        expected = reference_half_up(Fraction(numerator, denominator))
        assert div_half_up(numerator, denominator) == expected

    @given(
        st.decimals(
            min_value=-(10**9), max_value=10**9, places=3, allow_nan=False, allow_infinity=False
        )
    )
    def test_round_half_up_matches_exact_fractions(self, value: Decimal) -> None:
        """formats.md: money is a Decimal or an int; rounding half up."""
        assert round_half_up(value) == reference_half_up(Fraction(value))

    def test_bad_inputs_are_bugs(self) -> None:
        with pytest.raises(InvariantError):
            div_half_up(1, 0)
        with pytest.raises(InvariantError):
            round_half_up(Decimal("NaN"))
        with pytest.raises(InvariantError):
            round_half_up(2.5)  # type: ignore[arg-type]


class TestFee:
    def test_percent_fee_rounds_half_up(self) -> None:
        """formats.md Points rummy: fee = a percentage of the winnings, rounded half up
        (10% of 12,345 is 1,234.5, so 1,235)."""
        assert FeePolicy.percentage(Decimal("10")).fee_minor(12_345) == 1_235
        assert FeePolicy.percentage("10").fee_minor(12_344) == 1_234
        assert FeePolicy.percentage("12.5").fee_minor(4) == 1  # 0.5 rounds up
        assert FeePolicy.percentage("12.5").fee_minor(3) == 0  # 0.375 rounds down

    def test_flat_fee_never_exceeds_the_winnings(self) -> None:
        """formats.md Points rummy: a flat amount per deal. Decision: never more than the
        winnings."""
        fee = FeePolicy.flat(500)
        assert fee.fee_minor(10_000) == 500
        assert fee.fee_minor(300) == 300
        assert fee.fee_minor(0) == 0

    def test_no_fee(self) -> None:
        assert FeePolicy.no_fee().fee_minor(99_999) == 0
        assert FeePolicy().kind == "none"

    @given(
        st.integers(0, 10**12),
        st.decimals(min_value=0, max_value=100, places=3, allow_nan=False, allow_infinity=False),
    )
    def test_percent_fee_is_exact_and_bounded(self, winnings: int, percent: Decimal) -> None:
        """formats.md Points rummy: percent fee half up; Decision: 0 <= fee <= winnings."""
        fee = FeePolicy.percentage(percent).fee_minor(winnings)
        assert 0 <= fee <= winnings
        assert fee == reference_half_up(Fraction(winnings) * Fraction(percent) / 100)

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"kind": "percent", "percent": Decimal("-1")},
            {"kind": "percent", "percent": Decimal("100.01")},
            {"kind": "percent", "percent": Decimal("Infinity")},
            {"kind": "percent", "percent": 10.0},
            {"kind": "flat", "flat_minor": -1},
            {"kind": "flat", "flat_minor": 2.5},
            {"kind": "flat", "flat_minor": True},
            {"kind": "monthly"},
            {"kind": "none", "flat_minor": 100},
            {"kind": "flat", "flat_minor": 100, "percent": Decimal(5)},
        ],
    )
    def test_bad_policies_are_refused(self, kwargs: dict[str, object]) -> None:
        """Decision (money.py): percent 0..100, flat >= 0, and a policy can only be read one way."""
        with pytest.raises(RuleViolation) as caught:
            FeePolicy(**kwargs)  # type: ignore[arg-type]
        assert caught.value.code == "bad_fee_policy"

    def test_floats_are_refused(self) -> None:
        """formats.md: money is never a float."""
        with pytest.raises(RuleViolation):
            FeePolicy.percentage(10.0)  # type: ignore[arg-type]
        with pytest.raises(RuleViolation):
            FeePolicy.percentage("ten")
        with pytest.raises(RuleViolation) as caught:
            FeePolicy.percentage(10).fee_minor(100.0)  # type: ignore[arg-type]
        assert "winnings" in caught.value.message
        with pytest.raises(RuleViolation):
            FeePolicy.percentage(10).fee_minor(-1)


class TestSplitEvenly:
    def test_leftover_goes_to_the_first_keys(self) -> None:
        """formats.md Split: shares rounded down, leftover minor units one at a time to the first
        keys."""
        assert split_evenly(5_000, ["a", "b", "c"]) == {"a": 1_667, "b": 1_667, "c": 1_666}
        assert split_evenly(2, ["a", "b", "c"]) == {"a": 1, "b": 1, "c": 0}
        assert list(split_evenly(10, ["z", "a"])) == ["z", "a"]

    @given(st.integers(0, 10**12), st.lists(st.text(max_size=3), min_size=1, unique=True))
    def test_sums_exactly(self, total: int, keys: list[str]) -> None:
        """formats.md Split: the pool is paid out exactly."""
        shares = split_evenly(total, keys)
        assert sum(shares.values()) == total
        assert max(shares.values()) - min(shares.values()) <= 1
        values = [shares[key] for key in keys]
        assert values == sorted(values, reverse=True)

    def test_bad_input(self) -> None:
        with pytest.raises(RuleViolation):
            split_evenly(10, [])
        with pytest.raises(RuleViolation) as caught:
            split_evenly(10, ["a", "b", "a"])
        assert caught.value.token == "a"
        with pytest.raises(RuleViolation):
            split_evenly(-1, ["a"])


class TestPrizePool:
    def test_pool_is_entries_times_fee_less_the_club_fee(self) -> None:
        """formats.md Pool rummy: prize pool = entry fee x entries - club fee."""
        pool, club = prize_pool(6, 2_500, FeePolicy.percentage(10))
        assert (pool, club) == (13_500, 1_500)

    @given(st.integers(1, 1_000), st.integers(0, 10**7), st.integers(0, 100))
    def test_zero_sum(self, entries: int, entry_fee: int, percent: int) -> None:
        """formats.md: every money movement sums to zero, the club's fee included."""
        result = prize_pool(entries, entry_fee, FeePolicy.percentage(percent))
        assert result.pool_minor + result.club_fee_minor == entries * entry_fee
        assert result.pool_minor >= 0

    def test_bad_entries(self) -> None:
        with pytest.raises(RuleViolation) as caught:
            prize_pool(0, 100, FeePolicy())
        assert caught.value.code == "bad_entries"
        with pytest.raises(RuleViolation):
            prize_pool(2, 25.0, FeePolicy())  # type: ignore[arg-type]
