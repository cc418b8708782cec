"""On the demo club, what each player sees on their own page equals the standings and the
ledger: money, chips, points per format and deals, season by season."""

from __future__ import annotations

from collections import defaultdict

from django.core.management import call_command
from django.test import Client, TestCase

from clubs.models import Club, Player
from clubs.page_kit.display import club_money
from ledger.models import AccountKind, Posting
from scoring.history import player_history
from scoring.models import StandingRow
from standings import tables


def test_the_demo_players_pages_equal_the_standings_and_the_ledger(db, django_user_model):
    call_command("load_demo")
    club = Club.objects.get(slug="demo")
    browser = Client()
    browser.force_login(django_user_model.objects.get(username="owner"))
    players = list(Player.objects.filter(club=club))
    assert len(players) == 18  # the club's twelve and the knock-out's six guests
    for player in players:
        history = player_history(player=player)
        ledger: dict[str, int] = defaultdict(int)
        for quantity, game_format, amount in Posting.objects.filter(
            player=player, account=AccountKind.PLAYER
        ).values_list("quantity", "book__game__format", "amount"):
            ledger[f"{quantity}:{game_format}" if quantity == "points" else quantity] += amount
        assert history.total.money_minor == ledger["money"]
        assert history.total.chips == ledger["chips"]
        for game_format, points in history.total.points_by_format.items():
            assert points == ledger[f"points:{game_format}"]
        for season in history.seasons:
            row = StandingRow.objects.get(
                scope="season", scope_id=season.season_id, game_format="", player=player
            )
            assert season.totals.money_minor == row.money_minor, player.name
            assert season.totals.chips == row.chips
            assert season.totals.deals_played == row.deals_played
            assert season.totals.deals_won == row.deals_won
            for game_format, points in season.totals.points_by_format.items():
                per_format = StandingRow.objects.get(
                    scope="season", scope_id=season.season_id, game_format=game_format,
                    player=player,
                )  # fmt: skip
                assert points == per_format.points
        page = browser.get(f"/clubs/demo/players/{player.pk}/").content.decode()
        money = club_money(club, history.total.money_minor, signed=True)
        assert f'money <span data-figure="money">{money}</span>' in page
        season = history.seasons[0]
        table = tables.standings_table(
            club=club, scope="season", scope_id=season.season_id, limit=50
        )
        line = next(line for line in table.lines if line.player_id == player.pk)
        assert line.totals["money_minor"] == season.totals.money_minor


def test_the_demo_is_rated_and_its_ratings_equal_a_replay_of_its_rated_games(db):
    from tests.scoring.test_ratings import assert_close, openskill_replay

    with TestCase.captureOnCommitCallbacks(execute=True):  # the games' ends are announced
        call_command("load_demo")
    club = Club.objects.get(slug="demo")
    client = Client()
    client.force_login(club.memberships.get(role="owner").user)
    for family in ("indian", "rummikub"):
        games = client.get(
            "/api/v1/clubs/demo/ratings/games/", {"game_family": family, "limit": 500}
        ).json()
        board = client.get(
            "/api/v1/clubs/demo/ratings/", {"game_family": family, "provisional": "true"}
        ).json()
        assert games["count"] >= 1, family
        mine = {str(line["player"]): (line["mu"], line["sigma"], line["games"])
                for line in board["results"]}  # fmt: skip
        assert_close(mine, openskill_replay([game["ranks"] for game in games["results"]]))
