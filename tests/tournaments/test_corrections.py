"""Corrections of a played table: before the next round is released the round is settled again
and its draft redrawn; once the next round is played the correction is refused, naming the
rounds it would change, unless the organiser confirms the recompute; after the final, the
places and the prizes are posted again."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase

from clubs.models import AuditEntry
from config.errors import Conflict
from ledger.models import AccountKind, LedgerEntry, Posting
from scoring.formats import GameEnd
from scoring.games import game_finish
from scoring.models import Game, Submission
from tests.scoring.helpers import correct, enter_deal, ledger_balanced
from tests.tournaments.helpers import enter, new_tournament, play_table, roster
from tournaments.models import Entry, Round, RoundTable, Tournament
from tournaments.selectors import tournament_view
from tournaments.services.corrections import rounds_unwind
from tournaments.services.draws import round_release
from tournaments.services.setup import tournament_start
from tournaments.services.tables import tables_catch_up


def _lines(game: Game, points: dict[int, int]) -> dict[str, Any]:
    seats = game.seats.order_by("position").values_list("player_id", flat=True)
    return {
        "results": [
            {"player": p, "outcome": "loser", "points": points[p]}
            if p in points
            else {"player": p, "outcome": "winner"}
            for p in seats
        ]
    }


def _order(game: Game) -> list[int]:
    return list(game.seats.order_by("position").values_list("player_id", flat=True))


def _release(standing, tournament: Tournament, number: int) -> Round:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return round_release(tournament=tournament, actor=standing.organiser, number=number)


def _play_plainly(standing, played: Round) -> dict[int, list[int]]:
    """Each table: the first seat wins, the others lose 10, 20, 30...: the first two go on.
    Returns the players of each table's game, in seat order."""
    seated = {}
    for table in RoundTable.objects.filter(round=played).select_related("game"):
        assert table.game is not None
        players = _order(table.game)
        play_table(standing, table.game, {p: 10 * n for n, p in enumerate(players[1:], 1)})
        seated[table.game.pk] = players
    return seated


def _advanced_players(tournament: Tournament, number: int) -> set[int]:
    played = tournament.round_set.get(number=number)
    return set(
        tournament.entries.filter(pk__in=played.advanced).values_list("player_id", flat=True)
    )


def _drawn_players(tournament: Tournament, number: int) -> set[int]:
    draft = tournament.round_set.get(number=number)
    ids = [e for table in draft.draw["tables"] for e in table] + draft.draw.get("byes", [])
    return set(tournament.entries.filter(pk__in=ids).values_list("player_id", flat=True))


@pytest.fixture
def twelve(standing) -> Tournament:
    """Twelve entrants, tables of six, two go on: round 1 of two tables, then a final of four."""
    tournament = new_tournament(standing, entry_fee_minor=1000, payout="seventy_thirty")
    enter(standing, tournament, roster(standing, 12))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=standing.organiser)
    return tournament


def _swap_third_to_first(standing, game: Game, players: list[int]) -> Submission:
    """Correct the table's deal: the player who came third wins it, the first is now third."""
    first, second, _third, *rest = players
    points = {first: 50, second: 40} | {p: 60 + n for n, p in enumerate(rest)}
    submission = correct(standing, game.deals.get(number=1), _lines(game, points))
    assert submission.status == Submission.Status.ACCEPTED, submission.reasons
    return submission


def test_a_correction_before_the_next_round_is_released_redraws_it(standing, twelve):
    seated = _play_plainly(standing, _release(standing, twelve, 1))
    twelve.refresh_from_db()
    assert twelve.round_set.get(number=2).status == Round.Status.DRAFT
    game_id, players = next(iter(seated.items()))
    assert {players[0], players[1]} <= _drawn_players(twelve, 2)

    _swap_third_to_first(standing, Game.objects.get(pk=game_id), players)

    drawn = _drawn_players(twelve, 2)
    assert {players[1], players[2]} <= drawn and players[0] not in drawn
    assert _advanced_players(twelve, 1) == drawn
    knocked = twelve.entries.get(player_id=players[0])
    assert knocked.status == Entry.Status.ELIMINATED and knocked.out_in_round == 1
    assert AuditEntry.objects.filter(action="tournament.recompute").exists()


def test_a_correction_after_the_next_round_started_needs_the_organiser_to_confirm(standing, twelve):
    seated = _play_plainly(standing, _release(standing, twelve, 1))
    final = _release(standing, twelve, 2)
    final_game = RoundTable.objects.get(round=final).game
    game_id, players = next(iter(seated.items()))
    game = Game.objects.get(pk=game_id)
    deal = game.deals.get(number=1)
    versions = deal.submissions.count()

    with pytest.raises(Conflict) as refused:
        _swap_third_to_first(standing, game, players)
    assert refused.value.code == "round_played_on"
    assert refused.value.details == {"affected_rounds": [2]}
    assert deal.submissions.count() == versions  # nothing stored

    with pytest.raises(Conflict) as unconfirmed:
        rounds_unwind(tournament=twelve, actor=standing.organiser, number=1)
    assert unconfirmed.value.code == "confirm_required"
    assert unconfirmed.value.details == {"affected_rounds": [2]}
    assert twelve.round_set.get(number=2).status == Round.Status.RELEASED

    with TestCase.captureOnCommitCallbacks(execute=True):
        rounds_unwind(tournament=twelve, actor=standing.organiser, number=1, confirm=True)
    final_game.refresh_from_db()
    assert final_game.status == Game.Status.FINISHED  # closed with no deal: it counts nothing
    assert final_game.end in (GameEnd.ABANDONED, GameEnd.BY_ORGANISER)
    redrawn = twelve.round_set.get(number=2)
    assert redrawn.status == Round.Status.DRAFT and redrawn.pk != final.pk
    assert AuditEntry.objects.filter(action="tournament.unwind").exists()

    _swap_third_to_first(standing, game, players)  # now taken
    drawn = _drawn_players(twelve, 2)
    assert players[2] in drawn and players[0] not in drawn


def test_a_corrected_final_places_again_and_posts_the_prizes_again(standing, twelve):
    _play_plainly(standing, _release(standing, twelve, 1))
    final = _release(standing, twelve, 2)
    table = RoundTable.objects.select_related("game").get(round=final)
    assert table.game is not None
    players = _order(table.game)
    play_table(standing, table.game, {p: 10 * n for n, p in enumerate(players[1:], 1)})
    twelve.refresh_from_db()
    assert twelve.status == Tournament.Status.FINISHED
    places = dict(twelve.entries.values_list("player_id", "place"))
    assert places[players[0]] == 1 and places[players[1]] == 2
    pool = 12 * 1000

    # The final's deal corrected: the one who came second wins it.
    points = {players[0]: 15} | {p: 10 * n + 20 for n, p in enumerate(players[2:], 1)}
    submission = correct(standing, table.game.deals.get(number=1), _lines(table.game, points))
    assert submission.status == Submission.Status.ACCEPTED, submission.reasons

    twelve.refresh_from_db()
    assert twelve.status == Tournament.Status.FINISHED
    entries = {e.player_id: e for e in tournament_view(tournament=twelve).entries}
    assert entries[players[1]].place == 1 and entries[players[0]].place == 2
    assert entries[players[1]].prize_won_minor == pool * 70 // 100
    assert entries[players[0]].prize_won_minor == pool * 30 // 100
    payouts = LedgerEntry.objects.filter(book=twelve.purse, kind=LedgerEntry.Kind.PAYOUT)
    assert payouts.count() == 2 and payouts.filter(reversed_by__isnull=False).count() == 1
    for player, entry in entries.items():
        won = Posting.objects.filter(
            book=twelve.purse, account=AccountKind.PLAYER, player_id=player,
            entry__kind__in=[LedgerEntry.Kind.PAYOUT, LedgerEntry.Kind.REVERSAL],
        )  # fmt: skip
        assert sum(p.amount for p in won) == entry.prize_won_minor
    assert ledger_balanced()


def test_a_table_whose_end_was_never_announced_is_settled_by_the_sweep(standing, twelve):
    """The broker was down when the tables closed: nothing settled them. The sweep does."""
    played = _release(standing, twelve, 1)
    for table in RoundTable.objects.filter(round=played).select_related("game"):
        assert table.game is not None
        players = _order(table.game)
        lines = _lines(table.game, {p: 10 * n for n, p in enumerate(players[1:], 1)})
        enter_deal(table.game, standing.scorer, lines)
        game_finish(game=table.game, actor=standing.organiser)  # not announced
    assert not twelve.round_set.filter(number=2).exists()
    assert len(tables_catch_up()) == 2
    assert twelve.round_set.get(number=2).status == Round.Status.DRAFT
    assert tables_catch_up() == []  # nothing left to do
