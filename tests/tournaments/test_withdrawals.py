"""Withdrawals at the desk: a withdrawn entrant placed by where they stood, everywhere the
places are shown, and a withdrawal undone (reinstated) while it still can be."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client, TestCase

from config.errors import Conflict
from scoring.games import game_finish
from tests.scoring.helpers import enter_deal
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.figures import entries_counted
from tournaments.models import Entry, Round, RoundTable, Tournament
from tournaments.selectors import tournament_grid, tournament_view
from tournaments.services.draws import round_release
from tournaments.services.entries import entry_add, entry_reinstate, entry_withdraw
from tournaments.services.setup import tournament_start
from tournaments.services.tables import table_game_ended

E = Entry.Status


def _run_to_the_end(standing, cup: Tournament, rng: random.Random) -> None:
    for _ in range(20):
        cup.refresh_from_db()
        if cup.status != Tournament.Status.RUNNING:
            break
        play_round(standing, cup, rng)
    cup.refresh_from_db()


def _places_on(html: str) -> dict[int, int]:
    """The places table of a page: player id -> place."""
    table = html.split('<table class="places">')[1].split("</table>")[0]
    return {
        int(player): int(place)
        for player, place in re.findall(r'data-player="(\d+)"><td class="num">(\d+)', table)
    }


def test_withdrawn_entrants_are_placed_by_where_they_stood_on_every_page(standing):
    """24 enter (tables of 6, 2 go on). One leaves while round 1 is played; one who qualified
    from round 1 leaves before round 2 is released. Places run 1..24 for the 24 entries whose
    fee counts, the leavers below everyone who went further, and the desk, the public page,
    the API and the prizes agree."""
    standing.club.public_standings = True
    standing.club.save()
    cup = new_tournament(standing, entry_fee_minor=1000, club_fee_minor=100,
                         payout="top_quarter")  # fmt: skip
    players = roster(standing, 24)
    enter(standing, cup, players)
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        first = round_release(tournament=cup, actor=standing.organiser, number=1)
    left_in_play = first.draw["tables"][0][0]
    entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=left_in_play)
    rng = random.Random(3)
    play_round(standing, cup, rng)
    second = cup.round_set.get(number=2)
    assert second.status == Round.Status.DRAFT
    qualifier = second.draw["tables"][0][0]
    entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=qualifier)
    _run_to_the_end(standing, cup, rng)
    assert cup.status == Tournament.Status.FINISHED

    view = tournament_view(tournament=cup)
    counted = entries_counted(tournament=cup).count()
    assert counted == 24
    places = {e.player_id: e.place for e in view.places}
    assert len(places) == 24 and min(places.values()) == 1 and max(places.values()) <= 24
    by_entry = {e.pk: e for e in view.entries}
    # Everyone who went on from round 1 is above the qualifier who then left, and the
    # qualifier (second at their table at worst) above everyone out of round 1.
    quit_place = by_entry[qualifier].place
    first.refresh_from_db()
    went_on = set(first.advanced) - {qualifier}
    assert all(by_entry[e].place < quit_place for e in went_on)
    out_of_round_one = [e for e in by_entry if e not in first.advanced and e != left_in_play]
    assert all(by_entry[e].place > quit_place for e in out_of_round_one)
    table = RoundTable.objects.get(round=first, number=1)
    assert by_entry[left_in_play].table_place == table.outcome["ranks"][str(left_in_play)]

    api = standing.client("player").get(f"/api/v1/clubs/home/tournaments/{cup.pk}/").json()
    assert {p["player"]: p["place"] for p in api["places"]} == places
    prizes = {p["player"]: p["prize_minor"] for p in api["places"]}
    assert sum(prizes.values()) == 24 * 900
    assert prizes == {e.player_id: e.prize_won_minor for e in view.places}
    member = Client()
    member.force_login(standing.organiser)
    desk = member.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    public = Client().get(f"/p/home/tournaments/{cup.pk}/").content.decode()
    assert _places_on(desk) == places == _places_on(public)


def test_a_withdrawal_is_undone_before_the_next_draw_and_refused_after(standing):
    """Before the start: reinstated, the fee due again (waiting when the field is full).
    While their round is played: back in, at their table. Once the round after it is drawn:
    refused, saying why."""
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000, max_entries=8)
    players = roster(standing, 9)
    enter(standing, cup, players)
    first = cup.entries.get(player=players[0])
    entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=first.pk)
    assert cup.entries.get(player=players[8]).status == E.REGISTERED  # moved up
    with pytest.raises(Conflict, match="withdrawn; reinstate"):
        entry_add(tournament=cup, actor=standing.organiser, player=players[0])
    back = entry_reinstate(tournament=cup, actor=standing.organiser, entry_id=first.pk)
    assert back.status == E.WAITLISTED  # the field filled up meanwhile
    assert entries_counted(tournament=cup).count() == 8

    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
    draft = cup.round_set.get(number=1)
    seated = draft.draw["tables"][1][0]
    entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=seated)
    assert seated not in [e for t in cup.round_set.get(number=1).draw["tables"] for e in t]
    entry_reinstate(tournament=cup, actor=standing.organiser, entry_id=seated)
    assert seated in [e for t in cup.round_set.get(number=1).draw["tables"] for e in t]
    assert cup.entries.get(pk=seated).status == E.ACTIVE

    with TestCase.captureOnCommitCallbacks(execute=True):
        round_release(tournament=cup, actor=standing.organiser, number=1)
    entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=seated)
    entry_reinstate(tournament=cup, actor=standing.organiser, entry_id=seated)
    assert cup.entries.get(pk=seated).status == E.ACTIVE
    entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=seated)
    play_round(standing, cup, random.Random(2))
    assert cup.round_set.filter(number=2).exists()
    with pytest.raises(Conflict, match="round 2 is drawn") as refused:
        entry_reinstate(tournament=cup, actor=standing.organiser, entry_id=seated)
    assert refused.value.code == "reinstate_closed"
    assert cup.entries.get(pk=seated).status == E.WITHDRAWN


def test_a_finished_table_not_yet_settled_says_who_goes_on_is_coming(standing):
    """Between its game's end and its settling (a moment, on the worker), a table's cell says
    who goes on is being worked out, not a bare "Finished" with no one going on; settled, it
    names them."""
    cup = new_tournament(standing, table_max=4)
    enter(standing, cup, roster(standing, 8))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        round_release(tournament=cup, actor=standing.organiser, number=1)
    table = RoundTable.objects.filter(round__tournament=cup).order_by("number").first()
    game = table.game
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    lines = [{"player": seats[0], "outcome": "winner"}] + [
        {"player": p, "outcome": "loser", "points": 10 * n} for n, p in enumerate(seats[1:], 1)
    ]
    enter_deal(game, standing.scorer, {"results": lines})
    game_finish(game=game, actor=standing.organiser)  # its settling waits for the commit
    cell = tournament_grid(tournament=cup).cells[1][0]
    assert cell.state == "finished" and cell.advanced == []
    assert cell.label == "Finished: working out who goes on"
    table_game_ended(game_id=game.pk)
    cell = tournament_grid(tournament=cup).cells[1][0]
    assert cell.label == "Settled" and len(cell.advanced) == 2


def test_a_leaver_of_a_round_ending_in_a_cut_is_placed_below_those_cut(standing):
    """Rounds, then a cut: eight play one round at tables of four, the top four by points go to
    the final. One who leaves that round is placed below the three the cut placed by points,
    whatever they stood at their table; places run 1..8."""
    cup = new_tournament(standing, kind=Tournament.Kind.ROUNDS, rounds=1, cut=0, table_max=4,
                         entry_fee_minor=100, payout="winner_takes_all")  # fmt: skip
    enter(standing, cup, roster(standing, 8))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        first = round_release(tournament=cup, actor=standing.organiser, number=1)
    leaver = first.draw["tables"][0][0]
    entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=leaver)
    _run_to_the_end(standing, cup, random.Random(6))
    assert cup.status == Tournament.Status.FINISHED
    places = {e.pk: e.place for e in tournament_view(tournament=cup).places}
    assert len(places) == 8 and min(places.values()) == 1
    assert places[leaver] == 8 and sorted(places.values()).count(8) == 1
