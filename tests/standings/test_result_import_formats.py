"""Past results of pool, deals and Rummikub imported through the API from their documented
layouts: the standings (API and page) equal the season computed by hand
(``tests/standings/result_formats.py``), the games' places are the sheet's (and rate them), a
bad row is named by row and column, and the same sheet again changes nothing."""

from __future__ import annotations

import base64
import re

import pytest
from django.test import Client

from clubs.models import Player
from ledger.models import LedgerEntry, Posting
from scoring.lifecycle import game_finishing_order
from scoring.models import Game, RulePreset, Session, Submission
from standings.models import RatedGame
from standings.result_import import import_preset
from standings.result_plan import results_plan
from standings.result_sheet import LAYOUTS, result_sheet_read, template_csv
from tests.factories import PlayerFactory
from tests.standings.result_formats import PLAYERS, POOL_NIGHT_2_PLACES, SEASONS

API = "/api/v1/clubs/home/"


@pytest.fixture
def season_club(standing):
    for name in PLAYERS:
        PlayerFactory(club=standing.club, name=name)
    return standing


def _body(layout: str, text: str, **extra):
    return {"layout": layout, "filename": "s.csv",
            "file_base64": base64.b64encode(text.encode()).decode(), **extra}  # fmt: skip


def _api_totals(client, season_id: int, game_format: str, field: str) -> dict[str, int]:
    metric = "money" if field == "money_minor" else "points"
    answer = client.get(
        f"{API}standings/?scope=season&id={season_id}&game_format={game_format}&metrics={metric}"
    )
    assert answer.status_code == 200, answer.json()
    return {line["name"]: line["totals"][field] for line in answer.json()["results"]}


def _page_totals(user, season_id: int, game_format: str, field: str) -> dict[str, int]:
    """Each player's figure in the standings page's first column of figures."""
    client = Client()
    client.force_login(user)
    html = client.get(
        f"/clubs/home/standings/?scope=season&id={season_id}&game_format={game_format}"
    ).content.decode()
    body = html[html.index('<table class="standings"') :]
    rows = re.findall(r'<th scope="row" id="p-\d+">(?:<a [^>]*>)?([^<]+).*?<td class="num[^"]*">'
                      r"([^<]+)</td>", body, flags=re.S)  # fmt: skip
    return {name: _number(text) for name, text in rows}


def _number(text: str) -> int:
    """A figure as the page shows it (₹450.00, −250, +39) in whole units or minor units."""
    digits = text.replace("−", "-").replace("+", "").replace(",", "")
    digits = re.sub(r"[^0-9.\-]", "", digits)
    return int(digits.replace(".", "")) if "." in digits else int(digits)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layout", list(SEASONS))
def test_a_season_of_each_format_equals_its_standings_by_hand(season_club, layout):
    sheet, game_format, field, expected = SEASONS[layout]
    client = season_club.client("organiser")
    preview = client.post(f"{API}results/import/preview/", _body(layout, sheet), format="json")
    assert preview.status_code == 200, preview.json()
    assert preview.json()["errors"] == []
    assert not Session.objects.exists()  # the preview stores nothing
    made = client.post(f"{API}results/import/", _body(layout, sheet), format="json")
    assert made.status_code == 202, made.json()
    status = client.get(f"{API}results/imports/{made.json()['id']}/").json()
    assert status["status"] == "done", status

    games = Game.objects.filter(table__session__club=season_club.club)
    assert {game.format for game in games} == {game_format}
    assert {(game.status, game.end) for game in games} <= {
        ("finished", "played_out"), ("finished", "by_organiser")
    }  # fmt: skip
    assert not Submission.objects.exclude(source="import").exists()
    season_id = Session.objects.values_list("season_id", flat=True).distinct().get()
    assert _api_totals(client, season_id, game_format, field) == expected
    # The page ranks by the club's order of metrics: the organiser's choice of what counts.
    season_club.club.standings_metrics = ["money" if field == "money_minor" else "points"]
    season_club.club.save(update_fields=["standings_metrics"])
    assert _page_totals(season_club.organiser, season_id, game_format, field) == expected
    page = Client()
    page.force_login(season_club.organiser)
    for game in games:  # each game's page and API read show the imported game
        assert page.get(f"/clubs/home/games/{game.pk}/").status_code == 200
        assert client.get(f"{API}games/{game.pk}/").status_code == 200
    if game_format == "deals":  # a result given whole: no opening chips in the standings
        assert not Posting.objects.filter(quantity="chips").exists()
    # Every game rated, in date order.
    assert RatedGame.objects.filter(club=season_club.club).count() == games.count()

    entries, postings = LedgerEntry.objects.count(), Posting.objects.count()
    again = client.post(f"{API}results/import/", _body(layout, sheet), format="json")
    assert (again.status_code, again.json()["id"]) == (200, made.json()["id"])
    assert (LedgerEntry.objects.count(), Posting.objects.count()) == (entries, postings)
    assert _api_totals(client, season_id, game_format, field) == expected


@pytest.mark.django_db(transaction=True)
def test_a_pool_game_keeps_the_sheets_places_and_charges_no_entry_fee(season_club):
    sheet, *_ = SEASONS["pool_games"]
    client = season_club.client("organiser")
    made = client.post(f"{API}results/import/", _body("pool_games", sheet), format="json")
    assert made.status_code == 202, made.json()
    second = Game.objects.get(table__session__name="Fri 2")
    names = dict(Player.objects.values_list("pk", "name"))
    places = game_finishing_order(game=second)
    assert places is not None
    assert {names[pid]: place for pid, place in places.items()} == POOL_NIGHT_2_PLACES
    assert second.entry_fee_minor == 0
    kinds = set(LedgerEntry.objects.values_list("kind", flat=True))
    assert kinds == {LedgerEntry.Kind.SETTLEMENT}


BAD_ROWS = [
    # (layout, sheet, row, column, a part of the message)
    ("pool_games",
     "date,player,place,money\n2026-01-02,Arjun,1,300\n2026-01-02,Bhavna,2,-100\n"
     "2026-01-02,Charu,3,-150\n",
     4, "money", "the money sums to +50.00, not 0 (rows 2 to 4)"),
    ("pool_games",
     "date,player,place,money\n2026-01-02,Arjun,1,0\n2026-01-02,Bhavna,3,0\n",
     3, "place", "place 3 of 2 players"),
    ("deals_games",
     "date,player,place,money\n2026-01-02,Arjun,1,10\n2026-01-02,Zed,2,-10\n",
     3, "player", "'Zed' is not on the roster"),
    ("deals_games",
     "date,player,place,money\n2026-01-02,Arjun,first,10\n2026-01-02,Dev,2,-10\n",
     2, "place", "'first' is not a place"),
    ("rummikub_games",
     "date,game,player,score\n2026-01-02,1,Arjun,30\n2026-01-02,1,Bhavna,-20\n",
     3, "score", "game 1: the scores sum to +10, not 0 (rows 2 to 3)"),
    ("rummikub_games",
     "date,game,player,score\n2026-01-02,1,Arjun,30\n2026-01-02,1,Dev,-30\n"
     "2026-01-02,2,Arjun,30\n2026-01-02,2,Charu,-30\n",
     4, "player", "game 2 has other players than its first game"),
]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("layout", "sheet", "row", "column", "message"), BAD_ROWS)
def test_a_bad_row_is_named_and_refuses_the_import(
    season_club, layout, sheet, row, column, message
):
    client = season_club.client("organiser")
    preview = client.post(f"{API}results/import/preview/", _body(layout, sheet), format="json")
    errors = preview.json()["errors"]
    assert [(e["row"], e["column"]) for e in errors] == [(row, column)], errors
    assert message in errors[0]["message"]
    refused = client.post(f"{API}results/import/", _body(layout, sheet), format="json")
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "import_rows_invalid")
    assert refused.json()["error"]["message"].startswith(f"row {row}: {column}: ")
    assert not Session.objects.exists()


@pytest.mark.django_db
def test_a_layout_takes_only_its_formats_presets(season_club):
    points = RulePreset.objects.get(club=None, key="points")
    international = RulePreset.objects.get(club=None, key="international")
    client = season_club.client("organiser")
    for layout, preset in (("pool_games", points), ("rummikub_games", international)):
        sheet = SEASONS[layout][0]
        answer = client.post(
            f"{API}results/import/preview/", _body(layout, sheet, preset=preset.pk), format="json"
        )
        assert answer.status_code == 400
        assert answer.json()["error"]["message"].startswith("preset: ")


@pytest.mark.django_db
def test_a_points_only_club_imports_no_money(season_club):
    season_club.club.points_only = True
    season_club.club.save()
    sheet = "date,player,place,money\n2026-01-02,Arjun,1,10\n2026-01-02,Dev,2,-10\n"
    errors = (
        season_club.client("organiser")
        .post(f"{API}results/import/preview/", _body("pool_games", sheet), format="json")
        .json()["errors"]
    )
    assert [(e["row"], e["column"]) for e in errors] == [(2, "money"), (3, "money")]


@pytest.mark.django_db
@pytest.mark.parametrize("layout", ["pool_games", "deals_games", "rummikub_games"])
def test_each_new_template_is_a_season_without_errors(layout, season_club):
    found = LAYOUTS[layout]
    sheet = result_sheet_read(content=template_csv(found), filename="t.csv", layout=found)
    preset = import_preset(club=season_club.club, preset_id=None, layout=layout)
    assert preset.format in found.formats
    plan = results_plan(club=season_club.club, sheet=sheet, preset=preset)
    assert plan.errors == [] and len(plan.nights) == 1
