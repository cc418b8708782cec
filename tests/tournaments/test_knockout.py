"""A knock-out through the services: seeding, draws, advancement with tie-breakers, the final
places and the prizes in the ledger."""

from __future__ import annotations

import random

import pytest
from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.errors import Conflict, InvalidInput
from ledger.models import AccountKind, Posting
from rules.seating import table_sizes
from scoring.games import game_finish
from tests.scoring.helpers import ledger_balanced
from tests.tournaments.helpers import enter, new_tournament, play_round, play_table, roster
from tournaments.kinds.rounds.handler import points_in as _points_in
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import tournament_view
from tournaments.services.draws import round_release
from tournaments.services.entries import entry_add, entry_check_in, entry_withdraw
from tournaments.services.setup import tournament_start


def run_to_the_end(standing, tournament: Tournament, rng: random.Random, ties: bool = False):
    for _ in range(30):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        play_round(standing, tournament, rng, ties=ties)
    tournament.refresh_from_db()
    return tournament


def test_an_eighteen_player_knockout_runs_to_places_and_prizes(standing):
    tournament = new_tournament(standing, entry_fee_minor=1000, club_fee_minor=100,
                                payout="seventy_thirty")  # fmt: skip
    enter(standing, tournament, roster(standing, 18))
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = tournament_start(tournament=tournament, actor=standing.organiser)
    assert first.status == Round.Status.DRAFT and len(first.draw["tables"]) == 3
    assert sorted(len(t) for t in first.draw["tables"]) == [6, 6, 6]
    done = run_to_the_end(standing, tournament, random.Random(1))
    assert done.status == Tournament.Status.FINISHED
    entries = tournament_view(tournament=done).entries
    assert sorted(e.place for e in entries)[0] == 1 and all(e.place for e in entries)
    pool = 18 * (1000 - 100)
    assert sum(e.prize_won_minor for e in entries) == pool
    winners = [e for e in entries if e.place == 1]
    assert sum(e.prize_won_minor for e in winners) >= pool * 70 // 100
    purse = Posting.objects.filter(book=done.purse)
    assert sum(p.amount for p in purse.filter(account=AccountKind.BOOK)) == 0
    assert sum(p.amount for p in purse.filter(account=AccountKind.CLUB)) == 18 * 100
    assert ledger_balanced()
    stages = list(done.round_set.order_by("number").values_list("stage", flat=True))
    assert stages[-1] == Round.Stage.FINAL and stages[0] == Round.Stage.ROUND


@pytest.mark.slow
@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    st.integers(2, 60),
    st.integers(2, 6),
    st.integers(2, 6),
    st.integers(1, 3),
    st.booleans(),
    st.integers(0, 99),
)
def test_any_field_finishes_with_every_entrant_placed_and_the_pool_paid(
    standing, field, table_max, table_min, advance, ties, seed
):
    _any_field(standing, field, table_max, table_min, advance, ties, seed)


@pytest.mark.slow
def test_a_field_of_three_hundred_finishes_with_every_entrant_placed_and_the_pool_paid(standing):
    """The large end of the fields the property covers, once (each draw is a seating search)."""
    _any_field(standing, 300, 5, 3, 2, True, 17)


def _any_field(standing, field, table_max, table_min, advance, ties, seed):
    advance = min(advance, table_max - 1)
    table_min = min(table_min, table_max, field)  # a field smaller than a table plays as one
    tournament = new_tournament(
        standing, name=f"Field {field}", table_max=table_max, table_min=table_min,
        advance_per_table=advance, entry_fee_minor=500, payout="top_quarter", seed=seed,
    )  # fmt: skip
    players = roster(standing, field)
    enter(standing, tournament, players)
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=standing.organiser)
    for played in tournament.round_set.all():
        assert played.status == Round.Status.DRAFT
    done = run_to_the_end(standing, tournament, random.Random(seed), ties=ties)
    assert done.status == Tournament.Status.FINISHED
    for played in done.round_set.all():
        seated = [e for table in played.draw["tables"] for e in table]
        assert len(seated) == len(set(seated))
        sizes = [len(table) for table in played.draw["tables"]]
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= table_max
        due = played.draw["byes"] + seated
        assert len(due) == len(set(due))  # each due player once, at a table or a bye
        if played.stage != Round.Stage.FINAL:  # a final seats whoever is left at one table
            # No table below its minimum: the fewest byes that ensure it, to the top seeds.
            assert min(sizes) >= table_min
            assert (sorted(sizes, reverse=True), len(played.draw["byes"])) == table_sizes(
                len(due), table_max, table_min
            )
    entries = tournament_view(tournament=done).entries
    assert all(e.place for e in entries)
    assert sum(e.prize_won_minor for e in entries) == field * 500
    assert ledger_balanced()


def test_entries_waitlist_withdrawal_and_check_in(standing):
    tournament = new_tournament(standing, entry_fee_minor=1000, max_entries=3)
    a, b, c, d = roster(standing, 4)
    enter(standing, tournament, [a, b, c, d])
    statuses = dict(tournament.entries.values_list("player__name", "status"))
    assert statuses[d.name] == Entry.Status.WAITLISTED
    first = tournament.entries.get(player=a)
    entry_withdraw(tournament=tournament, actor=standing.organiser, entry_id=first.pk)
    assert tournament.entries.get(player=d).status == Entry.Status.REGISTERED  # promoted
    paid = Posting.objects.filter(book=tournament.purse, account="player", quantity="money")
    assert {p.player_id: 0 for p in paid} and sum(
        p.amount for p in paid.filter(player=a)
    ) == 0  # refunded
    for player in (b, c):
        entry_check_in(
            tournament=tournament, actor=standing.organiser,
            entry_id=tournament.entries.get(player=player).pk,
        )  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=standing.organiser)
    assert tournament.entries.get(player=d).status == Entry.Status.NO_SHOW  # did not check in
    with pytest.raises(Conflict):
        entry_check_in(
            tournament=tournament, actor=standing.organiser,
            entry_id=tournament.entries.get(player=d).pk,
        )  # fmt: skip


def test_a_rounds_tournament_cuts_to_a_semifinal_dealt_by_rank_then_a_final(standing):
    """Sixteen players, tables of four, three rounds redrawn against repeats, then the top
    eight by points seated 1-3-5-7 / 2-4-6-8, then the top four by semi-final points."""
    tournament = new_tournament(
        standing, kind=Tournament.Kind.ROUNDS, rounds=3, cut=8, table_max=4,
        advance_per_table=2, entry_fee_minor=100, payout="top_quarter", seed=3,
    )  # fmt: skip
    enter(standing, tournament, roster(standing, 16))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=standing.organiser)
    rng = random.Random(5)
    for number in (1, 2, 3):
        played = play_round(standing, tournament, rng)
        assert played.number == number
        assert played.stage == Round.Stage.ROUND and played.status == Round.Status.COMPLETE
        assert len(played.advanced) == 16  # nobody is out before the cut
    meetings: dict[frozenset[int], int] = {}
    for played in tournament.round_set.filter(stage=Round.Stage.ROUND):
        for table in played.draw["tables"]:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    meetings[frozenset((a, b))] = meetings.get(frozenset((a, b)), 0) + 1
    assert max(meetings.values()) == 1  # 16 in fours for 3 rounds: nobody meets twice

    semi = tournament.round_set.get(number=4)
    assert semi.stage == Round.Stage.SEMIFINAL
    points = _points_in(tournament.round_set.filter(stage=Round.Stage.ROUND))
    player_of = dict(tournament.entries.values_list("pk", "player_id"))
    ranked = sorted(
        (e for t in semi.draw["tables"] for e in t),
        key=lambda e: (-points.get(player_of[e], 0), tournament.entries.get(pk=e).seed),
    )
    assert sorted(semi.draw["tables"][0]) == sorted(ranked[0::2])  # 1-3-5-7
    assert sorted(semi.draw["tables"][1]) == sorted(ranked[1::2])  # 2-4-6-8
    out = tournament.entries.filter(out_in_round=3)
    assert out.count() == 8 and all(e.status == Entry.Status.ELIMINATED for e in out)

    play_round(standing, tournament, rng)
    final = tournament.round_set.get(number=5)
    assert final.stage == Round.Stage.FINAL
    semi_points = _points_in(tournament.round_set.filter(number=4))
    finalists = [player_of[e] for t in final.draw["tables"] for e in t]
    others = [player_of[e] for e in ranked if player_of[e] not in finalists]
    assert min(semi_points.get(p, 0) for p in finalists) >= max(
        semi_points.get(p, 0) for p in others
    )
    done = run_to_the_end(standing, tournament, rng)
    assert done.status == Tournament.Status.FINISHED
    places = sorted(e.place for e in done.entries.all())
    assert places[0] == 1 and len(places) == 16 and all(places)
    assert sum(e.prize_won_minor for e in tournament_view(tournament=done).entries) == 1600
    assert ledger_balanced()


def test_a_tiebreaker_that_ties_again_is_followed_by_another(standing):
    """Three level for two places: the tie-breaker's winner goes on, and the two still level
    after it play another; each tie-breaker ends by itself with its deal, and none is closed
    by hand."""
    tournament = new_tournament(standing, table_max=4, advance_per_table=3)
    enter(standing, tournament, roster(standing, 8))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=standing.organiser)
        played = round_release(tournament=tournament, actor=standing.organiser, number=1)
    first, second = (t.game for t in played.tables.order_by("number"))
    seats = list(second.seats.order_by("position").values_list("player_id", flat=True))
    others = list(first.seats.order_by("position").values_list("player_id", flat=True))[1:]
    play_table(standing, first, {p: 10 * n for n, p in enumerate(others, 1)})
    play_table(standing, second, {seats[1]: 20, seats[2]: 20, seats[3]: 20})
    table = played.tables.get(game=second)
    tiebreak = table.tiebreaker
    assert set(tiebreak.seats.values_list("player_id", flat=True)) == set(seats[1:])
    with pytest.raises(Conflict) as by_hand:
        game_finish(game=tiebreak, actor=standing.organiser)
    assert by_hand.value.code == "tiebreaker_ends_itself"
    play_table(standing, tiebreak, {seats[2]: 5, seats[3]: 5})  # level again
    tiebreak.refresh_from_db()
    assert tiebreak.status == "finished"
    table.refresh_from_db()
    assert table.tiebreaker_id != tiebreak.pk and set(table.outcome["tied"]) == {
        e.pk for e in tournament.entries.filter(player_id__in=seats[2:])
    }
    assert not tournament.round_set.filter(number=2).exists()
    again = table.tiebreaker
    assert set(again.seats.values_list("player_id", flat=True)) == set(seats[2:])
    play_table(standing, again, {seats[2]: 5})
    assert tournament.round_set.filter(number=2).exists()
    advanced = set(tournament.entries.filter(
        pk__in=tournament.round_set.get(number=1).advanced
    ).values_list("player_id", flat=True))  # fmt: skip
    assert {seats[0], seats[1], seats[3]} <= advanced and seats[2] not in advanced


def test_late_entry_is_seated_where_it_costs_least_until_the_round_is_released(standing):
    tournament = new_tournament(
        standing, table_max=4, advance_per_table=2, seeding=Tournament.Seeding.MANUAL,
        late_entry_until_round=1, entry_fee_minor=300,
    )  # fmt: skip
    field = roster(standing, 9)
    enter(standing, tournament, field[:7])
    order = [p.pk for p in reversed(field[:7])]
    first = tournament_start(tournament=tournament, actor=standing.organiser, seeds=order)
    seeds = dict(tournament.entries.values_list("player_id", "seed"))
    assert [seeds[p] for p in order] == list(range(1, 8))  # as the organiser gave them
    assert sorted(len(t) for t in first.draw["tables"]) == [3, 4]
    late = entry_add(tournament=tournament, actor=standing.organiser, player=field[7], paid=True)
    first.refresh_from_db()
    assert sorted(len(t) for t in first.draw["tables"]) == [4, 4]  # the short table took them
    assert any(late.pk in t for t in first.draw["tables"]) and late.status == Entry.Status.ACTIVE
    assert sum(
        Posting.objects.filter(book=tournament.purse, account=AccountKind.BOOK).values_list(
            "amount", flat=True
        )
    ) == 8 * 300  # fmt: skip
    round_release(tournament=tournament, actor=standing.organiser, number=1)
    with pytest.raises(Conflict) as closed:
        entry_add(tournament=tournament, actor=standing.organiser, player=field[8])
    assert closed.value.code == "entries_closed"
    other = new_tournament(standing, name="Other", seeding=Tournament.Seeding.MANUAL)
    enter(standing, other, field[:2])
    with pytest.raises(InvalidInput) as unknown:
        tournament_start(tournament=other, actor=standing.organiser, seeds=[field[8].pk])
    assert unknown.value.code == "bad_seed" and other.round_set.count() == 0


def test_rating_seeding_and_same_club_avoidance(standing):
    """Seeds follow the family's ordinal (the unrated at the start), kept as a snapshot on the
    entry; with same-club avoidance the draw keeps the clubs apart where it can."""
    from scoring.models import GameFamily
    from standings.models import Rating

    players = roster(standing, 8)
    for rank, player in enumerate(players):
        if rank % 2 == 0:  # half the field rated, best last
            Rating.objects.create(
                club=standing.club, player=player, family=GameFamily.INDIAN, mu=25 + rank,
                sigma=2.0, ordinal=25 + rank - 6, games=9,
            )  # fmt: skip
    tournament = new_tournament(
        standing, table_max=4, seeding=Tournament.Seeding.RATING, avoid_same_club=True
    )
    for index, player in enumerate(players):
        entry_add(
            tournament=tournament, actor=standing.organiser, player=player,
            affiliation="North" if index < 4 else "South",
        )  # fmt: skip
    first = tournament_start(tournament=tournament, actor=standing.organiser)
    entries = {e.player_id: e for e in tournament.entries.all()}
    assert entries[players[6].pk].seed == 1 and entries[players[4].pk].seed == 2
    assert entries[players[6].pk].rating == 25 + 6 - 6
    assert {entries[p.pk].seed for p in players[1::2]} == {5, 6, 7, 8}  # unrated: ordinal 0
    affiliation = {e.pk: e.affiliation for e in entries.values()}
    for table in first.draw["tables"]:
        clubs = [affiliation[e] for e in table]
        assert clubs.count("North") == 2 and clubs.count("South") == 2  # as apart as 4s allow
    assert first.cost["same_club_pairs"] == 4  # two a table: the fewest eight can have
