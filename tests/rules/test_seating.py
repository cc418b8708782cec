"""The seating engine (rules/seating.py): sizes, byes, snake spread, repeat-free rounds where a
construction or the search reaches them, history and clubs honoured, determinism, and the batch
command."""

from __future__ import annotations

import io
import json
from collections import Counter
from itertools import combinations

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from rules.seating import plan_seating, seating_request, table_sizes


def meetings(plan, history=()) -> Counter:
    seen: Counter = Counter()
    for table in history:
        seen.update(frozenset(pair) for pair in combinations(table, 2))
    for tables in plan.rounds:
        for table in tables:
            seen.update(frozenset(pair) for pair in combinations(table, 2))
    return seen


@pytest.mark.parametrize(
    ("players", "size", "rounds"), [(36, 6, 3), (16, 4, 5), (32, 4, 6), (25, 5, 6), (9, 3, 4)]
)
def test_the_known_repeat_free_cases_meet_nobody_twice(players, size, rounds):
    plan = plan_seating(list(range(players)), table_max=size, rounds=rounds, seed=7)
    assert plan.repeat_pairs == 0
    assert max(meetings(plan).values()) == 1
    for tables in plan.rounds:
        assert sorted(p for table in tables for p in table) == list(range(players))
        assert {len(table) for table in tables} == {size}


def test_a_thousand_players_in_tables_of_six_for_eight_rounds_meet_nobody_twice():
    plan = plan_seating(list(range(1000)), table_max=6, rounds=8, seed=3)
    assert plan.repeat_pairs == 0
    assert all(len(tables) == 167 for tables in plan.rounds)


def test_sizes_differ_by_at_most_one_and_byes_go_to_the_top_seeds():
    assert table_sizes(14, 6) == ([5, 5, 4], 0)
    assert table_sizes(7, 6, table_min=4) == ([6], 1)  # 4 + 3 would leave a table of 3
    assert table_sizes(13, 4, table_min=4) == ([4, 4, 4], 1)
    plan = plan_seating(["top", "b", "c", "d", "e", "f", "g"], table_max=6, table_min=4, rounds=2)
    assert plan.byes == (("top",), ("b",))  # the top seeds sit out, the one who did least first
    with pytest.raises(RuleViolation) as refused:
        table_sizes(3, 6, table_min=4)
    assert refused.value.code == "too_few_players"


def test_seeds_are_spread_across_the_tables_in_a_snake():
    plan = plan_seating([f"s{i}" for i in range(1, 13)], table_max=4, rounds=1)
    tables_of = {p: n for n, table in enumerate(plan.rounds[0]) for p in table}
    assert len({tables_of["s1"], tables_of["s2"], tables_of["s3"]}) == 3  # one per table
    assert len({tables_of["s4"], tables_of["s5"], tables_of["s6"]}) == 3


@pytest.mark.slow
def test_the_same_seed_gives_the_same_plan_and_another_may_not():
    people = list(range(30))
    one = plan_seating(people, table_max=6, rounds=4, seed=11)
    assert plan_seating(people, table_max=6, rounds=4, seed=11) == one
    assert any(plan_seating(people, table_max=6, rounds=4, seed=s) != one for s in range(12, 16))


def test_history_is_honoured():
    past = [[1, 2, 3, 4], [5, 6, 7, 8]]
    plan = plan_seating(list(range(1, 9)), table_max=4, rounds=1, history=past)
    assert plan.repeat_pairs == 4  # 8 players in two tables of 4 after two tables of 4: 2 each
    assert max(meetings(plan, past).values()) == 2
    for table in plan.rounds[0]:  # two from each past table
        assert sorted(sum(1 for p in table if p in t) for t in past) == [2, 2]


def test_same_club_pairs_are_kept_apart_when_asked():
    clubs = {p: ("A" if p < 4 else "B") for p in range(8)}
    apart = plan_seating(list(range(8)), table_max=4, rounds=1, clubs=clubs, avoid_same_club=True)
    together = plan_seating(list(range(8)), table_max=4, rounds=1, clubs=clubs)
    assert apart.same_club_pairs == 4  # two of each club per table: the least possible
    assert together.same_club_pairs >= apart.same_club_pairs


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 300).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.integers(2, 6).flatmap(lambda mx: st.tuples(st.just(mx), st.integers(2, mx))),
            st.integers(1, 3),
            st.integers(0, 10),
        )
    )
)
def test_every_round_seats_each_due_player_once_in_even_tables(case):
    players, (table_max, table_min), rounds, seed = case
    try:
        plan = plan_seating(
            list(range(players)), table_max=table_max, table_min=table_min, rounds=rounds, seed=seed
        )
    except RuleViolation as refused:
        assert refused.code == "too_few_players" and players < table_min
        return
    for tables, byes in zip(plan.rounds, plan.byes, strict=True):
        seated = [p for table in tables for p in table]
        assert sorted(seated + list(byes)) == list(range(players))
        sizes = [len(table) for table in tables]
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= table_min
        assert max(sizes) <= table_max
        assert all(bye < players for bye in byes)
    assert plan.repeat_pairs == sum(c - 1 for c in meetings(plan).values() if c > 1)


def test_the_batch_contract_and_command(tmp_path):
    answer = seating_request({"id": "a", "players": 16, "table_max": 4, "rounds": 5})
    assert answer["id"] == "a" and answer["repeat_pairs"] == 0 and len(answer["rounds"]) == 5
    clubs = seating_request(
        {"id": 2, "players": ["x", "y", "z", "w"], "table_max": 2, "rounds": 1,
         "clubs": {"x": "A", "y": "A", "z": "B", "w": "B"}}
    )  # fmt: skip
    assert clubs["same_club_pairs"] == 0
    for bad, code in [
        ({"id": 3, "players": 1, "table_max": 4, "rounds": 1}, "too_few_players"),
        ({"id": 4, "players": [1, 1], "table_max": 4, "rounds": 1}, "duplicate_player"),
        ({"id": 5, "players": 8, "table_max": 1, "rounds": 1}, "bad_field"),
        ({"id": 6, "players": 8, "table_max": 4, "rounds": 0}, "bad_field"),
        ({"id": 7, "players": 8, "table_max": 4, "rounds": 1, "color": 1}, "bad_field"),
        ([1, 2], "bad_request"),
    ]:
        refused = seating_request(bad)
        assert refused["error"]["code"] == code, bad
    requests = tmp_path / "seating.jsonl"
    requests.write_text('{"id": 1, "players": 36, "table_max": 6, "rounds": 3}\nnope\n')
    out = io.StringIO()
    call_command("plan_seating", "--input", str(requests), stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["repeat_pairs"] == 0 and lines[1]["error"]["code"] == "bad_json"


def _same_club_pairs(plan, clubs) -> int:
    return sum(
        1
        for tables in plan.rounds
        for table in tables
        for a, b in combinations(table, 2)
        if clubs[a] == clubs[b]
    )


def test_twenty_four_from_six_clubs_in_fours_for_three_rounds_meet_no_one_twice_nor_a_clubmate():
    """The held-out case: 24 players, 6 clubs of 4, tables of 4, 3 rounds, same-club pairs
    avoided. A seating with neither exists (each table one player of four clubs, the three
    rounds' tables pairwise apart); the search finds it, whatever the seed."""
    players = list(range(1, 25))
    clubs = {p: f"club {(p - 1) // 4}" for p in players}
    for seed in range(8):
        plan = plan_seating(
            players, table_max=4, rounds=3, seed=seed, clubs=clubs, avoid_same_club=True
        )
        assert (plan.repeat_pairs, plan.same_club_pairs) == (0, 0), seed
        assert max(meetings(plan).values()) == 1 and _same_club_pairs(plan, clubs) == 0


@settings(max_examples=5, deadline=None, derandomize=True)
@given(st.permutations(list(range(24))), st.integers(0, 2**31 - 1))
def test_any_six_clubs_of_four_are_kept_apart_without_repeats(order, seed):
    """Whichever players form the six clubs of four, and whatever the seed: three rounds of
    fours with no repeat and no same-club pair (one exists for every such field)."""
    clubs = {player: f"club {position // 4}" for position, player in enumerate(order)}
    plan = plan_seating(
        list(range(24)), table_max=4, rounds=3, seed=seed, clubs=clubs, avoid_same_club=True
    )
    assert (plan.repeat_pairs, plan.same_club_pairs) == (0, 0)
    assert max(meetings(plan).values()) == 1 and _same_club_pairs(plan, clubs) == 0
