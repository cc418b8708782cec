"""Rummikub matches (rummikub.md, formats.md): Sabra/American zero-sum games from the racks,
pool-exhausted games, International hands and pairwise settlement."""

from __future__ import annotations

from django.db.models import Sum
from django.test import Client

from ledger.models import Posting
from scoring import figures
from scoring.games import game_create, game_finish, table_create
from scoring.models import RulePreset
from tests.scoring.helpers import by_name, new_game, play, state

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]


def racks(ids, winner=None, last_mover=None, **tiles):
    body = {"racks": {str(ids[name]): rack for name, rack in tiles.items()}}
    body["winner"] = ids[winner] if winner else None
    if last_mover:
        body["last_mover"] = ids[last_mover]
    return body


def test_sabra_game_is_zero_sum_from_the_racks(standing):
    """rummikub.md: each loser scores minus their rack (joker 30), the winner the sum."""
    game, ids = new_game(standing, "sabra", FOUR)
    submission = play(
        standing,
        game,
        racks(ids, "Asha", Asha=[], Bilal=["R5", "JK"], Chitra=["K13"], Dev=["B1", "B2"]),
    )
    scores = {line["name"]: line["points"] for line in submission.result["players"]}
    assert scores == {"Asha": 35 + 13 + 3, "Bilal": -35, "Chitra": -13, "Dev": -3}
    assert sum(scores.values()) == 0
    assert by_name(state(game), "total") == scores
    points = Posting.objects.filter(book__game=game, quantity="points")
    total = points.aggregate(t=Sum("amount"))["t"]
    assert total == 0


def test_pool_exhausted_with_a_tie_shares_the_gain(standing):
    """rummikub.md Decision: tied lowest racks share the gain; a remainder goes one point at a
    time in seating order after the last player who moved."""
    game, ids = new_game(standing, "sabra", ["Asha", "Bilal", "Chitra"])
    submission = play(
        standing,
        game,
        racks(ids, None, last_mover="Asha", Asha=["R2"], Bilal=["B2"], Chitra=["K5", "O1"]),
    )
    scores = {line["name"]: line["points"] for line in submission.result["players"]}
    assert scores == {"Asha": 2, "Bilal": 2, "Chitra": -4}
    odd = play(
        standing,
        game,
        racks(ids, None, last_mover="Asha", Asha=["R2"], Bilal=["B2"], Chitra=["K5"]),
    )
    scores = {line["name"]: line["points"] for line in odd.result["players"]}
    assert scores == {"Asha": 1, "Bilal": 2, "Chitra": -3}  # Bilal sits after Asha


def test_a_bad_tile_is_rejected_naming_the_player_and_tile(standing):
    game, ids = new_game(standing, "sabra", ["Asha", "Bilal"])
    rejected = play(
        standing, game, racks(ids, "Asha", Asha=[], Bilal=["R5", "X9"]), expect="rejected"
    )
    assert rejected.reasons[0]["code"] == "bad_tile"
    assert rejected.reasons[0]["token"] == "X9"


def test_match_ends_after_its_number_of_games(standing):
    game, ids = new_game(standing, "american", ["Asha", "Bilal"], params={"match": {"games": 2}})
    play(standing, game, racks(ids, "Asha", Asha=[], Bilal=["R5"]))
    assert state(game)["status"] == "open"
    play(standing, game, racks(ids, "Bilal", Asha=["O7"], Bilal=[]))
    final = state(game)
    assert final["status"] == "finished" and final["games_counted"] == 2
    assert by_name(final, "total") == {"Asha": 5 - 7, "Bilal": -5 + 7}


def test_international_doubling_and_settlement_summing_to_zero(standing):
    """rummikub.md International: a joker as the final discard doubles every score of the hand;
    the session settles pairwise: net_i = r x (n x score_i - sum), summing to zero."""
    game, ids = new_game(
        standing, "international", ["Asha", "Bilal", "Chitra"], point_value_minor=10
    )
    first = play(
        standing,
        game,
        {
            **racks(ids, "Asha", Asha=[], Bilal=["R5", "R12"], Chitra=["B3"]),
            "win": "open",
            "melded": {str(ids["Bilal"]): True, str(ids["Chitra"]): False},
            "final_discard_joker": True,
        },
    )
    scores = {line["name"]: line["points"] for line in first.result["players"]}
    assert scores == {"Asha": 200, "Bilal": -30, "Chitra": -200}
    play(
        standing,
        game,
        {
            **racks(ids, "Bilal", Asha=["K9"], Bilal=[], Chitra=["O4"]),
            "win": "foot",
            "melded": {str(ids["Asha"]): True, str(ids["Chitra"]): True},
        },
    )
    now = state(game)
    totals = by_name(now, "total")
    assert totals == {"Asha": 191, "Bilal": 170, "Chitra": -204}
    settlement = now["settlement_minor"]
    assert sum(settlement.values()) == 0
    n, total = 3, sum(totals.values())
    assert settlement[str(ids["Asha"])] == 10 * (n * 191 - total)
    game_finish(game=game, actor=standing.organiser)
    money = dict(
        Posting.objects.filter(
            book__game=game, quantity="money", entry__kind="settlement"
        ).values_list("player_id", "amount")
    )
    assert money == {int(k): v for k, v in settlement.items()}
    assert state(game)["status"] == "finished"


def test_international_closed_win_is_classified_from_the_tiles(standing):
    game, ids = new_game(standing, "international", ["Asha", "Bilal"])
    royal = [f"R{n}" for n in range(1, 14)] + ["R1"]
    submission = play(
        standing,
        game,
        {
            **racks(ids, "Asha", Asha=[], Bilal=["B9"]),
            "win": "closed",
            "melded": {str(ids["Bilal"]): False},
            "closed_hand": royal,
        },
    )
    assert submission.result["closed_hand"]["name"] == "Royal"
    scores = {line["name"]: line["points"] for line in submission.result["players"]}
    assert scores == {"Asha": 2400, "Bilal": -2400}


def test_a_night_of_two_formats_keeps_their_points_apart(standing, django_assert_num_queries):
    """A rummy point and a Rummikub score are not the same unit: the session scoreboard, the
    player's page and history, and the CSV keep each format's points apart, never added."""
    from tests.scoring.conftest import make_night
    from tests.scoring.helpers import enter_deal

    night = make_night(standing, point_value_minor=0)
    enter_deal(
        night.game,
        standing.scorer,
        {
            "results": night.results(
                Asha={"outcome": "loser", "points": 10}, Bilal={"outcome": "loser", "points": 20},
                Chitra={"outcome": "first_drop"}, Dev={"outcome": "middle_drop"},
                Esther={"outcome": "loser", "points": 2}, Farid={"outcome": "winner"},
            )
        },
    )  # fmt: skip
    table = table_create(session=night.session, actor=standing.organiser)
    preset = RulePreset.objects.get(club=None, key="sabra")
    sabra = game_create(
        table=table, actor=standing.organiser, preset=preset,
        players=[night.players[name] for name in FOUR],
    )  # fmt: skip
    ids = {name: night.pid(name) for name in FOUR}
    play(standing, sabra, racks(ids, "Dev", Asha=["R5"], Bilal=["K13"], Chitra=["O1"], Dev=[]))

    with django_assert_num_queries(3):  # as for a night of one format
        figures.session_scoreboard(session=night.session)
    board = (
        standing.client("player")
        .get(f"/api/v1/clubs/home/sessions/{night.session.pk}/scoreboard/")
        .json()
    )
    assert board["formats"] == ["points", "rummikub"]
    split = {line["name"]: line["points_by_format"] for line in board["lines"]}
    assert split["Asha"] == {"points": -10, "rummikub": -5}
    assert split["Dev"] == {"points": -40, "rummikub": 5 + 13 + 1}
    assert split["Farid"] == {"points": 10 + 20 + 20 + 40 + 2, "rummikub": 0}
    assert all("points" not in line for line in board["lines"])  # no sum of units
    assert [c["key"] for c in board["columns"]] == ["money", "points", "rummikub"]
    assert [c["unit"] for c in board["columns"]][1:] == ["rummy points", "Rummikub score"]

    browser = Client()
    browser.force_login(standing.player)
    html = browser.get(f"/clubs/home/sessions/{night.session.pk}/scoreboard/").content.decode()
    assert 'Points rummy <span class="unit">(rummy points)</span>' in html
    assert 'Rummikub <span class="unit">(Rummikub score)</span>' in html
    # Dev's own page: a total per format, never their sum, and a chart place per format.
    dev = browser.get(f"/clubs/home/players/{night.pid('Dev')}/").content.decode()
    assert 'Points rummy <span data-figure="points">−40</span>' in dev
    assert 'Rummikub <span data-figure="points">+19</span>' in dev and "−21" not in dev
    assert 'Points rummy <span class="sr">points</span>' in dev
    assert dev.count('class="chart-label"') == 2
    # History lines grouped under the night, each naming its format when there are several.
    assert ">Friday</a>" in dev and 'class="night-head"' in dev
    assert '<span class="small muted">Rummikub</span>' in dev
    assert '<span class="small muted">Points rummy</span>' in dev

    # The same history through the API, for a score app.
    api = standing.client("player")
    history = api.get(f"/api/v1/clubs/home/players/{night.pid('Dev')}/history/").json()
    assert history["name"] == "Dev" and history["formats"] == ["points", "rummikub"]
    assert history["total"]["points_by_format"] == {"points": -40, "rummikub": 19}
    assert "points" not in history["total"] and history["count"] == 2
    assert [season["totals"]["points_by_format"] for season in history["seasons"]] == [
        {"points": -40, "rummikub": 19}
    ]
    newest, oldest = history["results"]
    assert (newest["game_format"], newest["outcome"], newest["points"]) == (
        "rummikub", "winner", 19,
    )  # fmt: skip
    assert (oldest["game_format"], oldest["outcome"], oldest["running_points"]) == (
        "points", "middle_drop", -40,
    )  # fmt: skip
    page = api.get(
        f"/api/v1/clubs/home/players/{night.pid('Dev')}/history/", {"limit": 1, "offset": 1}
    ).json()
    assert page["count"] == 2 and [line["deal"] for line in page["results"]] == [oldest["deal"]]
    bad = api.get(f"/api/v1/clubs/home/players/{night.pid('Dev')}/history/", {"limit": "x"})
    assert bad.status_code == 400 and "limit" in bad.json()["error"]["message"]
    missing = api.get("/api/v1/clubs/home/players/999999/history/")
    assert missing.status_code == 404
    csv = browser.get(f"/clubs/home/sessions/{night.session.pk}/export.csv").content.decode()
    assert "deals won,points (Points rummy),points (Rummikub)" in csv
    assert "\r\nDev,0.00,0,2,1,-40,19\r\n" in csv and "-21" not in csv


def test_a_night_of_one_format_has_one_points_column(standing):
    game, ids = new_game(standing, "sabra", FOUR)
    play(standing, game, racks(ids, "Asha", Asha=[], Bilal=["R5"], Chitra=["O1"], Dev=["B2"]))
    board = (
        standing.client("player")
        .get(f"/api/v1/clubs/home/sessions/{game.table.session_id}/scoreboard/")
        .json()
    )
    assert board["formats"] == ["rummikub"]
    assert [c["label"] for c in board["columns"]] == ["Money", "Score"]
    assert {line["name"]: line["points_by_format"] for line in board["lines"]} == {
        "Asha": {"rummikub": 8}, "Bilal": {"rummikub": -5}, "Chitra": {"rummikub": -1},
        "Dev": {"rummikub": -2},
    }  # fmt: skip
