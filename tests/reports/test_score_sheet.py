"""A game's printable score sheet, one per format (points, pool, deals, Rummikub): through the
game page's link and the API, one landscape page with the players' columns, the format's own
outcomes and rules, and the table's link as its QR code while the game is open; in the club's
language."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from clubs.services import club_update
from reports.sheet import SHEET_ROWS
from scoring.formats import handler_for
from scoring.models import Game
from scoring.preset_rules import game_rules
from scoring.table_links import link_path, table_links_ensure
from tests.conftest import Standing
from tests.reports.helpers import pdf_read
from tests.scoring.helpers import new_game

NAMES = ["Asha", "Bilal", "Chitra"]


def _page(standing: Standing, who: str) -> Client:
    client = Client()
    client.force_login(getattr(standing, who))
    return client


@pytest.mark.parametrize("preset", ["points", "pool-101", "deals-3", "international"])
def test_a_score_sheet_of_each_format_with_the_tables_qr_link(standing: Standing, preset: str):
    game, _ = new_game(standing, preset, NAMES)
    (link,) = table_links_ensure(tables=[game.table], actor=standing.organiser, mode="confirm")
    page = _page(standing, "player").get(f"/clubs/home/games/{game.pk}/")
    sheet_url = f"/clubs/home/games/{game.pk}/sheet.pdf"
    assert f'href="{sheet_url}"' in page.content.decode()
    response = _page(standing, "player").get(sheet_url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'attachment; filename="home-game-{game.pk}-sheet.pdf"'
    )
    count, text = pdf_read(response.content)
    assert count == 1
    box = PdfReader(io.BytesIO(response.content)).pages[0].mediabox
    assert box.width > box.height  # landscape
    assert "Score sheet" in text and game.get_format_display() in text
    assert all(name in text for name in NAMES)
    assert f"{SHEET_ROWS} " in text and "Total" in text
    preview = handler_for(game).preset_preview(rules=game_rules(game.preset))
    for outcome in preview.outcomes:
        assert f"{outcome.label}: {outcome.points}" in text, (outcome, text)
    if preview.summary:
        assert " ".join(preview.summary.split()) in text
    assert f"http://testserver{link_path(link)}" in text.replace(" ", "")
    api = standing.client("scorer").get(f"/api/v1/clubs/home/games/{game.pk}/sheet.pdf")
    assert api.status_code == 200 and api["Content-Type"] == "application/pdf"
    assert pdf_read(api.content)[1].replace(" ", "") == text.replace(" ", "")


def test_a_finished_games_sheet_has_no_link_and_the_clubs_language(standing: Standing):
    game, _ = new_game(standing, "points", NAMES)
    table_links_ensure(tables=[game.table], actor=standing.organiser, mode="confirm")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    club_update(club=standing.club, actor=standing.owner, language="de")
    _, text = pdf_read(
        _page(standing, "player").get(f"/clubs/home/games/{game.pk}/sheet.pdf").content
    )
    assert "Punktezettel" in text and "Summe" in text and "/t/" not in text


def test_a_sheet_in_the_api_is_for_scorers_and_a_strangers_game_is_not_found(standing: Standing):
    game, _ = new_game(standing, "points", NAMES)
    path = f"/api/v1/clubs/home/games/{game.pk}/sheet.pdf"
    assert standing.client("player").get(path).status_code == 403
    missing = standing.client("scorer").get("/api/v1/clubs/home/games/999999/sheet.pdf")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert (
        _page(standing, "outsider").get(f"/clubs/home/games/{game.pk}/sheet.pdf").status_code == 404
    )
