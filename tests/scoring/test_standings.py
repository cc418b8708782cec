"""Standings: kept rows equal a recomputation from the ledger, past tables can be reproduced,
the metrics registry orders them, and a request costs the same whatever the history."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import selectors
from scoring.models import Deal, StandingRow
from scoring.standing_rows import TOTAL_FIELDS
from standings import recompute, tables
from tests.scoring.helpers import correct, new_game, play, results


def kept(scope: str, scope_id: int, game_format: str = "") -> dict[int, dict[str, int]]:
    rows = StandingRow.objects.filter(scope=scope, scope_id=scope_id, game_format=game_format)
    out = {row.player_id: {name: getattr(row, name) for name in TOTAL_FIELDS} for row in rows}
    return {pid: values for pid, values in out.items() if any(values.values())}


def assert_kept_equals_recomputed(game) -> None:
    session = game.table.session
    for scope, scope_id, game_format in [
        ("game", game.pk, ""),
        ("session", session.pk, ""),
        ("session", session.pk, game.format),
        ("season", session.season_id, ""),
        ("season", session.season_id, game.format),
    ]:
        assert kept(scope, scope_id, game_format) == recompute.standings_recompute(
            scope=scope, scope_id=scope_id, game_format=game_format
        )


OUTCOME = st.one_of(
    st.integers(0, 80), st.sampled_from(["first_drop", "middle_drop", "wrong_show", "late_declare"])
)


PRESETS = ["points", "pool-101", "deals-6"]


@st.composite
def histories(draw):
    fmt = draw(st.sampled_from(PRESETS))
    # Sometimes a game of another format in the same season first, so that the season's table
    # of all formats and its table per format differ.
    other = draw(st.one_of(st.none(), st.sampled_from([p for p in PRESETS if p != fmt])))
    players = draw(st.integers(2, 5))
    steps = []
    for _ in range(draw(st.integers(1, 6))):
        winner = draw(st.integers(0, players - 1))
        lines = {f"P{i}": ("winner" if i == winner else draw(OUTCOME)) for i in range(players)}
        steps.append((draw(st.booleans()), lines))  # (correct the last deal afterwards?, lines)
    return fmt, other, players, steps


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(history=histories())
@pytest.mark.slow
def test_kept_standings_equal_a_recomputation(standing, history):
    fmt, other, players, steps = history
    names = [f"P{i}" for i in range(players)]
    earlier = None
    if other is not None:
        earlier, ids = new_game(standing, other, names, entry_fee_minor=500, point_value_minor=5)
        play(standing, earlier, results(ids, P0="winner", **{n: 7 for n in names[1:]}))
    game, ids = new_game(standing, fmt, names, entry_fee_minor=1000, point_value_minor=10)
    for correct_it, lines in steps:
        if game.status != "open":
            break
        expected = set(standings_players(game, ids, fmt))
        live = {name: line for name, line in lines.items() if ids[name] in expected}
        if len(live) < 2 or "winner" not in live.values():
            break
        submission = play(standing, game, results(ids, **live))
        game.refresh_from_db()
        if correct_it and game.status == "open":
            swapped = {n: (5 if v == "winner" else v) for n, v in live.items()}
            other = next(n for n in live if live[n] != "winner")
            swapped[other] = "winner"
            correct(standing, submission.deal, results(ids, **swapped))
        game.refresh_from_db()
        assert_kept_equals_recomputed(game)
        if earlier is not None:
            assert_kept_equals_recomputed(earlier)


def standings_players(game, ids, fmt):
    state = selectors.game_state(game=game).as_dict()
    if fmt == "pool-101":
        return [line["player"] for line in state["players"] if line["status"] == "active"]
    return list(ids.values())


def test_standings_after_a_past_deal_are_reproduced(standing):
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    first = play(standing, game, results(ids, Asha="winner", Bilal=30, Chitra=20))
    season = game.table.session.season
    then = tables.standings_table(club=standing.club, scope="season", scope_id=season.pk)
    play(standing, game, results(ids, Bilal="winner", Asha=80, Chitra=2))
    correct(standing, first.deal, results(ids, Chitra="winner", Bilal=30, Asha=20))
    now = tables.standings_table(club=standing.club, scope="season", scope_id=season.pk)
    assert [(line.name, line.totals["points"]) for line in now.lines] != [
        (line.name, line.totals["points"]) for line in then.lines
    ]
    entry = first.deal.entries.filter(kind="deal").order_by("id").first().pk
    again = recompute.standings_table_as_of(
        club=standing.club, scope="season", scope_id=season.pk, as_of_entry=entry
    )
    assert [(line.rank, line.name, line.totals) for line in again.lines] == [
        (line.rank, line.name, line.totals) for line in then.lines
    ]


def test_standings_api_ranks_by_the_clubs_metrics_with_shared_ranks(standing):
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra", "Dev"])
    play(standing, game, results(ids, Asha="winner", Bilal=10, Chitra=10, Dev=20))
    play(standing, game, results(ids, Bilal="winner", Asha=10, Chitra=10, Dev=20))
    client = standing.client("player")
    body = client.get("/api/v1/clubs/home/standings/").json()
    assert body["metrics"] == ["points", "deals_won", "win_rate"]
    ranked = [(line["rank"], line["name"], line["metrics"]["points"]) for line in body["results"]]
    assert ranked == [
        (1, "Asha", 30), (1, "Bilal", 30), (3, "Chitra", -20), (4, "Dev", -40),
    ]  # fmt: skip
    organiser = standing.client("organiser")
    assert organiser.put(
        "/api/v1/clubs/home/standings/metrics/", {"order": ["fewest_conceded", "points"]},
        format="json",
    ).status_code == 200  # fmt: skip
    body = client.get("/api/v1/clubs/home/standings/").json()
    assert [line["name"] for line in body["results"]][:2] == ["Asha", "Bilal"]
    assert [line["metrics"]["fewest_conceded"] for line in body["results"]] == [10, 10, 20, 40]
    bad = client.get("/api/v1/clubs/home/standings/", {"metrics": "points,luck"})
    assert bad.status_code == 400 and bad.json()["error"]["details"]["token"] == "luck"
    session = client.get(
        "/api/v1/clubs/home/standings/", {"scope": "session", "id": game.table.session_id}
    ).json()
    assert session["count"] == 4
    as_of = client.get(
        "/api/v1/clubs/home/standings/",
        {"as_of_deal": Deal.objects.filter(game=game, number=1).get().pk},
    ).json()
    assert [(line["name"], line["totals"]["points"]) for line in as_of["results"]][:1] == [
        ("Asha", 40)
    ]
    # A past table pages like the live one, and refuses a page it cannot give.
    first_deal = Deal.objects.filter(game=game, number=1).get().pk
    paged = client.get(
        "/api/v1/clubs/home/standings/", {"as_of_deal": first_deal, "limit": 1, "offset": 1}
    ).json()
    assert paged["count"] == as_of["count"] and paged["results"] == as_of["results"][1:2]
    refused = client.get("/api/v1/clubs/home/standings/", {"as_of_deal": first_deal, "limit": 0})
    assert refused.status_code == 400 and "limit" in refused.json()["error"]["details"]


@pytest.mark.parametrize("deals", [1, 20])
def test_standings_request_takes_a_fixed_number_of_queries(
    standing, django_assert_num_queries, deals
):
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    for _ in range(deals):
        play(standing, game, results(ids, Asha="winner", Bilal=3, Chitra=4))
    client = standing.client("player")
    # club + role, the current season, the count, the page, the names
    with django_assert_num_queries(5):
        response = client.get("/api/v1/clubs/home/standings/")
    assert response.status_code == 200
    assert response.json()["results"][0]["totals"]["deals_played"] == deals


def test_ranks_past_the_first_page_count_the_players_ahead(standing):
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra", "Dev", "Esther"])
    play(standing, game, results(ids, Asha="winner", Bilal=10, Chitra=10, Dev=10, Esther=20))
    season = game.table.session.season_id
    full = tables.standings_table(club=standing.club, scope="season", scope_id=season)
    assert [(line.rank, line.name) for line in full.lines] == [
        (1, "Asha"), (2, "Bilal"), (2, "Chitra"), (2, "Dev"), (5, "Esther"),
    ]  # fmt: skip
    for offset in range(1, 5):
        page = tables.standings_table(
            club=standing.club, scope="season", scope_id=season, limit=2, offset=offset
        )
        assert [(line.rank, line.name) for line in page.lines] == [
            (line.rank, line.name) for line in full.lines[offset : offset + 2]
        ]
        assert page.count == 5


def test_a_season_of_two_formats_has_standings_per_format(standing):
    """A rummy point and a Rummikub score are not the same unit: a season keeps a table per game
    format beside the table of all formats, each equal to a recomputation from the ledger."""
    rummy, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    play(standing, rummy, results(ids, Asha="winner", Bilal=10, Chitra=20))
    sabra, _ = new_game(standing, "sabra", ["Asha", "Bilal", "Chitra"])
    tiles = {"racks": {str(ids["Asha"]): ["K13", "O12"], str(ids["Bilal"]): ["R1"]}}
    play(standing, sabra, {**tiles, "winner": ids["Chitra"]} | {"racks": {
        **tiles["racks"], str(ids["Chitra"]): []}})  # fmt: skip
    season = rummy.table.session.season_id
    assert sabra.table.session.season_id == season
    for game in (rummy, sabra):
        assert_kept_equals_recomputed(game)

    client = standing.client("player")
    by_format = {
        fmt: client.get("/api/v1/clubs/home/standings/", {"game_format": fmt}).json()
        for fmt in ("", "points", "rummikub")
    }
    assert by_format["points"]["game_format"] == "points" and by_format[""]["game_format"] == ""
    points = {fmt: {line["name"]: line["totals"]["points"] for line in body["results"]}
              for fmt, body in by_format.items() if fmt}  # fmt: skip
    assert points["points"] == {"Asha": 30, "Bilal": -10, "Chitra": -20}
    assert points["rummikub"] == {"Asha": -25, "Bilal": -1, "Chitra": 26}
    # All formats: each format's points apart, never their sum, and not ranked by points.
    everything = by_format[""]
    assert everything["formats"] == ["points", "rummikub"]
    assert everything["left_out"] == ["points"] and "points" not in everything["metrics"]
    assert {line["name"]: line["points_by_format"] for line in everything["results"]} == {
        "Asha": {"points": 30, "rummikub": -25}, "Bilal": {"points": -10, "rummikub": -1},
        "Chitra": {"points": -20, "rummikub": 26},
    }  # fmt: skip
    assert all("points" not in line["totals"] for line in everything["results"])
    assert [line["name"] for line in by_format["rummikub"]["results"]] == [
        "Chitra",
        "Bilal",
        "Asha",
    ]

    deal = Deal.objects.filter(game=rummy).get()
    as_of = client.get(
        "/api/v1/clubs/home/standings/", {"game_format": "rummikub", "as_of_deal": deal.pk}
    )
    assert as_of.status_code == 200 and as_of.json()["results"] == []

    unknown = client.get("/api/v1/clubs/home/standings/", {"game_format": "chess"})
    assert unknown.status_code == 400
    assert unknown.json()["error"]["code"] == "bad_format"
    assert unknown.json()["error"]["details"]["token"] == "chess"
    of_a_game = client.get(
        "/api/v1/clubs/home/standings/", {"game_format": "points", "scope": "game", "id": rummy.pk}
    )
    assert (
        of_a_game.status_code == 400
        and "a game has one format" in of_a_game.json()["error"]["message"]
    )


def test_the_migration_fills_a_seasons_rows_per_format_from_its_games(standing):
    """Rows per format for history kept before they existed: summed from the games' rows."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("scoring.migrations.0006_standings_by_format")
    rummy, ids = new_game(standing, "points", ["Asha", "Bilal"])
    play(standing, rummy, results(ids, Asha="winner", Bilal=10))
    play(standing, rummy, results(ids, Bilal="winner", Asha=4))
    season = rummy.table.session.season_id
    before = kept("season", season, "points")
    from django.db import connection

    guarded = connection.vendor == "postgresql"
    if guarded:  # as the migration ran, before the rows' guard (scoring 0028) was there
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
    StandingRow.objects.exclude(game_format="").delete()
    migration.season_rows_by_format(apps, None)
    if guarded:
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")
    assert kept("season", season, "points") == before == {
        ids["Asha"]: {**dict.fromkeys(TOTAL_FIELDS, 0), "points": 6, "deals_played": 2,
                      "deals_won": 1, "points_conceded": 4},
        ids["Bilal"]: {**dict.fromkeys(TOTAL_FIELDS, 0), "points": -6,
                       "deals_played": 2, "deals_won": 1, "points_conceded": 10},
    }  # fmt: skip
