"""Deals rummy, best of 2, 3 or 6 (formats.md, "Deals rummy")."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleViolation
from rules.indian.deals import DealsRules, chip_transfer, deals_standing, starting_chips
from rules.money import FeePolicy, prize_pool


def apply_deal(
    chips: dict[str, int], points: dict[str, int], winner: str, rules: DealsRules
) -> dict[str, int]:
    """The chips after a deal, as the ledger sums them: a player not in the deal keeps theirs."""
    moves = chip_transfer(points, winner, rules)
    return {player: count + moves.get(player, 0) for player, count in chips.items()}


class TestRules:
    def test_starting_chips(self) -> None:
        """formats.md Deals rummy: each player starts with 80 x deals chips (160, 240, 480)."""
        assert DealsRules.best_of(2).starting_chips == 160
        assert DealsRules.best_of(3).starting_chips == 240
        assert DealsRules.best_of(6).starting_chips == 480
        assert starting_chips(["a", "b"], DealsRules.best_of(3)) == {"a": 240, "b": 240}

    def test_no_drops_in_best_of_2_and_3(self) -> None:
        """formats.md Deals rummy: drops are not allowed in best of 2 and best of 3 (seed 000);
        other counts: a parameter (allowed unless the club says otherwise)."""
        assert not DealsRules.best_of(2).drops_allowed
        assert not DealsRules.best_of(3).drops_allowed
        assert DealsRules.best_of(6).drops_allowed
        assert not DealsRules.best_of(6, drops_allowed=False).drops_allowed
        assert DealsRules.best_of(4).drops_allowed

    def test_bad_rules(self) -> None:
        with pytest.raises(RuleViolation) as caught:
            DealsRules.best_of(0)
        assert caught.value.code == "bad_deals"
        with pytest.raises(RuleViolation):
            DealsRules(deals=2, drops_allowed=False, loser_cap=0)
        with pytest.raises(RuleViolation):
            DealsRules(deals=2, drops_allowed=None)  # type: ignore[arg-type]


class TestChips:
    def test_winner_takes_every_losers_points_capped_at_80(self) -> None:
        """formats.md Deals rummy: the winner takes, in chips, the points of every loser (each
        loser's points capped at 80)."""
        rules = DealsRules.best_of(2)
        moves = chip_transfer({"a": 0, "b": 35, "c": 95}, "a", rules)
        assert moves == {"a": 115, "b": -35, "c": -80}

    def test_tie_breaker_deal_leaves_the_others_alone(self) -> None:
        """formats.md Deals rummy: a tie-breaker deal is between the tied players."""
        rules = DealsRules.best_of(2)
        chips = {"a": 200, "b": 200, "c": 80}
        after = apply_deal(chips, {"a": 30, "b": 0}, "b", rules)
        assert after == {"a": 170, "b": 230, "c": 80}
        assert deals_standing(after).winner == "b"

    @given(
        st.integers(2, 6),
        st.sampled_from([2, 3, 6]),
        st.data(),
    )
    def test_chips_are_conserved_at_every_deal(
        self, players: int, deals: int, data: st.DataObject
    ) -> None:
        """formats.md Deals rummy: chips are zero-sum; the table's total never changes."""
        rules = DealsRules.best_of(deals)
        names = [f"p{i}" for i in range(players)]
        chips = starting_chips(names, rules)
        total = rules.starting_chips * players
        for _ in range(deals):
            winner = data.draw(st.sampled_from(names))
            points = {
                name: 0 if name == winner else data.draw(st.integers(0, 120)) for name in names
            }
            moves = chip_transfer(points, winner, rules)
            assert sum(moves.values()) == 0
            assert all(-rules.loser_cap <= moves[n] <= 0 for n in names if n != winner)
            chips = apply_deal(chips, points, winner, rules)
            assert sum(chips.values()) == total
        assert all(count >= 0 for count in chips.values())  # 80 x deals covers every loss

    def test_bad_points_name_the_player(self) -> None:
        rules = DealsRules.best_of(2)
        with pytest.raises(RuleViolation) as caught:
            chip_transfer({"a": 0, "Asha": -4}, "a", rules)
        assert "'Asha'" in caught.value.message
        with pytest.raises(RuleViolation) as caught:
            chip_transfer({"a": 3, "b": 4}, "a", rules)
        assert caught.value.code == "winner_has_points"


class TestStanding:
    def test_single_leader_wins(self) -> None:
        """formats.md Deals rummy: after the last deal the player with the most chips wins."""
        result = deals_standing({"a": 100, "b": 220, "c": 160})
        assert result.winner == "b" and not result.tie_break
        assert result.leaders == ("b",) and result.top_chips == 220

    def test_tie_at_the_top_needs_a_tie_breaker(self) -> None:
        """formats.md Deals rummy: equal chips at the top: a tie-breaker deal between the tied."""
        result = deals_standing({"a": 200, "b": 80, "c": 200})
        assert result.tie_break
        assert result.winner is None
        assert result.leaders == ("a", "c")

    def test_a_tie_reached_by_play(self) -> None:
        """formats.md Deals rummy: best of 2, two players winning one deal each by 40."""
        rules = DealsRules.best_of(2)
        chips = starting_chips(["a", "b"], rules)
        chips = apply_deal(chips, {"a": 0, "b": 40}, "a", rules)
        chips = apply_deal(chips, {"a": 40, "b": 0}, "b", rules)
        assert deals_standing(chips).leaders == ("a", "b")

    def test_bad_input(self) -> None:
        with pytest.raises(RuleViolation):
            deals_standing({})
        with pytest.raises(RuleViolation):
            deals_standing({"a": 1.0})  # type: ignore[dict-item]


class TestPrize:
    def test_prize_is_entries_less_fee(self) -> None:
        """formats.md Deals rummy: the prize is entry x players - fee."""
        assert prize_pool(2, 5_000, FeePolicy.percentage(Decimal("15"))) == (8_500, 1_500)
        assert prize_pool(3, 1_001, FeePolicy.percentage(Decimal("5"))) == (2_853, 150)  # 150.15
