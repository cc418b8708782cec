"""A night through the pages: a deal with cards accepted and counted, a wrong declaration
rejected with the offending group named and marked, a correction with its history, the live
scoreboard and settle-up, the CSV export, the player page and the public standings."""

from __future__ import annotations

import csv
import io
import re
import zoneinfo
from datetime import datetime

import pytest
from django.test import Client, TestCase

from scoring import figures, nights, selectors
from scoring.games import game_create, table_create
from scoring.models import Deal, RulePreset, Submission, TransferPaid
from scoring.nights import session_create
from tests.pages.conftest import LOSER_GROUPS, WRONG_GROUPS, Pages, text
from tests.scoring.helpers import enter_deal, results


def _enter(pages: Pages, data: dict, who: str = "organiser"):
    client = pages.client(who)
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return client, response["Location"]


def test_entry_page_has_labels_and_the_evaluate_endpoint(pages: Pages):
    body = (
        pages.client("scorer")
        .get(f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/")
        .content.decode()
    )
    assert 'data-evaluate-url="/api/v1/rules/evaluate/"' in body
    assert "csrfmiddlewaretoken" in body
    for field_id in re.findall(r'<(?:input(?![^>]*type="hidden")|select)[^>]*\bid="([^"]+)"', body):
        assert f'for="{field_id}"' in body, f"no label for #{field_id}"
    assert "Wild joker" in body and "Submit deal 1" in body


def test_deal_with_cards_is_accepted_and_counted(pages: Pages):
    client, location = _enter(pages, pages.form())
    deal = Deal.objects.get(game=pages.night.game)
    assert location.startswith(f"/clubs/{pages.slug}/deals/{deal.pk}/?v=")
    body = client.get(location).content.decode()
    assert "Accepted" in body and "Counted" in body
    assert "Pure sequence" in body and "Set" in body
    # Asha's hand counts 7H 8H AS 6D = 31; Farid collects 31 + 23 + 20 + 40 + 40 = 154 points,
    # at Rs 4 a point: Rs 616.00.
    assert ">31<" in body and "+₹616.00" in body
    session = client.get(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/").content
    session = session.decode()
    assert "Farid" in session and "+₹616.00" in session and "−₹124.00" in session
    assert "pays" in session and "data-live-url" in session
    live = client.get(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/scoreboard/")
    assert "+₹616.00" in live.content.decode() and "X-Live-Stop" not in live


@pytest.mark.parametrize(
    ("asha_groups", "points", "note"),
    [
        # Two pure sequences: only 7H 8H AS 6D count, and the page says so on that group.
        (LOSER_GROUPS, 31, None),
        # No pure sequence (both runs use a Q, wild): every card counts, 85 capped at 80.
        (
            [["9S", "10S", "QD"], ["2D", "3D", "QC"], ["KH", "KD", "KC"], ["7H", "8H", "AS", "6D"]],
            80,
            "No pure sequence, so every card counts, up to 80.",
        ),
        # One pure sequence and no second: every card counts, 9 + 27 + 11 + 31 = 78.
        (
            [["2S", "3S", "4S"], ["9H", "9D", "9C"], ["2D", "3D", "6S"], ["7H", "8H", "AS", "6D"]],
            78,
            "One sequence only, so every card counts.",
        ),
    ],
)
def test_a_losers_counted_cards_are_explained(pages: Pages, asha_groups, points, note):
    asha = f"p{pages.night.pid('Asha')}-cards"
    client, location = _enter(pages, pages.form(**{asha: text(asha_groups)}))
    body = client.get(location).content.decode()
    assert "Accepted" in body
    assert f'<td class="num">{points}</td>' in body
    if note is None:
        assert "Unmatched: these count" in body and "every card counts" not in body
    else:
        assert note in body and "Unmatched: these count" not in body


def test_wrong_declaration_names_and_marks_the_group(pages: Pages):
    client, location = _enter(pages, pages.form(winner_groups=WRONG_GROUPS))
    body = client.get(location).content.decode()
    assert "Rejected" in body
    assert "group 2 (5C 6C 7C 9C) is not a valid sequence or set" in body
    assert 'class="group bad"' in body
    deal = Deal.objects.get(game=pages.night.game)
    assert deal.status == "open"
    game = client.get(f"/clubs/{pages.slug}/games/{pages.night.game.pk}/").content.decode()
    assert "Correct deal 1" in game and "Rejected" in game


def test_bad_card_is_highlighted(pages: Pages):
    groups = [list(g) for g in WRONG_GROUPS]
    groups[0][2] = "4X"
    client, location = _enter(pages, pages.form(winner_groups=groups))
    body = client.get(location).content.decode()
    assert "unknown card" in body and "4X" in body
    assert "card unknown bad" in body or "bad" in body.split("4X")[0][-200:]


def test_correction_prefills_and_shows_the_history(pages: Pages):
    client, _ = _enter(pages, pages.form(winner_groups=WRONG_GROUPS))
    deal = Deal.objects.get(game=pages.night.game)
    form = client.get(f"/clubs/{pages.slug}/deals/{deal.pk}/result/").content.decode()
    assert "Correct deal 1" in form
    assert text(WRONG_GROUPS) in form  # the last version, to fix
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(f"/clubs/{pages.slug}/deals/{deal.pk}/result/", pages.form())
    assert response.status_code == 302
    body = client.get(response["Location"]).content.decode()
    versions = list(Submission.objects.filter(deal=deal).order_by("version"))
    assert [v.status for v in versions] == ["rejected", "accepted"]
    assert "v1" in body and "v2" in body and "Rejected" in body and "Accepted" in body
    assert ">org<" in body  # who entered it
    # A correction of an accepted deal supersedes it.
    bilal = pages.night.pid("Bilal")
    with TestCase.captureOnCommitCallbacks(execute=True):
        client.post(
            f"/clubs/{pages.slug}/deals/{deal.pk}/result/",
            pages.form(**{f"p{bilal}-points": "30"}),
        )
    body = client.get(f"/clubs/{pages.slug}/deals/{deal.pk}/").content.decode()
    assert "Superseded" in body and "v3" in body


def test_csv_export(pages: Pages):
    pages.play_deal()
    response = pages.client("player").get(
        f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/export.csv"
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[1] == [
        "session", "table", "game", "format", "what", "version", "player", "outcome", "against",
        "points", "unit", "chips", "money (INR)",
    ]  # fmt: skip
    deal_lines = rows[2:8]
    assert [r[6] for r in deal_lines] == ["Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid"]
    assert deal_lines[0][3:6] == ["points", "Deal 1", "1"]
    assert deal_lines[0][7:] == ["loser", "31", "-31", "rummy points", "0", "-124.00"]
    assert deal_lines[5][7:] == ["winner", "0", "154", "rummy points", "0", "616.00"]
    totals = rows.index(["totals"])
    assert rows[totals + 1] == [
        "player", "money (INR)", "chips", "deals played", "deals won", "points (Points rummy)",
    ]  # fmt: skip
    farid = next(r for r in rows[totals:] if r and r[0] == "Farid")
    assert farid[1:] == ["616.00", "0", "1", "1", "154"]
    settle = rows.index(["settle-up"])
    assert len(rows) - settle - 2 == 5  # five losers pay the winner


def test_player_page_history_seasons_and_chart(pages: Pages):
    pages.play_deal()
    pages.play_deal()
    farid = pages.night.pid("Farid")
    body = pages.client("player").get(f"/clubs/{pages.slug}/players/{farid}/").content.decode()
    assert "<svg" in body and "polyline" in body
    assert "+308" in body  # two wins of 154 net points
    assert "+₹1,232.00" in body
    assert ">Winner<" in body


def test_public_standings(pages: Pages, client):
    pages.play_deal()
    url = f"/p/{pages.slug}/standings/"
    assert client.get(url).status_code == 404
    assert client.get(f"/p/{pages.slug}/standings/projector/").status_code == 404
    assert client.get(f"/p/{pages.slug}/standings/live/").status_code == 404
    club = pages.s.club
    club.public_standings = True
    club.save()
    body = client.get(url).content.decode()
    # The current season, ranked by the club's metrics (by default points, deals won, win rate).
    assert "Farid" in body and "Season" in body and ">+154<" in body and "100.0%" in body
    assert "Log in" in body  # anonymous
    projector = client.get(url + "?view=projector").content.decode()
    assert 'class="projector"' in projector and "topbar" not in projector
    assert (
        'class="projector"' in client.get(f"/p/{pages.slug}/standings/projector/").content.decode()
    )
    assert client.get(f"/p/{pages.slug}/standings/live/").status_code == 200
    assert client.get("/p/away/standings/").status_code == 404


def test_money_format():
    from clubs.page_kit.display import format_money

    assert format_money(82400, "INR", 2) == "₹824.00"
    assert format_money(-5, "INR", 2) == "−₹0.05"
    assert format_money(1234567, "USD", 2, signed=True) == "+$12,345.67"
    assert format_money(500, "JPY", 0) == "¥500"
    assert format_money(1500, "KWD", 3) == "1.500 KWD"


def test_live_fragments_stop_when_nothing_more_will_change(pages: Pages):
    deal, _ = pages.play_deal()
    client = pages.client("player")
    live = f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/scoreboard/"
    assert "X-Live-Stop" not in client.get(live)
    # A decided deal has nothing left to poll for.
    assert client.get(f"/clubs/{pages.slug}/deals/{deal.pk}/live/")["X-Live-Stop"] == "1"
    pages.client("organiser").post(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/close/")
    response = client.get(live)
    assert response["X-Live-Stop"] == "1"
    body = client.get(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/").content.decode()
    assert "data-live-url" not in body and "Closed" in body and "Farid" in body


def test_csv_paid_time_carries_the_club_zone_as_the_page_shows_it(pages: Pages):
    """The settle-up's "marked paid" time: the page shows it in the club's time zone, and the
    CSV says the same instant in ISO 8601 with the offset, never a bare UTC time."""
    club = pages.s.club
    club.timezone = "Asia/Kolkata"
    club.save(update_fields=["timezone"])
    pages.play_deal()
    session = pages.night.session
    transfer = figures.session_settlement(session=session)[0]
    nights.transfer_mark_paid(
        session=session, actor=pages.s.organiser, payer=transfer.payer_key,
        payee=transfer.payee_key,
    )  # fmt: skip
    marked_at = TransferPaid.objects.get().marked_at
    local = marked_at.astimezone(zoneinfo.ZoneInfo("Asia/Kolkata"))
    page = pages.client("player").get(f"/clubs/{pages.slug}/sessions/{session.pk}/")
    assert local.strftime("%H:%M") in page.content.decode()
    response = pages.client("player").get(f"/clubs/{pages.slug}/sessions/{session.pk}/export.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    settle = rows.index(["settle-up"])
    assert rows[settle + 1][3:] == ["marked paid by", "marked paid at"]
    paid = next(r for r in rows[settle + 2 :] if r[3])
    assert paid[3] == pages.s.organiser.username
    assert paid[4] == local.isoformat(timespec="seconds") and paid[4].endswith("+05:30")
    assert datetime.fromisoformat(paid[4]) == marked_at.replace(microsecond=0)


def test_the_night_offers_to_delete_only_the_tables_nothing_was_played_at(standing):
    """A table whose game has a deal, or only a ledger entry (an entry fee paid), is not deleted
    from the night page; nor is the night; an empty table is."""
    organiser = standing.organiser
    session = session_create(club=standing.club, actor=organiser, name="Friday")
    dealt, paid, empty = (table_create(session=session, actor=organiser) for _ in range(3))
    players = list(standing.club.players.order_by("name")[:3])
    ids = {player.name: player.pk for player in players}
    points, pool = (RulePreset.objects.get(club=None, key=key) for key in ("points", "pool-101"))
    played = game_create(table=dealt, actor=organiser, preset=points, players=players)
    enter_deal(played, standing.scorer, results(ids, Asha="winner", Bilal=20, Chitra=30))
    fee = game_create(
        table=paid, actor=organiser, preset=pool, players=players, entry_fee_minor=500
    )
    assert selectors.games_with_history(session=session) == {played.pk, fee.pk}
    client = Client()
    client.force_login(organiser)
    html = client.get(f"/clubs/home/sessions/{session.pk}/").content.decode()
    deletes = re.findall(r"Delete (Table \d+)<span", html)
    assert deletes == [empty.name] and "Delete this session" not in html
