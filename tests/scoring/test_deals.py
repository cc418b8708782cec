"""Deals rummy (formats.md): chips, drops refused in best of 2/3, tie-breaker deal, prize."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.errors import Conflict
from ledger.models import Posting
from tests.scoring.helpers import by_name, new_game, play, results, state


def test_best_of_3_starts_with_240_chips_and_refuses_a_drop(standing):
    """formats.md: 80 chips a deal; seed 000: no drops in best of 2 and best of 3."""
    game, ids = new_game(standing, "deals-3", ["Asha", "Bilal", "Chitra"])
    assert by_name(state(game), "chips") == {"Asha": 240, "Bilal": 240, "Chitra": 240}
    refused = play(
        standing, game, results(ids, Asha="winner", Bilal="first_drop", Chitra=12),
        expect="rejected",
    )  # fmt: skip
    assert [(r["code"], r["player_name"]) for r in refused.reasons] == [
        ("drop_not_allowed", "Bilal")
    ]
    assert by_name(state(game), "chips") == {"Asha": 240, "Bilal": 240, "Chitra": 240}


def test_losers_pay_their_points_in_chips_capped_at_80(standing):
    game, ids = new_game(standing, "deals-6", ["Asha", "Bilal", "Chitra"])
    play(standing, game, results(ids, Asha="winner", Bilal="wrong_show", Chitra=35))
    assert by_name(state(game), "chips") == {"Asha": 480 + 115, "Bilal": 400, "Chitra": 445}


def test_a_tie_at_the_end_leads_to_a_tie_breaker_deal(standing):
    """formats.md: equal chips at the top after the last deal: a tie-breaker deal between the tied
    players, recorded like any deal; then the winner takes the prize."""
    game, ids = new_game(
        standing, "deals-2", ["Asha", "Bilal", "Chitra"], entry_fee_minor=1000,
        params={"deals": {"deals": 2}, "fee": {"kind": "flat", "flat_minor": 300}},
    )  # fmt: skip
    play(standing, game, results(ids, Asha="winner", Bilal=30, Chitra=10))
    play(standing, game, results(ids, Bilal="winner", Asha=30, Chitra=10))
    now = state(game)
    assert by_name(now, "chips") == {"Asha": 170, "Bilal": 170, "Chitra": 140}
    assert now["tiebreaker_needed"] is True and now["leaders"] == [ids["Asha"], ids["Bilal"]]
    assert now["status"] == "open"
    with pytest.raises(Conflict) as refused:
        play(standing, game, results(ids, Asha="winner", Bilal=5, Chitra=5))
    assert refused.value.code == "deals_complete"
    # Chitra is not in the tie-breaker: only the tied players appear.
    wrong = play(
        standing, game, results(ids, Asha="winner", Bilal=5, Chitra=5), tiebreaker=True,
        expect="rejected",
    )  # fmt: skip
    assert [r["code"] for r in wrong.reasons] == ["not_seated"]
    from tests.scoring.helpers import correct

    decided = correct(standing, wrong.deal, results(ids, Bilal="winner", Asha=5))
    assert decided.status == "accepted"
    final = state(game)
    assert final["status"] == "finished" and final["winner"] == ids["Bilal"]
    payout = dict(
        Posting.objects.filter(book__game=game, entry__kind="payout").values_list(
            "account", "amount"
        )
    )
    assert payout == {"game": -3000, "club": 300, "player": 2700}


@st.composite
def deal_sequences(draw):
    players = draw(st.integers(2, 6))
    deals = []
    for _ in range(draw(st.integers(1, 6))):
        winner = draw(st.integers(0, players - 1))
        lines = {}
        for seat in range(players):
            if seat == winner:
                lines[f"P{seat}"] = "winner"
            else:
                lines[f"P{seat}"] = draw(
                    st.one_of(st.integers(0, 80), st.sampled_from(["first_drop", "wrong_show"]))
                )
        deals.append(lines)
    return players, deals


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sequence=deal_sequences())
def test_chips_are_conserved_at_every_deal_and_equal_a_recomputation(standing, sequence):
    """formats.md: chips are zero-sum; the table's total never changes."""
    players, deals = sequence
    names = [f"P{i}" for i in range(players)]
    game, ids = new_game(standing, "deals-6", names)
    expected = dict.fromkeys(names, 480)
    fixed = {"first_drop": 20, "wrong_show": 80}
    for lines in deals:
        play(standing, game, results(ids, **lines))
        winner = next(name for name, line in lines.items() if line == "winner")
        for name, line in lines.items():
            if line != "winner":
                paid = min(fixed.get(line, line) if isinstance(line, str) else line, 80)
                expected[name] -= paid
                expected[winner] += paid
        now = state(game)
        assert now["table_chips"] == 480 * players
        assert by_name(now, "chips") == expected
