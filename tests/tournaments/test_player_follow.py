"""The player's own page follows them through the tournament: registered, seated, playing with
their table's running figures (pool: the score of 101 and the drops left; deals: chips; chip
levels: chips and the level's minimum), going on, out, placed with their prize, withdrawn; and
the same running figure on their page, the public page and the projector."""

from __future__ import annotations

import random
import re

from django.test import Client, TestCase

from clubs.page_kit.display import club_money
from scoring.formats import handler_for
from scoring.formats.pool.pages import pool_points
from scoring.models import Game, RulePreset
from scoring.preset_rules import game_rules
from tests.scoring.helpers import enter_deal
from tests.tournaments.helpers import enter, new_tournament, play_round, play_table, roster
from tournaments.figures import prizes_won_minor
from tournaments.models import Entry, RoundTable, Tournament
from tournaments.services.draws import round_release
from tournaments.services.entries import entry_withdraw
from tournaments.services.setup import tournament_start
from tournaments.services.signup import entry_link_issue

FEE = 5000


def _cup(standing, entrants: int = 8, preset: str = "points", **options) -> Tournament:
    standing.club.public_standings = True
    standing.club.save()
    cup = new_tournament(
        standing, preset=RulePreset.objects.get(club=None, key=preset), table_max=4,
        entry_fee_minor=FEE, club_fee_minor=0, **options,
    )  # fmt: skip
    enter(standing, cup, roster(standing, entrants))
    return cup


def _link(standing, cup: Tournament, name: str = "Entrant 003") -> str:
    entry = cup.entries.get(player__name=name)
    token = entry_link_issue(tournament=cup, actor=standing.organiser, entry_id=entry.pk)
    return f"/p/home/tournaments/{cup.pk}/me/{token}/"


def _now(page: str) -> str:
    found = re.search(r'id="my-now" data-now="([a-z_]+)"', page)
    assert found, "the page shows where the player is now"
    return found[1]


def _start(standing, cup: Tournament, release: bool = True) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        if release:
            round_release(tournament=cup, actor=standing.organiser, number=1)


def _table_of(cup: Tournament, name: str, number: int = 1) -> RoundTable:
    player = cup.entries.get(player__name=name).player_id
    for table in RoundTable.objects.filter(round__tournament=cup, round__number=number):
        if table.game.seats.filter(player_id=player).exists():
            return table
    raise AssertionError(f"{name} sits at no table of round {number}")


def _figure(page: str, key: str) -> str:
    found = re.search(rf'data-figure="{key}">([^<]+)<', page)
    assert found, f"the page shows {key}"
    return found[1]


def test_registered_with_the_fee_due_then_paid_and_no_seat_yet(standing):
    cup = _cup(standing)
    entry = cup.entries.get(player__name="Entrant 003")
    entry.fee_status = Entry.FeeStatus.DUE
    entry.save()
    page = Client().get(_link(standing, cup)).content.decode()
    assert _now(page) == "registered"
    assert _figure(page, "status") == "Registered" and _figure(page, "fee") == "Due"
    assert "once the tournament starts" in page and 'data-figure="seat"' not in page
    assert 'data-live-stream="/live/' in page  # pushed, not a refresh button
    entry.fee_status = Entry.FeeStatus.PAID
    entry.save()
    assert _figure(Client().get(_link(standing, cup)).content.decode(), "fee") == "Paid"


def test_seated_once_the_round_is_released_not_while_drawn(standing):
    cup = _cup(standing)
    url = _link(standing, cup)
    _start(standing, cup, release=False)
    page = Client().get(url).content.decode()
    assert _now(page) == "registered" and "as soon as the round is released" in page
    with TestCase.captureOnCommitCallbacks(execute=True):
        round_release(tournament=cup, actor=standing.organiser, number=1)
    table = _table_of(cup, "Entrant 003")
    seat = table.game.seats.get(player__name="Entrant 003").position
    page = Client().get(url).content.decode()
    assert _now(page) == "seated"
    assert f"Round 1: <strong>table {table.number}, seat {seat}</strong>" in page
    assert "No deal counted yet" in page
    # The page listens to the tournament and to its own table's game, not every table's.
    topics = re.search(r'id="player-live"[^>]* data-live-topics="([^"]+)"', page)
    assert topics and topics[1] == f"tournament:{cup.pk} game:{table.game_id}"


def _deal_at(standing, game: Game, losers: dict[str, int]) -> None:
    seats = list(game.seats.order_by("position").select_related("player"))
    winner = next(s for s in seats if s.player.name not in losers)
    lines = [
        {"player": s.player_id, "outcome": "winner"}
        if s is winner
        else {"player": s.player_id, "outcome": "loser", "points": losers.get(s.player.name, 2)}
        for s in seats
    ]
    enter_deal(game, standing.scorer, {"results": lines})


def test_a_pool_table_in_play_shows_the_score_of_101_and_drops_left_on_every_screen(standing):
    cup = _cup(standing, preset="pool-101")
    url = _link(standing, cup)
    _start(standing, cup)
    game = _table_of(cup, "Entrant 003").game
    _deal_at(standing, game, {"Entrant 003": 40})
    page = Client().get(url).content.decode()
    assert _now(page) == "playing"
    # The figure of the format's own state (the director's game page), read another way.
    rules = game_rules(game.preset)
    state = handler_for(game).state(game=game, rules=rules)
    line = next(p for p in state.players if p.name == "Entrant 003")
    assert line.score == 40
    score, limit = pool_points(line.score), pool_points(101)
    assert _figure(page, "my-score") == score == "−40"
    assert f"of {limit}" in page and _figure(page, "my-note") == (
        f"{line.drops_remaining} drop{'s' if line.drops_remaining != 1 else ''} left"
    )
    assert "Deal 1: entered by" in page
    # The public page and the projector show the same figure beside the player's name.
    anyone = Client()
    drops = _figure(page, "my-note")
    public = anyone.get(f"/p/home/tournaments/{cup.pk}/").content.decode()
    mine = re.search(r'Entrant 003</span> <span class="fig"><strong data-figure="running">'
                     r"([^<]+)</strong> ([^<]+)", public)  # fmt: skip
    assert mine and mine[1] == score and mine[2] == f"of {limit} · {drops}"
    projector = anyone.get(f"/p/home/tournaments/{cup.pk}/projector/").content.decode()
    mine = re.search(r'Entrant 003 <span class="fig"><strong data-figure="running">([^<]+)'
                     r"</strong> <small>([^<]+)</small>", projector)  # fmt: skip
    assert mine and mine[1] == score and mine[2] == drops
    assert f"In play · of {limit}</span></h2>" in projector  # the unit once, in the heading


def test_a_deals_table_in_play_shows_chips(standing):
    cup = _cup(standing, preset="deals-3")
    url = _link(standing, cup)
    _start(standing, cup)
    game = _table_of(cup, "Entrant 003").game
    _deal_at(standing, game, {"Entrant 003": 30})
    page = Client().get(url).content.decode()
    assert _now(page) == "playing"
    rules = game_rules(game.preset)
    state = handler_for(game).state(game=game, rules=rules)
    chips = next(p.chips for p in state.players if p.name == "Entrant 003")
    assert _figure(page, "my-score") == str(chips) and "chips" in page
    assert chips != state.starting_chips  # the deal moved them


def test_going_on_then_the_next_round_seat_then_placed_with_the_prize(standing):
    cup = _cup(standing)
    url = _link(standing, cup)
    _start(standing, cup)
    table = _table_of(cup, "Entrant 003")
    seats = dict(table.game.seats.values_list("player__name", "player_id"))
    # Entrant 003 wins the deal at their table: they go on; the other table still plays.
    play_table(standing, table.game, {p: 20 for n, p in seats.items() if n != "Entrant 003"})
    page = Client().get(url).content.decode()
    assert _now(page) == "going_on" and "You go on to round 2." in page
    play_round(standing, cup, random.Random(3))
    # Round 2 is drawn (the final of four), not yet released: still going on.
    assert _now(Client().get(url).content.decode()) == "going_on"
    with TestCase.captureOnCommitCallbacks(execute=True):
        round_release(tournament=cup, actor=standing.organiser, number=2)
    final = _table_of(cup, "Entrant 003", number=2)
    seat = final.game.seats.get(player__name="Entrant 003").position
    page = Client().get(url).content.decode()
    assert _now(page) == "seated"
    assert f"You go on to round 2 (the final): <strong>table 1, seat {seat}</strong>" in page
    seats = dict(final.game.seats.values_list("player__name", "player_id"))
    play_table(standing, final.game, {p: 20 for n, p in seats.items() if n != "Entrant 003"})
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    entry = cup.entries.get(player__name="Entrant 003")
    assert entry.place == 1
    live = Client().get(f"{url}live/")
    page = live.content.decode()
    assert _now(page) == "placed" and live["X-Live-Stop"] == "1"
    won = prizes_won_minor(tournament=cup)[entry.player_id]
    prize = club_money(standing.club, won)
    assert won > 0 and "You finished <strong>1st</strong>" in page
    assert _figure(page, "prize") == prize
    places = Client().get(f"/p/home/tournaments/{cup.pk}/").content.decode()
    shown = rf'Entrant 003</th><td class="num" data-figure="prize">{re.escape(prize)}<'
    assert re.search(shown, places)


def test_out_at_a_table_then_the_place_when_the_tournament_ends(standing):
    cup = _cup(standing)
    url = _link(standing, cup)
    _start(standing, cup)
    table = _table_of(cup, "Entrant 003")
    seats = dict(table.game.seats.values_list("player__name", "player_id"))
    others = [p for n, p in seats.items() if n != "Entrant 003"]
    # One of the others wins, the next two count few points: Entrant 003, with 70, is out.
    play_table(standing, table.game, {seats["Entrant 003"]: 70, others[1]: 5, others[2]: 6})
    assert _now(Client().get(url).content.decode()) == "table_done"
    play_round(standing, cup, random.Random(3))
    page = Client().get(url).content.decode()
    assert _now(page) == "out" and "You went out in round 1" in page
    play_round(standing, cup, random.Random(3))
    page = Client().get(url).content.decode()
    place = cup.entries.get(player__name="Entrant 003").place
    assert _now(page) == "placed" and place and place > 4
    assert f"You finished <strong>{place}th</strong>" in page


def test_withdrawn(standing):
    cup = _cup(standing)
    url = _link(standing, cup)
    _start(standing, cup)
    entry = cup.entries.get(player__name="Entrant 003")
    with TestCase.captureOnCommitCallbacks(execute=True):
        entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=entry.pk)
    page = Client().get(url).content.decode()
    assert _now(page) == "withdrawn" and "you no longer play" in page
    assert _figure(page, "status") == "Withdrawn"


def test_not_me_forgets_the_phones_link(standing):
    cup = _cup(standing)
    url = _link(standing, cup)
    phone = Client()
    phone.get(url)
    check_in = f"/p/home/tournaments/{cup.pk}/check-in/"
    assert phone.get(check_in)["Location"] == url  # the phone knows its player
    gone = phone.post(f"/p/home/tournaments/{cup.pk}/forget/")
    assert gone.status_code == 302 and gone["Location"] == f"/p/home/tournaments/{cup.pk}/"
    assert phone.get(check_in).status_code == 200  # no longer sent to that player's page
    assert phone.get(f"/p/home/tournaments/{cup.pk}/forget/").status_code == 405


def test_the_live_part_reads_as_many_queries_whatever_the_field(
    standing, django_assert_max_num_queries
):
    counts = []
    for entrants in (8, 48):
        cup = _cup(standing, entrants=entrants, name=f"Cup {entrants}")
        url = _link(standing, cup)
        _start(standing, cup)
        _deal_at(standing, _table_of(cup, "Entrant 003").game, {"Entrant 003": 10})
        phone = Client()
        assert phone.get(f"{url}live/").status_code == 200
        # 16, and 3 for the table's deals listed one by one (the game page's selector).
        with django_assert_max_num_queries(19) as done:
            assert _now(phone.get(f"{url}live/").content.decode()) == "playing"
        counts.append(len(done.captured_queries))
    assert counts[0] == counts[1]
    assert Client().get(url.replace("/me/", "/me/x")).status_code == 404


def test_a_chip_level_player_sees_their_chips_and_the_levels_minimum(standing):
    levels = {
        "starting_chips": 1000, "rebuys": 0,
        "levels": [{"point_value": 5, "minimum": 800, "qualify": 1200},
                   {"point_value": 10, "minimum": 1000, "qualify": 1400}],
    }  # fmt: skip
    cup = _cup(standing, kind=Tournament.Kind.CHIPS, chip_levels=levels, payout="by_field")
    url = _link(standing, cup)
    _start(standing, cup)
    _deal_at(standing, _table_of(cup, "Entrant 003").game, {"Entrant 003": 10})
    page = Client().get(url).content.decode()
    assert _now(page) == "playing"
    assert _figure(page, "my-chips") == "1000" and _figure(page, "level-minimum") == "800"
    assert "level 1's minimum" in page


def test_a_points_only_club_shows_no_fee_or_prize_on_the_players_page(standing):
    cup = _cup(standing)
    url = _link(standing, cup)
    _start(standing, cup, release=False)
    for _ in range(3):
        cup.refresh_from_db()
        if cup.status != Tournament.Status.RUNNING:
            break
        play_round(standing, cup, random.Random(5))
    standing.club.points_only = True
    standing.club.save()
    page = Client().get(url).content.decode()
    assert _now(page) == "placed"
    assert "₹" not in page and "prize" not in page.lower().split("</h2>", 1)[1].split("footer")[0]


def test_the_public_page_leads_a_remembered_phone_to_its_players_page(standing):
    cup = _cup(standing)
    url = _link(standing, cup)
    public = f"/p/home/tournaments/{cup.pk}/"
    phone, other = Client(), Client()
    assert 'id="my-link"' not in phone.get(public).content.decode()
    phone.get(url)  # the phone opens its link: it keeps it
    page = phone.get(public).content.decode()
    assert f'href="{url}" id="my-link">Your page: Entrant 003<' in page
    assert 'id="my-link"' not in other.get(public).content.decode()  # another phone: no link
    phone.post(f"/p/home/tournaments/{cup.pk}/forget/")
    assert 'id="my-link"' not in phone.get(public).content.decode()
    # A link made again (the old one no longer opens) is not offered from the old cookie.
    phone.get(url)
    _link(standing, cup)
    assert 'id="my-link"' not in phone.get(public).content.decode()


def test_the_players_table_deals_are_listed_one_by_one_with_the_game_pages_figures(standing):
    cup = _cup(standing)
    url = _link(standing, cup)
    _start(standing, cup)
    game = _table_of(cup, "Entrant 003").game
    for points in (10, 25, 7):
        _deal_at(standing, game, {"Entrant 003": points})
    page = Client().get(url).content.decode()
    listed = re.findall(r'<li data-deal="(\d+)"[^>]*>.*?data-figure="deal-points">([^<]+)<', page)
    me = game.seats.get(player__name="Entrant 003").player_id
    counted = {
        str(d.number): d.player_results.get(player_id=me).points
        for d in game.deals.order_by("number")
    }
    assert [number for number, _ in listed] == ["3", "2", "1"]  # newest first
    assert len(counted) == 3
    # The same figure as the game page's (signed as the format signs its points).
    signed = handler_for(game).words.signed_points
    for number, shown in listed:
        value = counted[number]
        expected = (
            (f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0")
            if signed
            else str(value)
        )
        assert shown == expected, (number, shown, expected)
    # ... and the figure the desk's game page shows in the player's column of each deal.
    desk = Client()
    desk.force_login(standing.organiser)
    game_page = desk.get(f"/clubs/home/games/{game.pk}/").content.decode()
    column = list(game.seats.order_by("position").values_list("player_id", flat=True)).index(me)
    rows = re.findall(r'<tr(?: class="voided")?>\s*<th scope="row".*?>(\d+)<span(.*?)</tr>',
                      game_page, re.S)  # fmt: skip
    on_the_desk = {
        number: re.findall(r'<td class="pts num">(?:<span(?: class="won")?>)?([^<]+)<', row)[column]
        for number, row in rows
    }
    assert on_the_desk == dict(listed)
