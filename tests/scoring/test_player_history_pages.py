"""A player's history read a page at a time: over a long, varied history (formats with points and
one without, a correction, a void, fees, prizes, a tie-breaker, two seasons and a night without
one), every page's lines and running figures equal the whole history summed by hand from the
ledger's postings, the pages list every line once, the totals are the standings', and reading a
page costs the same queries however long the history."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Player
from ledger.models import AccountKind, Posting
from scoring.games import game_create, table_create
from scoring.history import RUNNING_POINTS_SHOWN, player_history
from scoring.models import Game, PlayerResult, RulePreset, Session, StandingRow, Submission
from scoring.nights import session_create
from scoring.undo import deal_void
from tests.scoring.helpers import correct, play, results


def game_at(standing: Any, session: Session, preset: str, names: list[str], **extra: Any) -> Game:
    players = [Player.objects.get_or_create(club=standing.club, name=name)[0] for name in names]
    return game_create(
        table=table_create(session=session, actor=standing.organiser),
        actor=standing.organiser, preset=RulePreset.objects.get(club=None, key=preset),
        players=players, **extra,
    )  # fmt: skip


def night(standing: Any, name: str, year: int, month: int) -> Session:
    when = datetime(year, month, 7, 20, tzinfo=UTC)
    return session_create(club=standing.club, actor=standing.organiser, name=name, started_at=when)


def ids_of(standing: Any, *names: str) -> dict[str, int]:
    return dict(Player.objects.filter(club=standing.club, name__in=names).values_list("name", "pk"))


def varied_history(standing: Any) -> Player:
    """Asha's nights: a points table of 2025 with a correction and a void, and a pool game with
    an entry fee won to its prize; a night without a season at deals rummy (chips, no points)
    with a fee and a prize, and Rummikub; a points table of 2026 and a tie-breaker."""
    first = night(standing, "March", 2025, 3)
    points = game_at(standing, first, "points", ["Asha", "Bilal", "Chitra"], point_value_minor=10)
    ids = ids_of(standing, "Asha", "Bilal", "Chitra")
    play(standing, points, results(ids, Asha="winner", Bilal=20, Chitra=30))
    wrong = play(standing, points, results(ids, Bilal="winner", Asha=25, Chitra=5))
    assert correct(standing, wrong.deal, results(ids, Bilal="winner", Asha=40, Chitra=5)).status
    voided = play(standing, points, results(ids, Chitra="winner", Asha=10, Bilal=10))
    deal_void(deal=voided.deal, actor=standing.organiser)
    play(standing, points, results(ids, Asha="winner", Bilal=2, Chitra=80))
    pool = game_at(standing, first, "pool-101", ["Asha", "Bilal"], entry_fee_minor=500)
    play(standing, pool, results(ids, Asha="winner", Bilal=60))
    play(standing, pool, results(ids, Asha="winner", Bilal=60))  # Bilal out: Asha's prize

    loose = night(standing, "Summer", 2025, 7)
    Session.objects.filter(pk=loose.pk).update(season=None)
    loose.refresh_from_db()
    deals = game_at(standing, loose, "deals-2", ["Asha", "Dev"], entry_fee_minor=1000)
    ids = ids_of(standing, "Asha", "Bilal", "Chitra", "Dev")
    play(standing, deals, results(ids, Dev="winner", Asha=30))
    play(standing, deals, results(ids, Asha="winner", Dev=50))
    sabra = game_at(standing, loose, "sabra", ["Asha", "Dev"])
    racks = {str(ids["Asha"]): [], str(ids["Dev"]): ["R5", "B7"]}
    play(standing, sabra, {"racks": racks, "winner": ids["Asha"]})
    racks = {str(ids["Asha"]): ["JK"], str(ids["Dev"]): []}
    play(standing, sabra, {"racks": racks, "winner": ids["Dev"]})

    later = night(standing, "January", 2026, 1)
    again = game_at(standing, later, "points", ["Asha", "Chitra"], point_value_minor=5)
    play(standing, again, results(ids, Chitra="winner", Asha=15))
    play(standing, again, results(ids, Asha="winner", Chitra=70))
    tie = game_at(standing, later, "points", ["Asha", "Bilal"], breaks_tie=True)
    play(standing, tie, results(ids, Asha="winner", Bilal=33))
    return Player.objects.get(pk=ids["Asha"])


def lines_by_hand(player: Player) -> list[dict[str, Any]]:
    """The player's lines, oldest first, summed from the postings: a deal's entries together,
    every other entry alone; a counted result that moved nothing is a line too."""
    lines: dict[tuple[str, int], dict[str, Any]] = {}

    def line(key: tuple[str, int], first: int, game: Game) -> dict[str, Any]:
        found = lines.setdefault(key, {
            "key": key, "first": first, "format": game.format, "night": game.table.session,
            "points": 0, "chips": 0, "money_minor": 0,
        })  # fmt: skip
        found["first"] = min(found["first"], first)
        return found

    postings = Posting.objects.filter(player=player, account=AccountKind.PLAYER)
    for posting in postings.select_related("entry", "book__game__table__session"):
        entry = posting.entry
        key = ("deal", entry.deal_id) if entry.deal_id else (entry.kind, entry.pk)
        quantity = "money_minor" if posting.quantity == "money" else posting.quantity
        line(key, entry.pk, posting.book.game)[quantity] += posting.amount
    counted = PlayerResult.objects.filter(player=player, submission__status="accepted")
    for result in counted.select_related("game__table__session"):
        line(("deal", result.deal_id), result.entry_id, result.game)
    ordered = sorted(
        lines.values(), key=lambda x: (x["night"].started_at, x["night"].pk, x["first"])
    )
    running: dict[str, int] = {}
    money = 0
    for found in ordered:
        money += found["money_minor"]
        found["running_money_minor"] = money
        if found["format"] in ("deals",):  # deals rummy keeps chips, not points
            found["running_points"] = None
        else:
            running[found["format"]] = running.get(found["format"], 0) + found["points"]
            found["running_points"] = running[found["format"]]
    return ordered


def test_every_page_of_a_long_varied_history_equals_the_ledger_summed_by_hand(standing):
    player = varied_history(standing)
    want = lines_by_hand(player)[::-1]  # newest first, as pages show them
    kinds = {line["key"][0] for line in want}
    assert {"deal", "entry_fee", "payout"} <= kinds, kinds
    assert Submission.objects.filter(status="voided").exists()
    api = standing.client("player")
    url = f"/api/v1/clubs/home/players/{player.pk}/history/"
    seen = []
    for offset in range(0, len(want) + 3, 3):
        body = api.get(url, {"limit": 3, "offset": offset}).json()
        assert body["count"] == len(want)
        for got, line in zip(body["results"], want[offset : offset + 3], strict=True):
            key = ("deal", got["deal"]) if got["kind"] == "deal" else (got["kind"], None)
            assert key[0] == line["key"][0] and key[1] in (None, line["key"][1])
            for figure in ("points", "chips", "money_minor", "running_points",
                           "running_money_minor"):  # fmt: skip
                assert got[figure] == line[figure], (offset, figure, got, line)
            assert got["session"] == line["night"].pk
            seen.append(line["key"])
    assert seen == [line["key"] for line in want]  # every line, once, in order

    # The totals: overall the ledger's; per season the standings' (the tie-breaker's points
    # and the night without a season in neither season).
    body = api.get(url).json()
    assert body["total"]["money_minor"] == want[0]["running_money_minor"]
    assert body["total"]["chips"] == sum(line["chips"] for line in want)
    assert body["total"]["points_by_format"] == {
        f: next(line["running_points"] for line in want if line["format"] == f)
        for f in ("points", "pool", "rummikub")
    }
    seasons = {season["name"]: season for season in body["seasons"]}
    assert [s["name"] for s in body["seasons"]] == ["2026", "2025", "No season"]
    for season in body["seasons"][:2]:
        row = StandingRow.objects.get(
            scope="season", scope_id=season["season"], game_format="", player=player
        )
        totals = season["totals"]
        assert (totals["money_minor"], totals["chips"], totals["deals_played"],
                totals["deals_won"]) == (row.money_minor, row.chips, row.deals_played,
                                         row.deals_won)  # fmt: skip
        for game_format, points in totals["points_by_format"].items():
            assert points == StandingRow.objects.get(
                scope="season", scope_id=season["season"], game_format=game_format,
                player=player,
            ).points  # fmt: skip
    assert seasons["2026"]["totals"]["points_by_format"] == {"points": -15 + 70}
    assert seasons["No season"]["season"] is None
    assert seasons["No season"]["totals"]["points_by_format"].keys() == {"rummikub"}

    # The page shows the same lines, fifty a page: all of them here.
    browser = Client()
    browser.force_login(standing.player)
    page = browser.get(f"/clubs/home/players/{player.pk}/").content.decode()
    deal_lines = [line for line in want if line["key"][0] == "deal"]
    assert page.count('href="/clubs/home/deals/') == len(deal_lines)
    assert "Deal 3 (voided)" in page


def test_a_page_of_history_costs_the_same_queries_for_five_deals_and_two_hundred(standing):
    game = game_at(standing, night(standing, "Long", 2026, 2), "points", ["Asha", "Bilal"])
    ids = ids_of(standing, "Asha", "Bilal")
    api = standing.client("player")
    browser = Client()
    browser.force_login(standing.player)
    urls = [
        (api, f"/api/v1/clubs/home/players/{ids['Asha']}/history/?limit=50&offset=0"),
        (browser, f"/clubs/home/players/{ids['Asha']}/"),
    ]

    def queries() -> list[int]:
        counts = []
        for client, url in urls:
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            counts.append(len(captured))
        return counts

    def deals(numbers: range) -> None:
        for n in numbers:  # Asha wins every other deal
            won = (
                results(ids, Asha="winner", Bilal=n % 9)
                if n % 2
                else results(ids, Bilal="winner", Asha=7)
            )
            play(standing, game, won)

    deals(range(5))
    few = queries()
    deals(range(5, 205))
    assert queries() == few

    # The chart: two hundred points of the 205 steps, evenly, the first and the last kept.
    player = Player.objects.get(pk=ids["Asha"])
    [(game_format, running)] = player_history(player=player, chart=True).running_by_format.items()
    assert game_format == "points" and running.steps == 205
    assert len(running.points) == RUNNING_POINTS_SHOWN
    by_hand = [line["running_points"] for line in lines_by_hand(player)]
    assert running.points[0] == (1, by_hand[0]) and running.points[-1] == (205, by_hand[-1])
    assert all(points == by_hand[step - 1] for step, points in running.points)
    steps = [step for step, _ in running.points]
    assert max(b - a for a, b in itertools.pairwise(steps)) == 2
