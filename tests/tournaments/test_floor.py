"""The tournament floor as a director runs it: the entries that count on every page, the API and
the prize figures; the settle-up of a tournament's night; a pool table of a knock-out (it ends
once its qualifiers are known, ranks by scores, holds no pot); tie-breakers that end with their
deal and count only for the tie; the final's placings on the grid."""

from __future__ import annotations

import random

import pytest
from django.test import Client, TestCase

from clubs.models import Player
from clubs.page_kit.display import club_money
from config.errors import Conflict
from scoring import selectors as scoring_selectors
from scoring.figures import session_settlement
from scoring.formats.pool.moves import pool_split, pool_split_offer
from scoring.models import Game, RulePreset, StandingRow, StandingScope
from standings.recompute import standings_recompute
from tests.scoring.helpers import enter_deal
from tests.tournaments.helpers import enter, new_tournament, play_round, play_table, roster
from tournaments.figures import prize_pool_minor
from tournaments.models import Entry, Round, RoundTable, Tournament
from tournaments.selectors import tournament_desk, tournament_view
from tournaments.services.draws import round_release
from tournaments.services.entries import entry_withdraw
from tournaments.services.setup import tournament_start

# --- the entries that count ----------------------------------------------------------------------


def test_an_entry_withdrawn_before_the_start_counts_nowhere(standing):
    """Five enter at 10.00 (1.00 to the club), one withdraws before the start (the fee back):
    four count on the desk, the public page, the projector, the prize box, the API and the
    prize pool; the withdrawn player is not offered in "Where do I sit" nor on the purse's
    roster."""
    standing.club.public_standings = True
    standing.club.save()
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000, club_fee_minor=100,
                         payout="seventy_thirty")  # fmt: skip
    players = roster(standing, 5)
    enter(standing, cup, players)
    gone = cup.entries.get(player=players[4])
    entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=gone.pk)
    pool = 4 * 900
    assert prize_pool_minor(tournament=cup) == pool
    view = tournament_view(tournament=cup)
    assert [e.player_id for e in view.counted] == [p.pk for p in players[:4]]
    api = standing.client("player").get(f"/api/v1/clubs/home/tournaments/{cup.pk}/").json()
    assert api["entries_counted"] == 4 and api["prize_pool_minor"] == pool
    assert len(api["entries"]) == 5  # every entry is listed, the withdrawn one as withdrawn

    member = Client()
    member.force_login(standing.organiser)
    desk = member.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    public = Client().get(f"/p/home/tournaments/{cup.pk}/").content.decode()
    projector = Client().get(f"/p/home/tournaments/{cup.pk}/projector/").content.decode()
    for page in (desk, public, projector):
        assert 'data-figure="entries">4<' in page
    money = f'<bdi class="ltr">{club_money(standing.club, pool)}</bdi>'  # isolated: Hebrew
    assert f"Pool {money} from 4 paid fees (a field of 4)" in desk
    assert f'data-figure="pool">{club_money(standing.club, pool)}<' in desk
    picker = public.split('id="me"')[1].split("</select>")[0]
    assert players[0].name in picker and players[4].name not in picker
    night = member.get(f"/clubs/home/sessions/{cup.session_id}/").content.decode()
    purse = night.split('id="accounts"')[1]
    assert players[0].name in purse and players[4].name not in purse


# --- the settle-up -------------------------------------------------------------------------------


def test_a_tournaments_settle_up_is_the_purse_paying_its_prizes(standing):
    """The fees were paid at the desk: no player owes another; the organiser (the purse) pays
    each prize and the club's fee, and nothing else is listed."""
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000, club_fee_minor=100,
                         payout="seventy_thirty")  # fmt: skip
    enter(standing, cup, roster(standing, 8))
    tournament_start(tournament=cup, actor=standing.organiser)
    assert session_settlement(session=cup.session) == []  # the fees are in, nobody owes
    rng = random.Random(4)
    for _ in range(6):
        cup.refresh_from_db()
        if cup.status != Tournament.Status.RUNNING:
            break
        play_round(standing, cup, rng)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    transfers = session_settlement(session=cup.session)
    won = {e.player_id: e.prize_won_minor for e in tournament_view(tournament=cup).places}
    assert {t.payer_key for t in transfers} == {f"pot:{cup.purse_id}"}
    paid = {t.payee_id: t.amount_minor for t in transfers if t.payee_id is not None}
    assert paid == {player: amount for player, amount in won.items() if amount}
    assert [t.amount_minor for t in transfers if t.payee_key == "club"] == [8 * 100]


# --- a pool table in a knock-out -----------------------------------------------------------------


def _pool_cup(standing, players: int, advance: int) -> tuple[Tournament, Game, list[int]]:
    cup = new_tournament(
        standing, preset=RulePreset.objects.get(club=None, key="pool-101"), table_max=4,
        advance_per_table=advance, entry_fee_minor=500,
    )  # fmt: skip
    enter(standing, cup, roster(standing, players))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        played = round_release(tournament=cup, actor=standing.organiser, number=1)
    game = played.tables.order_by("number").first().game
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    return cup, game, seats


def _pool_deal(standing, game: Game, winner: int, points: dict[int, int]) -> None:
    lines = [{"player": winner, "outcome": "winner"}] + [
        {"player": p, "outcome": "loser", "points": n} for p, n in points.items()
    ]
    with TestCase.captureOnCommitCallbacks(execute=True):
        enter_deal(game, standing.scorer, {"results": lines})


def _players(cup: Tournament, entries: list[int]) -> set[int]:
    return set(cup.entries.filter(pk__in=entries).values_list("player_id", flat=True))


def _out_places(cup: Tournament, game: Game) -> dict[int, int]:
    table = RoundTable.objects.get(game=game)
    player_of = dict(cup.entries.values_list("pk", "player_id"))
    return {player_of[int(e)]: place for e, place in table.outcome["ranks"].items()}


def test_a_pool_table_ends_once_its_qualifiers_are_known_and_holds_no_pot(standing):
    """Two of four go on: the table ends by itself when two are out, the survivors go on in
    order of score; no split, no refund, no pot of its own (the purse holds the fees)."""
    cup, game, (a, b, c, d) = _pool_cup(standing, 8, advance=2)
    assert game.entry_fee_minor == 0 and game.qualifiers == 2
    assert scoring_selectors.game_endings(game=game) == []
    _pool_deal(standing, game, a, {b: 80, c: 80, d: 10})
    assert pool_split_offer(game=game)["offers"] == []
    players = list(Player.objects.filter(pk__in=[a, b, c, d]))
    with pytest.raises(Conflict):
        pool_split(game=game, actor=standing.organiser, kind="equal", agreed=players)
    _pool_deal(standing, game, a, {b: 40, c: 30, d: 5})  # b 120 and c 110 out: two left
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end == Game.End.PLAYED_OUT
    assert _out_places(cup, game) == {a: 1, d: 2, c: 3, b: 4}
    table = RoundTable.objects.get(game=game)
    going = _players(cup, table.outcome["advancing"])
    assert going == {a, d} and not table.outcome["tied"]
    assert scoring_selectors.game_state(game=game).as_dict()["pot_minor"] == 0


def test_players_out_of_a_pool_in_the_same_deal_rank_by_their_scores(standing):
    """Three out in one deal at 108, 113 and 150, two going on: the survivor and the one at 108
    go on, no tie-breaker; the others are placed 3rd and 4th at the table, and the last round's
    130/120/110 are 2nd, 3rd and 4th, not all level."""
    cup, game, (a, b, c, d) = _pool_cup(standing, 8, advance=2)
    _pool_deal(standing, game, a, {b: 28, c: 33, d: 70})
    _pool_deal(standing, game, a, {b: 80, c: 80, d: 80})  # 108, 113, 150: all out
    table = RoundTable.objects.get(game=game)
    assert _out_places(cup, game) == {a: 1, b: 2, c: 3, d: 4}
    assert not table.outcome["tied"] and table.tiebreaker_id is None
    going = _players(cup, table.outcome["advancing"])
    assert going == {a, b}

    final_cup, final, (e, f, g, h) = _pool_cup(standing, 4, advance=2)
    assert final_cup.round_set.get(number=1).stage == Round.Stage.FINAL
    _pool_deal(standing, final, e, {f: 50, g: 40, h: 30})
    _pool_deal(standing, final, e, {f: 80, g: 80, h: 80})  # 130, 120, 110 in one deal
    final_cup.refresh_from_db()
    assert final_cup.status == Tournament.Status.FINISHED
    places = dict(final_cup.entries.values_list("player_id", "place"))
    assert places == {e: 1, h: 2, g: 3, f: 4}


# --- tie-breakers --------------------------------------------------------------------------------


def test_a_tiebreaker_entered_through_the_api_ends_by_itself_and_counts_only_for_the_tie(standing):
    """A tie at the cut: the desk names who is tied; the tie-breaker's deal, entered through the
    API alone, ends it and the round goes on; its points are in its own game's figures and no
    night's or season's standings (kept or recomputed)."""
    cup = new_tournament(standing, table_max=4, advance_per_table=2)
    enter(standing, cup, roster(standing, 8))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        played = round_release(tournament=cup, actor=standing.organiser, number=1)
    first, second = (t.game for t in played.tables.order_by("number"))
    seats = list(second.seats.order_by("position").values_list("player_id", flat=True))
    others = list(first.seats.order_by("position").values_list("player_id", flat=True))[1:]
    play_table(standing, first, {p: 10 * n for n, p in enumerate(others, 1)})
    play_table(standing, second, {seats[1]: 20, seats[2]: 20, seats[3]: 30})
    table = played.tables.get(game=second)
    tiebreak = table.tiebreaker
    assert tiebreak.breaks_tie and tiebreak.point_value_minor == 0

    desk = tournament_desk(tournament=cup)
    cell = desk.cells[1][table.number - 1]
    names = dict(cup.entries.values_list("player_id", "player__name"))
    assert cell.state == "tiebreaker" and cell.tied == [names[seats[1]], names[seats[2]]]
    organiser = Client()
    organiser.force_login(standing.organiser)
    page = organiser.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    assert f"Tied: {names[seats[1]]}, {names[seats[2]]}" in page
    game_page = organiser.get(f"/clubs/home/games/{tiebreak.pk}/").content.decode()
    assert "Close the table" not in game_page  # not closed by hand

    session = cup.session
    season = session.season_id
    before = dict(
        StandingRow.objects.filter(scope=StandingScope.SEASON, scope_id=season, game_format="")
        .values_list("player_id", "points")
    )  # fmt: skip
    api = standing.client("scorer")
    lines = [{"player": seats[2], "outcome": "winner"},
             {"player": seats[1], "outcome": "loser", "points": 40}]  # fmt: skip
    with TestCase.captureOnCommitCallbacks(execute=True):
        answer = api.post(f"/api/v1/clubs/home/games/{tiebreak.pk}/deals/",
                          {"results": lines}, format="json")  # fmt: skip
    assert answer.status_code == 202, answer.content
    tiebreak.refresh_from_db()
    assert tiebreak.status == Game.Status.FINISHED
    assert cup.round_set.filter(number=2).exists()  # the round went on, nobody closed anything
    advanced = set(cup.entries.filter(pk__in=cup.round_set.get(number=1).advanced)
                   .values_list("player_id", flat=True))  # fmt: skip
    assert seats[2] in advanced and seats[1] not in advanced

    game_row = StandingRow.objects.get(scope=StandingScope.GAME, scope_id=tiebreak.pk,
                                       player_id=seats[1], game_format="")  # fmt: skip
    assert game_row.points == -40
    after = dict(
        StandingRow.objects.filter(scope=StandingScope.SEASON, scope_id=season, game_format="")
        .values_list("player_id", "points")
    )  # fmt: skip
    assert after == before
    recomputed = standings_recompute(scope=StandingScope.SEASON, scope_id=season)
    assert {p: v["points"] for p, v in recomputed.items() if v["points"]} == {
        p: v for p, v in after.items() if v
    }
    night = standing.client("organiser").get(f"/api/v1/clubs/home/sessions/{session.pk}/")
    assert night.status_code == 200


# --- the final on the grid -----------------------------------------------------------------------


def test_the_finals_cell_shows_its_placings_not_who_goes_on(standing):
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000, payout="seventy_thirty")
    enter(standing, cup, roster(standing, 4))
    tournament_start(tournament=cup, actor=standing.organiser)
    play_round(standing, cup, random.Random(3))
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    desk = tournament_desk(tournament=cup)
    (cell,) = desk.cells[1]
    assert cell.advanced == []
    names = dict(cup.entries.values_list("player_id", "player__name"))
    expected = sorted(
        (e.place, names[e.player_id])
        for e in cup.entries.all()
        if e.status != Entry.Status.WITHDRAWN
    )
    assert cell.placings == expected and len(expected) == 4
    member = Client()
    member.force_login(standing.player)
    page = member.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    grid = page.split('class="results-grid"')[1].split("</table>")[0]
    assert "On:" not in grid and 'class="small placings"' in grid


def test_a_tiebreaker_played_before_the_mark_is_taken_out_of_the_night_and_season(standing):
    """The data migration: a tie-breaker whose points went into its night's and season's rows
    (as before ``Game.breaks_tie``) is marked, and those rows agree with a recomputation."""
    from importlib import import_module

    from django.apps import apps

    from scoring.standing_rows import TOTAL_FIELDS, _upsert

    migration = import_module("tournaments.migrations.0003_tiebreakers_count_for_the_tie")
    cup = new_tournament(standing, table_max=4, advance_per_table=2)
    enter(standing, cup, roster(standing, 8))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        played = round_release(tournament=cup, actor=standing.organiser, number=1)
    first, second = (t.game for t in played.tables.order_by("number"))
    seats = list(second.seats.order_by("position").values_list("player_id", flat=True))
    play_table(standing, first, {})
    play_table(standing, second, {seats[1]: 20, seats[2]: 20, seats[3]: 30})
    tiebreak = played.tables.get(game=second).tiebreaker
    play_table(standing, tiebreak, {seats[1]: 40})
    session, season = cup.session, cup.session.season_id
    # As it was played before the mark: its rows in the night's and the season's too.
    Game.objects.filter(pk=tiebreak.pk).update(breaks_tie=False)
    deltas = {
        (scope, scope_id, fmt, row.player_id): {n: getattr(row, n) for n in TOTAL_FIELDS}
        for row in StandingRow.objects.filter(scope=StandingScope.GAME, scope_id=tiebreak.pk)
        for scope, scope_id in ((StandingScope.SESSION, session.pk), (StandingScope.SEASON, season))
        for fmt in ("", tiebreak.format)
    }
    _upsert(standing.club.pk, deltas)

    def season_points() -> dict[int, int]:
        rows = StandingRow.objects.filter(
            scope=StandingScope.SEASON, scope_id=season, game_format=""
        )
        return {row.player_id: row.points for row in rows if row.points}

    with_it = season_points()
    migration.tiebreakers_count_for_the_tie(apps, None)
    tiebreak.refresh_from_db()
    assert tiebreak.breaks_tie
    after = season_points()
    assert after.get(seats[1], 0) == with_it.get(seats[1], 0) + 40
    recomputed = standings_recompute(scope=StandingScope.SEASON, scope_id=season)
    assert after == {p: v["points"] for p, v in recomputed.items() if v["points"]}
