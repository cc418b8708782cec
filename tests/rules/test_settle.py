"""Settling up a session: the fewest transfers (formats.md, "Settling up a session")."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import InvariantError, RuleViolation
from rules.settle import EXACT_LIMIT, Transfer, settle_up


def apply(balances: Mapping[str, int], transfers: list[Transfer[str]]) -> dict[str, int]:
    left = dict(balances)
    for transfer in transfers:
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    return left


def brute_force_minimum(balances: Mapping[str, int]) -> int:
    """The fewest transfers, found by trying every way of settling one player at a time.

    Independent of the zero-sum-groups argument settle_up relies on: the first open debt is settled
    in full against each open balance of the other sign in turn (no optimum needs more)."""
    values = [amount for amount in balances.values() if amount != 0]

    def search(start: int) -> int:
        while start < len(values) and values[start] == 0:
            start += 1
        if start == len(values):
            return 0
        best = len(values)
        for other in range(start + 1, len(values)):
            if values[other] * values[start] < 0:
                values[other] += values[start]
                best = min(best, 1 + search(start + 1))
                values[other] -= values[start]
        return best

    return search(0)


def zero_sum_balances(max_players: int, max_amount: int = 60) -> st.SearchStrategy[dict[str, int]]:
    """Balances that sum to zero; small amounts so that zero-sum groups are common."""
    return st.lists(st.integers(-max_amount, max_amount), min_size=1, max_size=max_players - 1).map(
        lambda values: {f"p{i}": v for i, v in enumerate([*values, -sum(values)])}
    )


def check_settles(balances: Mapping[str, int], transfers: list[Transfer[str]]) -> None:
    assert all(value == 0 for value in apply(balances, transfers).values())
    non_zero = sum(1 for amount in balances.values() if amount != 0)
    assert len(transfers) <= max(0, non_zero - 1)
    for transfer in transfers:
        assert transfer.amount > 0
        assert balances[transfer.payer] < 0 < balances[transfer.payee]


class TestSettleUp:
    def test_simple_night(self) -> None:
        """formats.md Settling up: from net amounts, who pays whom."""
        balances = {"Asha": 700, "Bilal": -500, "Chitra": -200}
        assert settle_up(balances) == [
            Transfer("Bilal", "Asha", 500),
            Transfer("Chitra", "Asha", 200),
        ]

    def test_zero_sum_groups_save_transfers(self) -> None:
        """formats.md Settling up: as few transfers as possible. {a, d, f} and {b, c, e} each sum
        to zero, so 4 transfers do; largest-debtor-pays-largest-creditor alone needs 5."""
        balances = {"a": 8, "b": -9, "c": 6, "d": -7, "e": 3, "f": -1}
        transfers = settle_up(balances)
        check_settles(balances, transfers)
        assert len(transfers) == brute_force_minimum(balances) == 4
        assert {(t.payer, t.payee) for t in transfers} <= {
            ("d", "a"),
            ("f", "a"),
            ("b", "c"),
            ("b", "e"),
        }

    def test_no_zero_sum_group_means_players_minus_one(self) -> None:
        """formats.md Settling up: at most players - 1 transfers (reached when no smaller group
        sums to zero)."""
        balances = {"a": 6, "b": 4, "c": -5, "d": -5}
        transfers = settle_up(balances)
        check_settles(balances, transfers)
        assert len(transfers) == brute_force_minimum(balances) == 3

    def test_exact_opposites_pair_off(self) -> None:
        """formats.md Settling up: +2 and -2 settle between themselves (1 + 3 transfers)."""
        balances = {"a": 5, "b": 3, "c": -4, "d": -4, "e": 2, "f": -2}
        transfers = settle_up(balances)
        check_settles(balances, transfers)
        assert Transfer("f", "e", 2) in transfers
        assert len(transfers) == brute_force_minimum(balances) == 4

    def test_nobody_owes_anything(self) -> None:
        """formats.md Settling up: zero balances need no transfer."""
        assert settle_up({}) == []
        assert settle_up({"a": 0, "b": 0}) == []

    def test_unbalanced_books_are_a_bug(self) -> None:
        """formats.md: every money movement sums to zero; an unbalanced input is a bug upstream."""
        with pytest.raises(InvariantError):
            settle_up({"a": 10, "b": -9})

    def test_amounts_must_be_integers(self) -> None:
        """formats.md: money is int minor units, never floats; the player is named."""
        with pytest.raises(RuleViolation) as caught:
            settle_up({"a": 1.5, "b": -1.5})  # type: ignore[dict-item]
        assert "'a'" in caught.value.message

    def test_output_is_deterministic_and_ordered_by_key_order(self) -> None:
        """Decision (settle.py): the result depends only on the mapping's order; transfers are
        listed by payer's position, then payee's; ties go to the earlier player."""
        balances = {"d": -5, "a": 5, "c": -5, "b": 5}
        first = settle_up(balances)
        assert first == settle_up(dict(balances))
        assert first == [Transfer("d", "a", 5), Transfer("c", "b", 5)]
        reordered = {"a": 5, "b": 5, "c": -5, "d": -5}
        assert settle_up(reordered) == [Transfer("c", "a", 5), Transfer("d", "b", 5)]

    @settings(max_examples=300, deadline=None)
    @given(zero_sum_balances(max_players=7))
    def test_optimal_on_small_inputs(self, balances: dict[str, int]) -> None:
        """formats.md Settling up: as few transfers as possible (equal to a brute-force search)."""
        transfers = settle_up(balances)
        check_settles(balances, transfers)
        assert len(transfers) == brute_force_minimum(balances)

    @settings(max_examples=100, deadline=None)
    @given(zero_sum_balances(max_players=12, max_amount=10**6))
    def test_settles_exactly(self, balances: dict[str, int]) -> None:
        """formats.md Settling up: transfers settle everyone exactly, at most players - 1."""
        check_settles(balances, settle_up(balances))

    @settings(max_examples=30, deadline=None)
    @given(zero_sum_balances(max_players=40, max_amount=20))
    def test_many_players_fall_back_within_bounds(self, balances: dict[str, int]) -> None:
        """formats.md Settling up: at most players - 1 transfers, also beyond the exact search."""
        check_settles(balances, settle_up(balances))

    def test_exact_search_at_its_limit_is_fast_and_optimal(self) -> None:
        """formats.md Settling up: exact for 16 non-zero balances; two hidden zero-sum groups of 8
        are found (14 transfers, where a greedy rule may need 15)."""
        rng = random.Random(7)
        groups = []
        for _ in range(2):
            values = [rng.randint(1, 10**6) * (1 if i % 2 else -1) for i in range(7)]
            groups.append([*values, -sum(values)])
        names = [f"p{i:02d}" for i in range(EXACT_LIMIT)]
        balances = dict(zip(names, groups[0] + groups[1], strict=True))
        assert len(set(map(abs, balances.values()))) == EXACT_LIMIT  # nothing pairs off
        transfers = settle_up(balances)
        check_settles(balances, transfers)
        assert len(transfers) == EXACT_LIMIT - 2

    def test_opposites_pair_off_even_with_many_players(self) -> None:
        """formats.md Settling up: exact opposites settle in one transfer each (30 players)."""
        balances: dict[str, int] = {}
        for i in range(15):
            balances[f"c{i}"] = 100 + i
            balances[f"d{i}"] = -(100 + i)
        transfers = settle_up(balances)
        check_settles(balances, transfers)
        assert len(transfers) == 15
