"""The API of the import of past results: preview, confirm (202, then 200 for the same sheet),
status, cancel, and bad input answered 400 naming the field with nothing stored."""

from __future__ import annotations

import base64

import pytest

from scoring.models import Session
from standings.models import ResultImport
from tests.factories import PlayerFactory
from tests.standings.result_season import NIGHTS, PLAYERS, season_csv

API = "/api/v1/clubs/home/results/"


@pytest.fixture
def season_club(standing):
    for name in PLAYERS:
        PlayerFactory(club=standing.club, name=name)
    return standing


def _body(**extra):
    return {"layout": "points_deals", "filename": "season.csv",
            "file_base64": base64.b64encode(season_csv()).decode(), **extra}  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_preview_confirm_status_and_the_same_sheet_again(season_club):
    client = season_club.client("organiser")
    preview = client.post(f"{API}import/preview/", _body(), format="json")
    assert preview.status_code == 200, preview.json()
    assert preview.json()["nights"] == NIGHTS and preview.json()["deals"] == NIGHTS * 5
    assert preview.json()["errors"] == [] and preview.json()["imported_as"] is None
    assert not Session.objects.exists()
    confirmed = client.post(f"{API}import/", _body(), format="json")
    assert confirmed.status_code == 202, confirmed.json()
    import_id = confirmed.json()["id"]
    status = client.get(f"{API}imports/{import_id}/").json()
    assert (status["status"], status["written"], status["total"]) == ("done", 100, 100)
    again = client.post(f"{API}import/", _body(), format="json")
    assert (again.status_code, again.json()["id"]) == (200, import_id)
    assert (
        client.post(f"{API}import/preview/", _body(), format="json").json()["imported_as"]
        == import_id
    )
    refused = client.post(f"{API}imports/{import_id}/cancel/")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "import_finished")
    assert Session.objects.count() == NIGHTS


@pytest.mark.django_db
def test_rows_with_errors_are_listed_by_the_preview_and_refuse_the_confirm(season_club):
    client = season_club.client("organiser")
    text = "date,deal,player,outcome,points\n2026-01-02,1,Arjun,winner,\n2026-01-02,1,Zed,loser,5\n"
    preview = client.post(
        f"{API}import/preview/", {"layout": "points_deals", "text": text}, format="json"
    )
    assert preview.status_code == 200
    assert {"row": 3, "column": "player", "message": "'Zed' is not on the roster"} in (
        preview.json()["errors"]
    )
    assert preview.json()["unknown_names"][0]["name"] == "Zed"
    refused = client.post(f"{API}import/", {"layout": "points_deals", "text": text}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "import_rows_invalid"
    assert not ResultImport.objects.exists() and not Session.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"layout": "nope", "text": "x"}, "layout"),
        ({"layout": "points_deals", "file_base64": "%%%"}, "file_base64"),
        ({"layout": "points_deals", "text": "name\nArjun\n"}, "file"),
        ({"layout": "points_deals", "text": "date,deal,player,outcome\n", "preset": 999999},
         "preset"),
    ],
)  # fmt: skip
def test_bad_input_is_a_400_naming_the_field(season_club, body, field):
    answer = season_club.client("organiser").post(f"{API}import/preview/", body, format="json")
    assert answer.status_code == 400, answer.json()
    assert field in answer.json()["error"]["message"] or field in str(answer.json())


@pytest.mark.django_db
def test_only_an_organiser_imports(season_club):
    answer = season_club.client("scorer").post(f"{API}import/preview/", _body(), format="json")
    assert answer.status_code == 403
