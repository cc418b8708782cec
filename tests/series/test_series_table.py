"""A 12-event series with three corrections (a corrected deal, a voided deal, a late result): the
kept table equals a fixture computed by hand after every step, and equals the table recomputed
from the events' places. Points by place 10, 7, 5, 3, 1; tiers regular x1, major x2, final x1.5;
the best 8 results count; 6 events to be ranked.

The nights (one points rummy table each; a loser's count against, the winner takes the sum):

    N1  A wins; B 20, C 40, D 60            A1 B2 C3 D4
    N2  B wins; A 30, E 10                  B1 E2 A3
    N3  C wins; A 10, B 10, D 50            C1 A2 B2 D4   (corrected: D wins; A 10, B 10, C 50)
    N4  major: A wins; B 25 C 35 D 45 E 55  A1 B2 C3 D4 E5
    N5  D wins; A 40, E 20                  D1 E2 A3
    N6  A wins; C 15, D 25                  A1 C2 D3
    N7  E wins; A 5, B 15; then A wins; E 30, B 10: A +35, E -10, B -25: A1 E2 B3
        (the second deal voided: E1 A2 B3)
    N8  major: B wins; A 20, C 30, E 40     B1 A2 C3 E4
    N9  C wins; B 10, D 20, E 30            C1 B2 D3 E4
    N10 A wins; B 50, C 60                  A1 B2 C3
        (a late deal: C wins; A 80, B 10: A +30, C +30, B -60: A and C equal on every metric:
        A1 C1 B3)
    N11 D wins; C 10, E 20                  D1 C2 E3
    N12 final: A wins; B 10 C 20 D 30 E 40  A1 B2 C3 D4 E5 (x1.5: 15, 10.5, 7.5, 4.5, 1.5)
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import TestCase

from scoring.models import Deal
from scoring.undo import deal_void
from series import selectors, services
from series.models import Series
from tests.scoring.helpers import correct, new_game, play, results

pytestmark = pytest.mark.django_db

NAMES = {"A": "Asha", "B": "Bilal", "C": "Chitra", "D": "Dev", "E": "Esther"}

# Each night: its tier and its deals (winner, then each loser's count).
NIGHTS: list[tuple[str, list[dict[str, Any]]]] = [
    ("regular", [{"A": "winner", "B": 20, "C": 40, "D": 60}]),
    ("regular", [{"B": "winner", "A": 30, "E": 10}]),
    ("regular", [{"C": "winner", "A": 10, "B": 10, "D": 50}]),
    ("major", [{"A": "winner", "B": 25, "C": 35, "D": 45, "E": 55}]),
    ("regular", [{"D": "winner", "A": 40, "E": 20}]),
    ("regular", [{"A": "winner", "C": 15, "D": 25}]),
    ("regular", [{"E": "winner", "A": 5, "B": 15}, {"A": "winner", "E": 30, "B": 10}]),
    ("major", [{"B": "winner", "A": 20, "C": 30, "E": 40}]),
    ("regular", [{"C": "winner", "B": 10, "D": 20, "E": 30}]),
    ("regular", [{"A": "winner", "B": 50, "C": 60}]),
    ("regular", [{"D": "winner", "C": 10, "E": 20}]),
    ("final", [{"A": "winner", "B": 10, "C": 20, "D": 30, "E": 40}]),
]

# By hand: each player's total of their best 8 and the events they played, after each night.
AFTER_NIGHT: list[dict[str, tuple[str, int]]] = [
    {"A": ("10", 1), "B": ("7", 1), "C": ("5", 1), "D": ("3", 1)},
    {"A": ("15", 2), "B": ("17", 2), "C": ("5", 1), "D": ("3", 1), "E": ("7", 1)},
    {"A": ("22", 3), "B": ("24", 3), "C": ("15", 2), "D": ("6", 2), "E": ("7", 1)},
    {"A": ("42", 4), "B": ("38", 4), "C": ("25", 3), "D": ("12", 3), "E": ("9", 2)},
    {"A": ("47", 5), "B": ("38", 4), "C": ("25", 3), "D": ("22", 4), "E": ("16", 3)},
    {"A": ("57", 6), "B": ("38", 4), "C": ("32", 4), "D": ("27", 5), "E": ("16", 3)},
    {"A": ("67", 7), "B": ("43", 5), "C": ("32", 4), "D": ("27", 5), "E": ("23", 4)},
    {"A": ("81", 8), "B": ("63", 6), "C": ("42", 5), "D": ("27", 5), "E": ("29", 5)},
    {"A": ("81", 8), "B": ("70", 7), "C": ("52", 6), "D": ("32", 6), "E": ("32", 6)},
    # A's ninth event: the lowest of 10, 5, 7, 20, 5, 10, 10, 14, 10 (a 5) drops out.
    {"A": ("86", 9), "B": ("77", 8), "C": ("57", 7), "D": ("32", 6), "E": ("32", 6)},
    {"A": ("86", 9), "B": ("77", 8), "C": ("64", 8), "D": ("42", 7), "E": ("37", 7)},
    {"A": ("96", 10), "B": ("82.5", 9), "C": ("66.5", 9), "D": ("46.5", 8), "E": ("38.5", 8)},
]
# Ranked (6 events or more) after night 6: only A; the others unranked.
RANKED_AFTER_SIX = {"A": 1, "B": None, "C": None, "D": None, "E": None}
# The final table, then after each correction: (rank, total).
FINAL = {"A": (1, "96"), "B": (2, "82.5"), "C": (3, "66.5"), "D": (4, "46.5"), "E": (5, "38.5")}
# N3 corrected: C's 10 becomes 3 (dropped as its lowest), D's 3 becomes 10.
CORRECTED = {"A": (1, "96"), "B": (2, "82.5"), "C": (3, "61.5"), "D": (4, "53.5"), "E": (5, "38.5")}
# N7's second deal voided: A's 10 there becomes 7, E's 7 becomes 10.
VOIDED = {"A": (1, "93"), "B": (2, "82.5"), "C": (3, "61.5"), "D": (4, "53.5"), "E": (5, "41.5")}
# N10's late deal: C's 5 becomes 10 (a shared first place), B's 7 becomes 5.
LATE = {"A": (1, "93"), "B": (2, "80.5"), "C": (3, "66.5"), "D": (4, "53.5"), "E": (5, "41.5")}


def _payload(ids: dict[str, int], deal: dict[str, Any]) -> dict[str, Any]:
    return results(ids, **{NAMES[key]: line for key, line in deal.items()})


def _table(series: Series) -> dict[str, tuple[int | None, str, int]]:
    kept = selectors.series_table(series=series)
    fresh = selectors.series_table_recompute(series=series)
    assert kept.rows() == fresh.rows()
    short = {name: key for key, name in NAMES.items()}
    return {
        short[row["name"]]: (row["rank"], str(row["total"].normalize()), row["played"])
        for row in kept.rows()
    }


def _totals(table: dict[str, tuple[int | None, str, int]]) -> dict[str, tuple[str, int]]:
    return {key: (Decimal(total), played) for key, (_, total, played) in table.items()}


def _expected(fixture: dict[str, tuple[str, int]]) -> dict[str, tuple[Decimal, int]]:
    return {key: (Decimal(total), played) for key, (total, played) in fixture.items()}


def test_twelve_events_and_three_corrections_equal_the_hand_fixture(standing):
    series = services.series_create(
        club=standing.club,
        actor=standing.organiser,
        name="Grand Prix 2026",
        points_table=[10, 7, 5, 3, 1],
        tiers={"regular": "1", "major": "2", "final": "1.5"},
        best_n=8,
        min_events=6,
        awards=[
            {"kind": "most_wins", "name": "Golden Joker"},
            {"kind": "best_average", "name": "Steady Hand"},
        ],
    )
    games = []
    for number, (tier, deals) in enumerate(NIGHTS):
        seated = [NAMES[key] for key in deals[0]]
        game, ids = new_game(standing, "points", seated)
        services.series_event_add(
            series=series, actor=standing.organiser, tier=tier, session_id=game.table.session_id
        )
        for deal in deals:
            play(standing, game, _payload(ids, deal))
        games.append((game, ids))
        table = _table(series)
        assert _totals(table) == _expected(AFTER_NIGHT[number]), f"after night {number + 1}"
        if number == 5:
            assert {key: rank for key, (rank, _, _) in table.items()} == RANKED_AFTER_SIX

    def ranks() -> dict[str, tuple[int | None, str]]:
        return {key: (rank, total) for key, (rank, total, _) in _table(series).items()}

    assert ranks() == FINAL

    game, ids = games[2]  # N3 corrected: D won
    deal = Deal.objects.get(game=game, number=1)
    correct(standing, deal, _payload(ids, {"D": "winner", "A": 10, "B": 10, "C": 50}))
    assert ranks() == CORRECTED

    game, ids = games[6]  # N7's second deal voided
    with TestCase.captureOnCommitCallbacks(execute=True):
        deal_void(deal=Deal.objects.get(game=game, number=2), actor=standing.organiser)
    assert ranks() == VOIDED

    game, ids = games[9]  # N10's late deal
    play(standing, game, _payload(ids, {"C": "winner", "A": 80, "B": 10}))
    assert ranks() == LATE
    n10 = selectors.series_table(series=series).events[9].pk
    lines = {row["name"]: row for row in selectors.series_table(series=series).rows()}
    places = {
        name: r["place"] for name, row in lines.items() for r in row["results"] if r["event"] == n10
    }
    assert places == {"Asha": 1, "Chitra": 1, "Bilal": 3}

    awards = {a.kind: a for a in selectors.series_table(series=series).awards}
    assert (awards["most_wins"].players, awards["most_wins"].value) == (["Asha"], "5")
    assert (awards["best_average"].players, awards["best_average"].value) == (["Asha"], "10.30")


def test_best_n_counts_the_best_results_and_tiers_multiply(standing):
    series = services.series_create(
        club=standing.club,
        actor=standing.organiser,
        name="Short",
        points_table=[10, 6],
        tiers={"regular": "1", "major": "2.5"},
        best_n=1,
        min_events=1,
    )
    for tier, winner in (("regular", "Asha"), ("major", "Bilal"), ("regular", "Bilal")):
        loser = "Bilal" if winner == "Asha" else "Asha"
        game, ids = new_game(standing, "points", ["Asha", "Bilal"])
        play(standing, game, results(ids, **{winner: "winner", loser: 20}))
        services.series_event_add(
            series=series, actor=standing.organiser, tier=tier, session_id=game.table.session_id
        )
    rows = {row["name"]: row for row in selectors.series_table(series=series).rows()}
    # Bilal: 6, 25 (10 x 2.5), 10: the best one counts. Asha: 10, 15 (6 x 2.5), 6.
    assert (rows["Bilal"]["total"], rows["Bilal"]["rank"]) == (Decimal("25.00"), 1)
    assert (rows["Asha"]["total"], rows["Asha"]["rank"]) == (Decimal("15.00"), 2)
    assert len(rows["Bilal"]["counted"]) == 1
    # All results count once best_n is lifted; the table follows the change of settings.
    series = services.series_update(series=series, actor=standing.organiser, best_n=None)
    rows = {row["name"]: row for row in selectors.series_table(series=series).rows()}
    assert (rows["Bilal"]["total"], rows["Asha"]["total"]) == (Decimal("41.00"), Decimal("31.00"))


def test_points_by_share_of_the_field(standing):
    series = services.series_create(
        club=standing.club,
        actor=standing.organiser,
        name="Shares",
        points_by="share",
        share_top=1000,
    )
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra", "Dev"])
    play(standing, game, results(ids, Asha="winner", Bilal=10, Chitra=20, Dev=30))
    services.series_event_add(
        series=series, actor=standing.organiser, tier="regular", session_id=game.table.session_id
    )
    rows = {row["name"]: row["total"] for row in selectors.series_table(series=series).rows()}
    assert rows == {
        "Asha": Decimal("1000"),
        "Bilal": Decimal("666.67"),
        "Chitra": Decimal("333.33"),
        "Dev": Decimal("0"),
    }
