"""A player's phone follows them through a pool knock-out of 24, in a real browser and without
a reload: registered with the fee due, paid at the desk, seated when round 1 is released, their
score of 101 and drops left as their table's deals count, then offline for 30 s while their
table ends and the final is drawn and released, right again the moment it is back ("you go on
to round 2, table 1, seat S"), the final's deals through its own table's stream, then their
place and prize. The page at a phone's and a laptop's width."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from clubs.page_kit.display import club_money
from scoring.formats import handler_for
from scoring.models import Game, RulePreset
from scoring.preset_rules import game_rules
from tests.browser.conftest import DESKTOP, PHONE, WIDE, shoot
from tests.browser.test_night import expect_text
from tests.scoring.helpers import enter_deal
from tests.tournaments.helpers import enter, roster
from tournaments.figures import prizes_won_minor
from tournaments.models import Round, RoundTable, Tournament
from tournaments.services.draws import round_release
from tournaments.services.fees import fee_mark_paid
from tournaments.services.setup import tournament_create, tournament_start
from tournaments.services.signup import entry_link_issue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Four tables of six in round 1, one going on from each to the final.
FIELD, TABLE, FEE = 24, 6, 5_000
STREAM = "/live/stream/"
OFFLINE_SECONDS = 30


def _deal(standing: Any, game: Game, winner: int, losers: dict[int, int]) -> None:
    lines = [{"player": winner, "outcome": "winner"}] + [
        {"player": p, "outcome": "loser", "points": n} for p, n in losers.items()
    ]
    enter_deal(game, standing.scorer, {"results": lines})


def _table_of(cup: Tournament, player: int, number: int) -> Game:
    for table in RoundTable.objects.filter(round__tournament=cup, round__number=number):
        if table.game.seats.filter(player_id=player).exists():
            return table.game
    raise AssertionError(f"player {player} sits at no table of round {number}")


def _play_out(standing: Any, game: Game, keep: list[int]) -> None:
    """Deals until the table ends: ``keep[0]`` wins each, the rest of ``keep`` count few
    points, everyone else still in goes past 101 within two (each on a score of their own)."""
    handler, rules = handler_for(game), game_rules(game.preset)
    for deal in range(3):
        game.refresh_from_db()
        if game.status != Game.Status.OPEN:
            return
        playing = handler.next_deal_players(game=game, rules=rules, is_tiebreaker=False)
        out = [p for p in playing if p not in keep]
        losers = {p: (30 + 5 * i if deal else 80 - i) for i, p in enumerate(out)}
        _deal(standing, game, keep[0], {p: 5 for p in keep[1:] if p in playing} | losers)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def _release(standing: Any, cup: Tournament, number: int) -> None:
    round_release(tournament=cup, actor=standing.organiser, number=number)


@pytest.mark.slow
def test_a_players_phone_follows_them_to_their_place_and_prize(new_page, standing, settings):
    # Streams end every 2 s here (10 min in production): the cut below takes effect at once.
    settings.LIVE_STREAM_SECONDS, settings.LIVE_KEEPALIVE_SECONDS = 2, 1
    standing.club.public_standings = True
    standing.club.save()
    cup = tournament_create(
        club=standing.club, actor=standing.organiser, name="Pool cup",
        preset=RulePreset.objects.get(club=None, key="pool-101"), table_max=TABLE,
        advance_per_table=1, entry_fee_minor=FEE, club_fee_minor=0, seed=5,
    )  # fmt: skip
    players = roster(standing, FIELD)
    enter(standing, cup, players[1:])
    enter(standing, cup, players[:1], paid=False)
    me = cup.entries.get(player=players[0])
    token = entry_link_issue(tournament=cup, actor=standing.organiser, entry_id=me.pk)

    phone = new_page(PHONE)
    phone.goto(f"/p/home/tournaments/{cup.pk}/me/{token}/")
    live = phone.locator("#player-live")
    phone.wait_for_selector("#player-live[data-live-push=open]")
    phone.evaluate("window.notReloaded = true")
    expect(phone.locator("#my-now")).to_have_attribute("data-now", "registered")
    expect_text(phone.locator("[data-figure=fee]"), "Due")
    shoot(phone, "player-follow-registered-phone")

    # Paid at the desk: the phone hears of it.
    fee_mark_paid(tournament=cup, actor=standing.organiser, entry=me)
    expect_text(phone.locator("[data-figure=fee]"), "Paid")

    # Round 1 released: the phone shows the table and seat.
    tournament_start(tournament=cup, actor=standing.organiser)
    _release(standing, cup, 1)
    game = _table_of(cup, me.player_id, 1)
    seat = game.seats.get(player_id=me.player_id).position
    table = game.round_table.number
    expect_text(phone.locator("[data-figure=seat]"), f"table {table}, seat {seat}")

    # A deal counts at the table: their score of 101 and drops left, as their table stands.
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    others = [p for p in seats if p != me.player_id]
    _deal(standing, game, others[0],
          {me.player_id: 20} | {p: 30 + 10 * i for i, p in enumerate(others[1:])})  # fmt: skip
    expect_text(phone.locator("[data-figure=my-score]"), "^−20$")
    expect_text(phone.locator(".my-figure"), "of −101")
    expect_text(phone.locator("[data-figure=my-note]"), "drops? left")
    assert phone.locator(".meters.running li").count() == TABLE
    # The public page and the projector, opened before the deal, show the same figure.
    name = me.player.name
    public = new_page(DESKTOP)
    public.goto(f"/p/home/tournaments/{cup.pk}/")
    projector = new_page(WIDE)
    projector.goto(f"/p/home/tournaments/{cup.pk}/projector/")
    mine = f':has-text("{name}") [data-figure=running]'
    expect_text(public.locator(f".running-names li{mine}"), "^−20$")
    expect_text(projector.locator(f".projector-tables > li > ol > li{mine}"), "^−20$")
    shoot(public, "player-follow-public-desktop")
    shoot(projector, "player-follow-projector")
    shoot(phone, "player-follow-playing-phone")
    phone.set_viewport_size(DESKTOP)
    shoot(phone, "player-follow-playing-desktop")
    phone.set_viewport_size(PHONE)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Offline: meanwhile their table ends (they go on), the round completes, the final is
    # drawn and released.
    phone.route(f"**{STREAM}**", lambda route: route.abort("internetdisconnected"))
    phone.context.set_offline(True)
    phone.wait_for_selector("#player-live[data-live-push=down]")
    cut_at = time.monotonic()
    _play_out(standing, game, [me.player_id])
    for table in RoundTable.objects.filter(round__tournament=cup, round__number=1):
        if table.game_id != game.pk:
            _play_out(standing, table.game, [table.game.seats.order_by("position")[0].player_id])
    assert cup.round_set.get(number=2).status == Round.Status.DRAFT
    _release(standing, cup, 2)
    final = _table_of(cup, me.player_id, 2)
    final_seat = final.seats.get(player_id=me.player_id).position
    time.sleep(max(0.0, OFFLINE_SECONDS - (time.monotonic() - cut_at)))
    assert "round 2" not in live.inner_text()  # it could not have heard: offline

    phone.unroute(f"**{STREAM}**")
    phone.context.set_offline(False)
    back_at = time.monotonic()
    expect_text(phone.locator("[data-figure=seat]"),
                f"You go on to round 2 \\(the final\\): table 1, seat {final_seat}")  # fmt: skip
    print(f"back online to right: {time.monotonic() - back_at:.2f} s")
    assert time.monotonic() - back_at < 8  # the stream's retry, not a reload
    expect(phone.locator("#my-rounds li")).to_have_count(2)
    expect_text(phone.locator("#my-rounds li").first, "went on")
    shoot(phone, "player-follow-going-on-phone")

    # The final's first deal reaches the phone through the final table's own stream (the
    # phone moved there when it showed the new seat), then they win it: place and prize.
    final_players = list(final.seats.order_by("position").values_list("player_id", flat=True))
    rivals = [p for p in final_players if p != me.player_id]
    _deal(standing, final, me.player_id, {p: 80 - i for i, p in enumerate(rivals)})
    expect_text(phone.locator(".meters.running"), "−78")
    _play_out(standing, final, [me.player_id])
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    prize = club_money(standing.club, prizes_won_minor(tournament=cup)[me.player_id])
    expect(phone.locator("#my-now")).to_have_attribute("data-now", "placed", timeout=10_000)
    expect_text(phone.locator("[data-figure=place]"), "You finished 1st")
    expect_text(phone.locator("[data-figure=prize]"), prize.replace(".", "\\."))
    assert len(final_players) == FIELD // TABLE
    assert phone.evaluate("window.notReloaded") is True
    shoot(phone, "player-follow-placed-phone")
    phone.set_viewport_size(DESKTOP)
    shoot(phone, "player-follow-placed-desktop")
