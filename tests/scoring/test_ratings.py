"""Ratings: each finished game's finishing order fed to OpenSkill (Plackett-Luce) in the order the
games finished; the stored ratings always equal a replay from scratch, through corrections; the
leaderboard as it stood after a session; the API."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import pytest
from django.test import Client, TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from ledger.models import Posting
from rules.ranking import competition_ranks
from scoring.formats.pool.moves import pool_rejoin
from scoring.games import game_finish
from scoring.models import Game
from standings import ratings
from standings.models import RatedGame, Rating
from tests.scoring.helpers import correct, new_game, play, results

SIX = ["Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid"]


def openskill_replay(games: list[dict[str, int]]) -> dict[str, tuple[float, float, int]]:
    """The test's own replay, with openskill and nothing of the project's: player -> (mu, sigma,
    games)."""
    model = PlackettLuce()
    skills: dict[str, Any] = {}
    count: dict[str, int] = defaultdict(int)
    for ranks in games:
        players = list(ranks)
        teams = [[skills.get(p) or model.rating()] for p in players]
        rated = model.rate(teams, ranks=[ranks[p] for p in players])
        for player, team in zip(players, rated, strict=True):
            skills[player] = team[0]
            count[player] += 1
    return {p: (r.mu, r.sigma, count[p]) for p, r in skills.items()}


def stored(family: str = "indian") -> dict[str, tuple[float, float, int]]:
    return {
        str(r.player_id): (r.mu, r.sigma, r.games) for r in Rating.objects.filter(family=family)
    }


def applied(family: str = "indian") -> list[dict[str, int]]:
    games = RatedGame.objects.filter(family=family).order_by("finished_at", "game_id")
    return [game.ranks for game in games]


def assert_close(a: dict[str, tuple[float, float, int]], b: dict[str, tuple[float, float, int]]):
    assert set(a) == set(b)
    for player in a:
        assert a[player][2] == b[player][2], player
        assert a[player][0] == pytest.approx(b[player][0], abs=1e-9), player
        assert a[player][1] == pytest.approx(b[player][1], abs=1e-9), player


def close_table(standing: Any, game: Game) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_finish(game=game, actor=standing.organiser)


def test_a_tie_shares_a_rank_and_moves_both_alike(standing):
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    play(standing, game, results(ids, Asha="winner", Bilal=10, Chitra=10))
    close_table(standing, game)
    (rated,) = RatedGame.objects.all()
    assert rated.ranks == {str(ids["Asha"]): 1, str(ids["Bilal"]): 2, str(ids["Chitra"]): 2}
    bilal = Rating.objects.get(player_id=ids["Bilal"])
    chitra = Rating.objects.get(player_id=ids["Chitra"])
    assert (bilal.mu, bilal.sigma) == (chitra.mu, chitra.sigma)
    assert Rating.objects.get(player_id=ids["Asha"]).mu > 25 > bilal.mu


@pytest.mark.parametrize("players", [2, 6])
def test_a_game_of_two_and_of_six_rate_as_openskill_does(standing, players):
    names = SIX[:players]
    game, ids = new_game(standing, "points", names)
    losers = {name: 5 * (i + 1) for i, name in enumerate(names[1:])}
    play(standing, game, results(ids, **{names[0]: "winner"}, **losers))
    close_table(standing, game)
    expected = openskill_replay(applied())
    assert_close(stored(), expected)
    assert len(expected) == players


def test_a_rejoined_pool_player_ranks_by_the_last_elimination(standing):
    game, ids = new_game(standing, "pool-101", ["Asha", "Bilal", "Chitra", "Dev"])
    play(standing, game, results(ids, Asha="winner", Bilal=80, Chitra=30, Dev=40))
    play(standing, game, results(ids, Asha="winner", Bilal=30, Chitra=20, Dev=10))  # Bilal out
    bilal = game.seats.get(player_id=ids["Bilal"]).player
    pool_rejoin(game=game, actor=standing.organiser, player=bilal)
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=20, Dev=70))  # Dev out
    play(standing, game, results(ids, Asha="winner", Bilal=80, Chitra=80))  # both out: Asha won
    rated = RatedGame.objects.get(game=game)
    # Out in the same deal, Chitra (150) places above Bilal (rejoined at 51, out at 151).
    assert rated.ranks == {
        str(ids["Asha"]): 1, str(ids["Chitra"]): 2, str(ids["Bilal"]): 3, str(ids["Dev"]): 4,
    }  # fmt: skip
    assert_close(stored(), openskill_replay(applied()))


def test_families_are_rated_apart_and_abandoned_games_not_at_all(standing):
    game, ids = new_game(standing, "sabra", ["Asha", "Bilal"])
    play(standing, game, {"racks": {str(ids["Asha"]): [], str(ids["Bilal"]): ["R5"]},
                          "winner": ids["Asha"]})  # fmt: skip
    close_table(standing, game)
    pool, _ = new_game(standing, "pool-101", ["Asha", "Bilal"], entry_fee_minor=100)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_finish(game=pool, actor=standing.organiser, end="abandoned")
    assert list(RatedGame.objects.values_list("family", flat=True)) == ["rummikub"]
    assert set(stored("rummikub")) == {str(ids["Asha"]), str(ids["Bilal"])}
    assert stored("indian") == {}


def _net_ranks(game: Game) -> dict[str, int]:
    """The finishing order of a points table from its postings, by the test's own reckoning."""
    net: dict[str, int] = defaultdict(int)
    for seat in game.seats.all():
        net[str(seat.player_id)] += 0
    for player, amount in Posting.objects.filter(
        book__game=game, account="player", quantity="points"
    ).values_list("player_id", "amount"):
        net[str(player)] += amount
    return competition_ranks(dict(net))


TABLE = st.tuples(
    st.lists(st.sampled_from(SIX), min_size=2, max_size=4, unique=True),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 60)), min_size=1, max_size=3),
    st.one_of(st.none(), st.integers(0, 5)),  # a later correction of the game's deal n
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(TABLE, min_size=1, max_size=4))
def test_stored_ratings_always_equal_a_replay_from_scratch(standing, tables):
    """Points tables closed one after another, some corrected after they closed (a replay from
    that game on): the stored ratings equal openskill's own replay of the games, ranked by the
    test's own reckoning of each table's net points."""
    games: list[tuple[Game, dict[str, int], list[Any]]] = []
    for names, deals, _ in tables:
        game, ids = new_game(standing, "points", names)
        played = []
        for winner, points in deals:
            lines = {n: ("winner" if i == winner % len(names) else points) for i, n in
                     enumerate(names)}  # fmt: skip
            played.append(play(standing, game, results(ids, **lines)))
        close_table(standing, game)
        games.append((game, ids, played))
    for (_game, ids, played), (names, _, fix) in zip(games, tables, strict=True):
        if fix is None:
            continue
        submission = played[fix % len(played)]
        # The same deal, won by another player: the closed table's order changes.
        lines = {n: ("winner" if i == (fix + 1) % len(names) else 7) for i, n in enumerate(names)}
        correct(standing, submission.deal, results(ids, **lines))
    order = sorted((g for g, _, _ in games), key=lambda g: (g.finished_at, g.pk))
    for game in order:
        game.refresh_from_db()
    mine = RatedGame.objects.filter(game__in=order).order_by("finished_at", "game_id")
    assert [g.ranks for g in mine] == [_net_ranks(game) for game in order]
    # (Examples share the database: the replay is of every rated game so far, in order.)
    assert_close(stored(), openskill_replay(applied()))
    # And a replay from scratch by the service changes nothing.
    before = stored()
    ratings.ratings_replay(club=standing.club, family="indian")
    assert_close(stored(), before)


def test_the_table_as_it_stood_after_a_session_is_kept_when_later_ones_are_added(standing):
    first, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    play(standing, first, results(ids, Asha="winner", Bilal=10, Chitra=20))
    close_table(standing, first)
    then = ratings.rating_table(club=standing.club, family="indian", include_provisional=True)
    session = first.table.session_id
    later, _ = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    play(standing, later, results(ids, Chitra="winner", Bilal=10, Asha=20))
    close_table(standing, later)
    now = ratings.rating_table(club=standing.club, family="indian", include_provisional=True)
    again = ratings.rating_table(
        club=standing.club, family="indian", include_provisional=True, as_of_session=session
    )
    assert [(line.name, line.mu) for line in now] != [(line.name, line.mu) for line in then]
    assert [(line.rank, line.name, line.mu, line.sigma, line.games) for line in again] == [
        (line.rank, line.name, line.mu, line.sigma, line.games) for line in then
    ]


def test_a_lost_announcement_is_caught_up(standing):
    game, ids = new_game(standing, "points", ["Asha", "Bilal"])
    play(standing, game, results(ids, Asha="winner", Bilal=10))
    with TestCase.captureOnCommitCallbacks(execute=False):  # the task never runs
        game_finish(game=game, actor=standing.organiser)
    assert not RatedGame.objects.exists()
    assert ratings.ratings_catch_up() == [game.pk]
    assert RatedGame.objects.filter(game=game).exists() and ratings.ratings_catch_up() == []
    assert ratings.rating_game_update(game_id=game.pk) == "unchanged"


def _games_won_by(standing: Any, winners: list[str]) -> dict[str, int]:
    """A game of Asha, Bilal and Chitra for each of ``winners``, each won by that player and
    closed (one table a game: each deal here is its own rated game); the players' ids."""
    for n, winner in enumerate(winners):
        game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
        others = {name: 10 + n for name in ids if name != winner}
        play(standing, game, results(ids, **{winner: "winner"}, **others))
        close_table(standing, game)
    return ids


def test_the_api_gives_the_leaderboard_the_games_and_a_players_history(standing):
    ids = _games_won_by(standing, ["Asha", "Bilal", "Asha", "Asha", "Chitra"])
    api = standing.client("player")
    board = api.get("/api/v1/clubs/home/ratings/", {"game_family": "indian"}).json()
    assert board["game_family"] == "indian" and board["as_of_session"] is None
    assert next(line["name"] for line in board["results"]) == "Asha"
    line = board["results"][0]
    assert set(line) == {"rank", "player", "name", "mu", "sigma", "ordinal", "games",
                         "provisional"}  # fmt: skip
    assert line["games"] == 5 and line["provisional"] is False
    assert line["ordinal"] == pytest.approx(line["mu"] - 3 * line["sigma"])
    games = api.get("/api/v1/clubs/home/ratings/games/", {"game_family": "indian"}).json()
    assert games["count"] == 5
    replayed = openskill_replay([g["ranks"] for g in games["results"]])
    mine = {str(line["player"]): (line["mu"], line["sigma"], line["games"])
            for line in board["results"]}  # fmt: skip
    assert_close(mine, replayed)
    history = api.get(f"/api/v1/clubs/home/players/{ids['Asha']}/ratings/").json()
    assert [c["rank"] for c in history["changes"]] == [1, 2, 1, 1, 2]
    assert history["changes"][0]["mu_before"] == pytest.approx(25.0)
    assert history["changes"][-1]["mu_after"] == pytest.approx(line["mu"])
    bad = api.get("/api/v1/clubs/home/ratings/", {"game_family": "chess"})
    assert bad.status_code == 400 and bad.json()["error"]["details"]["token"] == "chess"


def test_a_players_rating_changes_are_paged_and_the_one_list_deprecated(standing):
    """The paged route answers the deprecated list's changes, in its order, a page at a time;
    the list still answers, with the Deprecation and Sunset headers."""
    from email.utils import parsedate_to_datetime

    from config.deprecations import REGISTRY
    from tests.api.test_schema_examples import assert_answers_as_declared

    ids = _games_won_by(standing, ["Asha", "Bilal", "Asha", "Asha", "Chitra"])
    api = standing.client("player")
    path = f"/api/v1/clubs/home/players/{ids['Asha']}/ratings/"
    listed = api.get(path)
    deprecation = REGISTRY["players.ratings"]
    assert listed["Deprecation"] == f"@{int(deprecation.since.timestamp())}"
    assert parsedate_to_datetime(listed["Sunset"]) == deprecation.sunset
    first = api.get(f"{path}changes/", {"limit": 2})
    assert first.status_code == 200 and "Deprecation" not in first
    page = first.json()
    assert set(page) == {"player", "name", "count", "next", "previous", "results"}
    assert (page["player"], page["name"], page["count"]) == (ids["Asha"], "Asha", 5)
    paged = page["results"]
    while page["next"]:
        assert page["next"].startswith("http://testserver/")
        page = api.get(page["next"]).json()
        paged += page["results"]
    assert paged == listed.json()["changes"] and len(paged) == 5
    assert_answers_as_declared(first.json(), "RatingChangePage")
    assert api.get(f"{path}changes/", {"limit": 0}).status_code == 400
    assert api.get(f"{path}changes/", {"colour": "red"}).status_code == 400


def test_provisional_players_are_left_out_unless_asked(standing):
    game, ids = new_game(standing, "points", ["Asha", "Bilal"])
    play(standing, game, results(ids, Asha="winner", Bilal=10))
    close_table(standing, game)
    api = standing.client("player")
    assert api.get("/api/v1/clubs/home/ratings/").json()["results"] == []
    shown = api.get("/api/v1/clubs/home/ratings/", {"provisional": "true"}).json()["results"]
    assert [(line["name"], line["provisional"]) for line in shown] == [
        ("Asha", True), ("Bilal", True),
    ]  # fmt: skip


def test_rating_and_ordinal_rank_standings_live_and_as_it_stood(standing):
    """The standings registry's "rating" and "ordinal" read each player's rating in the table's
    family; a table as it stood reads the ratings of then."""
    from scoring.standing_rows import TOTAL_FIELDS
    from standings import recompute, tables

    first, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    play(standing, first, results(ids, Chitra="winner", Bilal=10, Asha=20))
    close_table(standing, first)
    season = first.table.session.season_id
    table = tables.standings_table(
        club=standing.club, scope="season", scope_id=season, metrics=["ordinal", "points"]
    )
    expected = {r.player_id: r.ordinal for r in Rating.objects.all()}
    assert [line.player_id for line in table.lines] == sorted(expected, key=lambda p: -expected[p])
    assert table.lines[0].name == "Chitra"
    assert all(set(line.totals) == set(TOTAL_FIELDS) for line in table.lines)
    entry = first.book.entries.order_by("-id").values_list("id", flat=True).first()
    later, _ = new_game(standing, "points", ["Asha", "Bilal", "Chitra"])
    for _ in range(3):
        play(standing, later, results(ids, Asha="winner", Bilal=10, Chitra=30))
    close_table(standing, later)
    now = tables.standings_table(
        club=standing.club, scope="season", scope_id=season, metrics=["rating"]
    )
    mus = {r.player_id: r.mu for r in Rating.objects.all()}
    assert [line.player_id for line in now.lines] == sorted(mus, key=lambda p: -mus[p])
    assert [line.metrics for line in now.lines] != [line.metrics for line in table.lines]
    then = recompute.standings_table_as_of(
        club=standing.club, scope="season", scope_id=season, as_of_entry=entry,
        metrics=["ordinal", "points"],
    )  # fmt: skip
    assert [(line.name, line.metrics) for line in then.lines] == [
        (line.name, line.metrics) for line in table.lines
    ]
    sabra, s_ids = new_game(standing, "sabra", ["Asha", "Bilal"])
    play(standing, sabra, {"racks": {str(s_ids["Asha"]): [], str(s_ids["Bilal"]): ["R5"]},
                           "winner": s_ids["Asha"]})  # fmt: skip
    with pytest.raises(Exception) as mixed:
        tables.standings_table(
            club=standing.club, scope="season", scope_id=season, metrics=["rating"]
        )
    assert getattr(mixed.value, "code", "") == "bad_metric"


def test_the_standings_board_ranks_as_the_api_and_puts_the_provisional_after(standing):
    """The standings page's ratings board: the established players in the API's order and
    ranks, then a provisional player, unranked, with the same figures."""
    _games_won_by(standing, ["Chitra", "Bilal", "Chitra", "Asha", "Chitra"])
    newcomer, pair = new_game(standing, "points", ["Dev", "Asha"])
    play(standing, newcomer, results(pair, Dev="winner", Asha=10))
    close_table(standing, newcomer)

    api = standing.client("player")
    ranked = api.get("/api/v1/clubs/home/ratings/", {"game_family": "indian"}).json()["results"]
    assert [line["name"] for line in ranked] != [] and "Dev" not in [li["name"] for li in ranked]
    page = Client()
    page.force_login(standing.player)
    body = page.get("/clubs/home/standings/").content.decode()
    board = body[body.index('data-family="indian"') : body.index("</table>", body.index("ratings"))]
    rows = re.findall(r"<tr[^>]*><td>([^<]+)</td><th scope=\"row\">(?:<a [^>]+>)?([^<]+)<", board)
    expected = [(str(line["rank"]), line["name"]) for line in ranked] + [("–", "Dev")]
    assert rows == expected
    assert f"{ranked[0]['ordinal']:.2f}" in board


def test_the_player_page_counts_its_rated_games_in_words(standing):
    """The rating chart's caption and description name the games it covers: one game, then
    two games."""
    ids = _games_won_by(standing, ["Asha"])
    page = Client()
    page.force_login(standing.player)

    def caption() -> tuple[str, str]:
        body = page.get(f"/clubs/home/players/{ids['Asha']}/").content.decode()
        start = body.index('class="rating-chart"')
        chart = body[start : body.index("</svg>", start)]
        shown = re.search(r'text-anchor="end">([^<]+)<', chart)
        described = re.search(r"<desc [^>]+>The rating after each of ([^,]+),", chart)
        assert shown is not None and described is not None
        return shown.group(1).split(" · ")[0], described.group(1)

    assert caption() == ("1 game", "1 rated game")
    _games_won_by(standing, ["Bilal"])
    assert caption() == ("2 games", "2 rated games")
