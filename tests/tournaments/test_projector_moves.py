"""The standings projector of a tournament's night: its arrows after one deal mark only the
players whose place changed, and its "just now" band names no book of the ledger."""

from __future__ import annotations

import re

from django.test import Client, TestCase

from clubs.models import Player
from tests.scoring.helpers import enter_deal
from tests.tournaments.helpers import enter, new_tournament, roster
from tournaments.models import RoundTable
from tournaments.services.draws import round_release
from tournaments.services.setup import tournament_start


def _moves(html: str) -> dict[str, str]:
    """Each board line's player and its move mark ("" for none)."""
    return {
        name: move.strip()
        for move, name in re.findall(
            r'<td class="move-cell">(.*?)</td><th scope="row">([^<]+)</th>', html, re.S
        )
    }


def test_one_deal_moves_only_the_players_whose_rank_changed(standing):
    """18 paid their fee (the purse's entries), then one deal at one table of six: the five
    who lost are marked down, the twelve who did not play it are unmarked; neither before the
    deal (the fees alone) nor after it is there a band named after the purse."""
    standing.club.public_standings = True
    standing.club.save()
    cup = new_tournament(standing, entry_fee_minor=1000, club_fee_minor=100)
    enter(standing, cup, roster(standing, 18))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        round_release(tournament=cup, actor=standing.organiser, number=1)
    projector = f"/p/home/standings/projector/?table=session:{cup.session_id}"
    fees_only = Client().get(projector).content.decode()
    assert "Purse" not in fees_only and "Just now" not in fees_only
    table = RoundTable.objects.filter(round__tournament=cup).order_by("number").first()
    game = table.game
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    lines = [{"player": seats[0], "outcome": "winner"}] + [
        {"player": p, "outcome": "loser", "points": 10 * n} for n, p in enumerate(seats[1:], 1)
    ]
    enter_deal(game, standing.scorer, {"results": lines})
    html = Client().get(projector).content.decode()
    assert "Purse" not in html and f"Just now · {table.game.table.name}, deal 1" in html
    names = dict(Player.objects.filter(pk__in=seats).values_list("pk", "name"))
    moves = _moves(html)
    assert len(moves) == 18
    marked = {name for name, move in moves.items() if move}
    assert marked == {names[p] for p in seats[1:]}  # the losers, now below the twelve
    assert all("down" in moves[names[p]] for p in seats[1:])
