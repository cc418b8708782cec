"""Ratio metrics (win rate, points per deal) rank by exact fractions, the same in the live table
(kept rows) and in a table as it stood (recomputed from the ledger): 1/34 ranks above 1/35 though
both show as 0.029."""

from __future__ import annotations

import itertools
from functools import cmp_to_key
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.models import LedgerEntry
from standings import recompute, tables
from standings.metrics import METRICS, rank_key
from tests.scoring.helpers import new_game, play, results


def _season_tables(standing: Any, game: Any, order: list[str]) -> tuple[Any, Any]:
    season = game.table.session.season_id
    live = tables.standings_table(
        club=standing.club, scope="season", scope_id=season, metrics=order, limit=100
    )
    last = LedgerEntry.objects.order_by("-id").values_list("id", flat=True).first()
    then = recompute.standings_table_as_of(
        club=standing.club, scope="season", scope_id=season, as_of_entry=last, metrics=order
    )
    return live, then


def _ranked(table: Any) -> list[tuple[int, str]]:
    return [(line.rank, line.name) for line in table.lines]


def test_one_win_in_34_ranks_above_one_in_35_live_and_as_it_stood(standing):
    first, a = new_game(standing, "points", ["Asha", "Chitra"])
    for deal in range(34):
        winner = "Asha" if deal == 0 else "Chitra"
        loser = "Chitra" if winner == "Asha" else "Asha"
        play(standing, first, results(a, **{winner: "winner", loser: 2}))
    second, b = new_game(standing, "points", ["Bilal", "Dev"])
    for deal in range(35):
        winner = "Bilal" if deal == 0 else "Dev"
        loser = "Dev" if winner == "Bilal" else "Bilal"
        play(standing, second, results(b, **{winner: "winner", loser: 2}))
    live, then = _season_tables(standing, second, ["win_rate"])
    # 34/35 > 33/34 > 1/34 > 1/35, though shown to three places they are two pairs of equals.
    assert _ranked(live) == [(1, "Dev"), (2, "Chitra"), (3, "Asha"), (4, "Bilal")]
    assert _ranked(then) == _ranked(live)
    shown = {line.name: str(line.metrics["win_rate"]) for line in live.lines}
    assert shown == {"Dev": "0.971", "Chitra": "0.971", "Asha": "0.029", "Bilal": "0.029"}
    body = (
        standing.client("player")
        .get("/api/v1/clubs/home/standings/", {"metrics": "win_rate"})
        .json()
    )
    assert [(line["rank"], line["name"]) for line in body["results"]] == _ranked(live)
    # A page that starts past the first keeps the exact ranks.
    page = tables.standings_table(
        club=standing.club, scope="season", scope_id=second.table.session.season_id,
        metrics=["win_rate"], limit=2, offset=2,
    )  # fmt: skip
    assert _ranked(page) == [(3, "Asha"), (4, "Bilal")]


@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=30))
def test_the_rank_key_orders_as_cross_multiplication_does(pairs):
    """The one comparison both paths use, against the schoolbook one: a/b > c/d iff ad > cb
    (a ratio with nothing played is 0)."""
    metric = METRICS["win_rate"]
    rows = [{"deals_won": min(w, p), "deals_played": p} for w, p in pairs]

    def exact(row: dict[str, int]) -> tuple[int, int]:
        return (row["deals_won"], row["deals_played"]) if row["deals_played"] else (0, 1)

    def compare(x: dict[str, int], y: dict[str, int]) -> int:
        (a, b), (c, d) = exact(x), exact(y)
        return (c * b > a * d) - (c * b < a * d)  # higher first

    by_key = sorted(rows, key=lambda row: rank_key([metric], row))
    by_hand = sorted(rows, key=cmp_to_key(compare))
    assert [exact(r)[0] * 10**7 // exact(r)[1] for r in by_key] == [
        exact(r)[0] * 10**7 // exact(r)[1] for r in by_hand
    ]
    for x, y in itertools.pairwise(by_key):
        assert compare(x, y) <= 0


OUTCOME = st.one_of(st.integers(0, 80), st.sampled_from(["first_drop", "middle_drop"]))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.integers(2, 4).flatmap(
        lambda n: st.lists(
            st.tuples(st.integers(0, n - 1), st.lists(OUTCOME, min_size=n, max_size=n)),
            min_size=1, max_size=7,
        ).map(lambda deals: (n, deals))
    ),
    st.sampled_from([["win_rate"], ["points_per_deal", "win_rate"], ["win_rate", "points"]]),
)  # fmt: skip
def test_live_and_as_it_stood_rank_alike(standing, history, order):
    players, deals = history
    names = ["Asha", "Bilal", "Chitra", "Dev"][:players]
    game, ids = new_game(standing, "points", names)
    for winner, outcomes in deals:
        lines = {name: ("winner" if i == winner else outcomes[i]) for i, name in enumerate(names)}
        play(standing, game, results(ids, **lines))
    live, then = _season_tables(standing, game, order)
    assert [(line.rank, line.player_id) for line in live.lines] == [
        (line.rank, line.player_id) for line in then.lines
    ]
    assert [line.metrics for line in live.lines] == [line.metrics for line in then.lines]


def test_fractions_too_close_for_floating_point_still_rank_exactly(standing):
    """Past the bound where floating point orders fractions exactly (huge counts), the table is
    ranked by the fractions themselves: 2**27/(2**27 + 1) above (2**27 - 1)/2**27, which a
    double cannot tell apart."""
    from clubs.models import Player
    from scoring.models import StandingRow

    close = [(2**27, 2**27 + 1), (2**27 - 1, 2**27)]
    assert close[0][0] / close[0][1] == close[1][0] / close[1][1]  # as floats, equal
    game, ids = new_game(standing, "points", ["Asha", "Bilal"])
    scope_id = game.table.session.season_id
    for name, (won, played) in zip(["Bilal", "Asha"], close[::-1], strict=True):
        StandingRow.objects.create(
            club=standing.club, scope="season", scope_id=scope_id,
            player=Player.objects.get(pk=ids[name]), deals_won=won, deals_played=played,
        )  # fmt: skip
    table = tables.standings_table(
        club=standing.club, scope="season", scope_id=scope_id, metrics=["win_rate"]
    )
    assert _ranked(table) == [(1, "Asha"), (2, "Bilal")]
