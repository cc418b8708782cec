"""Pool rummy: elimination, rejoin, prize pool and split (formats.md, "Pool rummy")."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleViolation
from rules.indian.pool import (
    PoolRules,
    drops_remaining,
    finishing_ranks,
    is_eliminated,
    rejoin_score,
    split_by_drops,
    split_equal,
    split_options,
)
from rules.indian.preset import IndianPreset
from rules.money import FeePolicy, prize_pool

P101 = PoolRules.pool_101()
P201 = PoolRules.pool_201()
P61 = PoolRules.pool_61()


class TestPresets:
    def test_pool_drop_values(self) -> None:
        """formats.md Pool rummy: 101 pool drops 20/40; 201 pool drops 25/50; full count 80."""
        assert (P101.first_drop, P101.middle_drop, P101.full_count) == (20, 40, 80)
        assert (P201.first_drop, P201.middle_drop, P201.full_count) == (25, 50, 80)
        preset = IndianPreset.for_pool(201)
        assert (P201.first_drop, P201.middle_drop) == (preset.first_drop, preset.middle_drop)

    def test_thresholds(self) -> None:
        """formats.md Rejoin / Equal split: rejoin while nobody is above 79 (101) or 174 (201);
        equal split at 80 (101) or 175 (201)."""
        assert (P101.rejoin_below, P101.equal_split_at) == (79, 80)
        assert (P201.rejoin_below, P201.equal_split_at) == (174, 175)
        assert P101.split_player_counts == (2, 3)
        assert P101.rejoin_allowed and P101.max_rejoins is None
        assert not P101.equal_split_preset

    def test_61_pool(self) -> None:
        """Decision (pool.py): a 61 pool has drops 15/30, full count 60, rejoin while nobody is
        above 44, equal split at 45 (the 101/201 rule: rejoin_below = limit - 2 - first drop)."""
        assert (P61.limit, P61.first_drop, P61.middle_drop, P61.full_count) == (61, 15, 30, 60)
        assert (P61.rejoin_below, P61.equal_split_at) == (44, 45)
        for rules in (P101, P201, P61):
            assert rules.rejoin_below == rules.limit - 2 - rules.first_drop
            # a player rejoining at the highest + 1 can still make one first drop and stay in
            assert not is_eliminated(rules.rejoin_below + 1 + rules.first_drop, rules)

    def test_unknown_pool_and_bad_numbers(self) -> None:
        with pytest.raises(RuleViolation) as caught:
            PoolRules.for_limit(150)
        assert caught.value.code == "bad_pool"
        with pytest.raises(RuleViolation) as caught:
            P101.replace(first_drop=0)
        assert "first_drop" in caught.value.message
        with pytest.raises(RuleViolation):
            P101.replace(rejoin_below=101)
        with pytest.raises(RuleViolation):
            P101.replace(max_rejoins=-1)
        with pytest.raises(RuleViolation):
            P101.replace(split_player_counts=())
        with pytest.raises(RuleViolation):
            P101.replace(split_player_counts=[1, 2])
        assert P101.replace(split_player_counts=[2, 3, 4]).split_player_counts == (2, 3, 4)
        with pytest.raises(RuleViolation):
            P101.replace(rejoin_allowed="yes")

    def test_custom_pool(self) -> None:
        """formats.md Pool rummy: pools other than 101 and 201 are presets with their own
        numbers."""
        rules = PoolRules(
            limit=151, first_drop=20, middle_drop=40, rejoin_below=129, equal_split_at=130
        )
        assert is_eliminated(151, rules) and not is_eliminated(150, rules)


class TestElimination:
    def test_eliminated_exactly_at_the_limit(self) -> None:
        """formats.md Pool rummy: a player whose total reaches the limit or more (>= 101) is out;
        100 stays in."""
        assert not is_eliminated(100, P101)
        assert is_eliminated(101, P101)
        assert is_eliminated(160, P101)
        assert not is_eliminated(200, P201)
        assert is_eliminated(201, P201)
        assert not is_eliminated(0, P101)

    def test_scores_are_whole_numbers(self) -> None:
        with pytest.raises(RuleViolation):
            is_eliminated(-1, P101)
        with pytest.raises(RuleViolation):
            is_eliminated(100.5, P101)  # type: ignore[arg-type]


class TestRejoin:
    def test_allowed_at_79_with_highest_plus_one(self) -> None:
        """formats.md Rejoin: allowed while no active score is above 79; the player rejoins at the
        highest active score + 1."""
        assert rejoin_score({"a": 79, "b": 30}, P101, rejoins_used=0) == 80
        assert rejoin_score({"a": 71, "b": 12}, P101, rejoins_used=0) == 72
        assert rejoin_score({"a": 174, "b": 0}, P201, rejoins_used=0) == 175

    def test_refused_when_someone_is_above_79_naming_them(self) -> None:
        """formats.md Rejoin: refused when an active player is above 79 (101 pool); the refusal
        names that player, never an eliminated one."""
        with pytest.raises(RuleViolation) as caught:
            rejoin_score({"Asha": 40, "Bilal": 80, "Out": 120}, P101, rejoins_used=0)
        assert caught.value.code == "rejoin_closed"
        assert caught.value.token == "Bilal"
        assert "'Bilal'" in caught.value.message and "80" in caught.value.message
        with pytest.raises(RuleViolation) as caught:
            rejoin_score({"a": 175, "b": 10}, P201, rejoins_used=0)
        assert caught.value.token == "a"

    def test_eliminated_scores_are_ignored(self) -> None:
        """formats.md Rejoin: only active players' scores count (the rejoining player's own
        eliminated total may be in the mapping)."""
        assert rejoin_score({"a": 50, "b": 60, "me": 115}, P101, rejoins_used=0) == 61

    def test_rejoin_off(self) -> None:
        """formats.md Rejoin: a club can switch rejoin off."""
        rules = PoolRules.for_limit(101, rejoin_allowed=False)
        with pytest.raises(RuleViolation) as caught:
            rejoin_score({"a": 10, "b": 20}, rules, rejoins_used=0)
        assert caught.value.code == "rejoin_off"

    def test_rejoin_capped(self) -> None:
        """formats.md Rejoin: a club can cap the number of rejoins."""
        rules = PoolRules.for_limit(101, max_rejoins=1)
        assert rejoin_score({"a": 10, "b": 20}, rules, rejoins_used=0) == 21
        with pytest.raises(RuleViolation) as caught:
            rejoin_score({"a": 10, "b": 20}, rules, rejoins_used=1)
        assert caught.value.code == "rejoin_limit"
        with pytest.raises(RuleViolation):
            rejoin_score({"a": 10, "b": 20}, P101.replace(max_rejoins=0), rejoins_used=0)

    def test_no_rejoin_once_the_pool_is_decided(self) -> None:
        """Decision (pool.py): with fewer than two players still in, the pool is won: no rejoin."""
        with pytest.raises(RuleViolation) as caught:
            rejoin_score({"a": 30, "b": 104}, P101, rejoins_used=0)
        assert caught.value.code == "game_over"

    def test_bad_counts(self) -> None:
        with pytest.raises(RuleViolation):
            rejoin_score({"a": 10, "b": 20}, P101, rejoins_used=-1)
        with pytest.raises(RuleViolation) as caught:
            rejoin_score({"a": 10, "b": "20"}, P101, rejoins_used=0)  # type: ignore[dict-item]
        assert "'b'" in caught.value.message


class TestPrizePool:
    def test_rejoins_add_to_the_pool(self) -> None:
        """formats.md Pool rummy: prize pool = entry fee x entries (rejoins included) - club fee.
        Six players and two rejoins at 2,500 with a 10% fee."""
        pool, club = prize_pool(6 + 2, 2_500, FeePolicy.percentage(Decimal("10")))
        assert (pool, club) == (18_000, 2_000)
        assert prize_pool(6, 2_500, FeePolicy.no_fee()) == (15_000, 0)


class TestDropsRemaining:
    def test_formula(self) -> None:
        """formats.md Split: drops remaining = floor((limit - 1 - score) / first drop)."""
        assert drops_remaining(0, P101) == 5
        assert drops_remaining(40, P101) == 3
        assert drops_remaining(80, P101) == 1
        assert drops_remaining(81, P101) == 0
        assert drops_remaining(100, P101) == 0
        assert drops_remaining(0, P201) == 8
        assert drops_remaining(101, P101) == 0  # never negative


class TestSplit:
    def test_rummycircle_example_exactly(self) -> None:
        """formats.md Split, example: pool 150, entry 25, drops remaining 3, 1, 0 pays 75 + 16.67,
        25 + 16.67, 16.67; leftover minor units go one at a time to the lowest score first, so
        exactly 91.67, 41.67 and 16.66."""
        scores = {"A": 40, "B": 80, "C": 90}
        assert [drops_remaining(s, P101) for s in scores.values()] == [3, 1, 0]
        assert split_by_drops(15_000, 2_500, scores, P101) == {"A": 9_167, "B": 4_167, "C": 1_666}

    def test_leftover_goes_to_the_lowest_score_first(self) -> None:
        """formats.md Split: leftover minor units one at a time to the lowest score first; equal
        scores keep the given order."""
        payout = split_by_drops(15_000, 2_500, {"C": 90, "B": 80, "A": 40}, P101)
        assert payout == {"C": 1_666, "B": 4_167, "A": 9_167}
        assert list(payout) == ["C", "B", "A"]
        equal = P101.replace(equal_split_preset=True)
        assert split_equal(100, {"x": 85, "y": 80, "z": 85}, equal) == {"x": 33, "y": 34, "z": 33}

    def test_pool_too_small_to_pay_drop_differences_is_refused(self) -> None:
        """Decision (pool.py): when the pool cannot pay the drop differences the split by drops is
        refused (no invented scaling): 3 entries of 25, scores 0 and 100 would need 125."""
        with pytest.raises(RuleViolation) as caught:
            split_by_drops(7_500, 2_500, {"a": 0, "b": 100}, P101)
        assert caught.value.code == "pool_too_small_for_split"
        assert caught.value.details["needed_minor"] == 12_500
        # exactly enough: the rest (0) is shared
        assert split_by_drops(12_500, 2_500, {"a": 0, "b": 100}, P101) == {"a": 12_500, "b": 0}

    def test_split_needs_two_or_three_remaining_players(self) -> None:
        """formats.md Split: 2 or 3 players left on a table that started with more."""
        with pytest.raises(RuleViolation) as caught:
            split_by_drops(10_000, 2_500, {"a": 1, "b": 2, "c": 3, "d": 4}, P101)
        assert caught.value.code == "split_not_offered"
        with pytest.raises(RuleViolation) as caught:
            split_by_drops(10_000, 2_500, {"a": 1, "b": 2}, P101, players_at_start=2)
        assert caught.value.code == "split_not_offered"
        with pytest.raises(RuleViolation) as caught:
            split_by_drops(10_000, 2_500, {"a": 1, "b": 101}, P101)
        assert caught.value.code == "player_eliminated" and caught.value.token == "b"

    def test_equal_split_only_when_its_conditions_hold(self) -> None:
        """formats.md Equal split: a preset; every remaining player at 80 or more (101 pool)."""
        rules = PoolRules.for_limit(101, equal_split=True)
        assert split_equal(15_001, {"a": 90, "b": 85}, rules) == {"a": 7_500, "b": 7_501}
        with pytest.raises(RuleViolation) as caught:
            split_equal(15_000, {"a": 90, "b": 79}, rules)
        assert "'b'" in caught.value.message
        with pytest.raises(RuleViolation) as caught:
            split_equal(15_000, {"a": 90, "b": 85}, P101)  # preset off
        assert caught.value.code == "split_not_offered"

    @given(
        st.lists(st.integers(0, 100), min_size=2, max_size=3),
        st.integers(0, 10_000),
        st.integers(0, 10**7),
    )
    def test_splits_pay_the_pool_exactly(self, scores: list[int], entry: int, extra: int) -> None:
        """formats.md Split: the pool is paid out exactly; more drops remaining never pays less."""
        named = {f"p{i}": score for i, score in enumerate(scores)}
        drops = {key: drops_remaining(score, P101) for key, score in named.items()}
        pool = sum((d - min(drops.values())) * entry for d in drops.values()) + extra
        payout = split_by_drops(pool, entry, named, P101)
        assert sum(payout.values()) == pool
        for a in named:
            for b in named:
                if drops[a] > drops[b] or (drops[a] == drops[b] and named[a] < named[b]):
                    assert payout[a] >= payout[b]
        rules = P101.replace(equal_split_preset=True, equal_split_at=0)
        equal = split_equal(pool, named, rules)
        assert sum(equal.values()) == pool
        assert max(equal.values()) - min(equal.values()) <= 1


class TestSplitOptions:
    def test_offered_only_with_two_or_three_left_of_a_bigger_table(self) -> None:
        """formats.md Split: 2 or 3 players left on a table that started with more."""
        assert split_options({"a": 10, "b": 20}, 6, P101) == ["drops"]
        assert split_options({"a": 10, "b": 20, "c": 30}, 4, P101) == ["drops"]
        assert split_options({"a": 10, "b": 20, "c": 30}, 3, P101) == []
        assert split_options({"a": 10, "b": 20}, 2, P101) == []
        assert split_options({"a": 1, "b": 2, "c": 3, "d": 4}, 6, P101) == []

    def test_equal_split_offered_when_everyone_has_80(self) -> None:
        """formats.md Equal split: offered when the preset is on and every remaining player has at
        least 80 (101 pool) or 175 (201 pool)."""
        r101 = PoolRules.for_limit(101, equal_split=True)
        r201 = PoolRules.for_limit(201, equal_split=True)
        assert split_options({"a": 80, "b": 99}, 6, r101) == ["drops", "equal"]
        assert split_options({"a": 79, "b": 99}, 6, r101) == ["drops"]
        assert split_options({"a": 80, "b": 99}, 6, P101) == ["drops"]
        assert split_options({"a": 175, "b": 180, "c": 200}, 5, r201) == ["drops", "equal"]
        assert split_options({"a": 174, "b": 180, "c": 200}, 5, r201) == ["drops"]
        assert split_options({"a": 80, "b": 99}, 2, r101) == []

    def test_bad_input(self) -> None:
        with pytest.raises(RuleViolation):
            split_options({"a": 10, "b": 101}, 6, P101)
        with pytest.raises(RuleViolation):
            split_options({"a": 10, "b": 20, "c": 30}, 2, P101)


def test_players_out_in_the_same_deal_rank_by_their_scores_and_only_equal_scores_tie():
    """Survivors above everyone out; out in the same deal (3), lower scores first; out
    earlier (deal 2) below them; only equal scores share."""
    scores = {"a": 40, "b": 10, "c": 130, "d": 120, "e": 110, "f": 120, "g": 104}
    out = {"c": 3, "d": 3, "e": 3, "f": 3, "g": 2}
    assert finishing_ranks(scores, out) == {
        "a": 1, "b": 1, "e": 3, "d": 4, "f": 4, "c": 6, "g": 7,
    }  # fmt: skip
    # A knock-out table's survivors go on in order of score.
    assert finishing_ranks(scores, out, survivors_by_score=True)["b"] == 1
    assert finishing_ranks(scores, out, survivors_by_score=True)["a"] == 2
