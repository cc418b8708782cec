"""A night's and a tournament's PDF report, downloaded through the pages and the API: pages
counted, text extracted and checked against the figures the pages show; their share text and
standings image; no money in a club that plays for points only."""

from __future__ import annotations

import io

from PIL import Image
from rest_framework.test import APIClient

from clubs.page_kit.display import signed_number
from clubs.services import club_update
from config.locale_format import format_money
from scoring import figures, nights
from scoring.models import Session
from tests.pages.conftest import Pages
from tests.reports.helpers import finished_cup, pdf_read


def _api(pages: Pages, who: str = "player") -> APIClient:
    api = APIClient()
    api.force_authenticate(getattr(pages.s, who))
    return api


def _night_paid(pages: Pages) -> Session:
    """Two deals counted, the first transfer of the settle-up marked paid."""
    pages.play_deal()
    pages.play_deal()
    session = Session.objects.select_related("club").get(pk=pages.night.session.pk)
    first = figures.session_settlement(session=session)[0]
    nights.transfer_mark_paid(
        session=session, actor=pages.s.organiser, payer=first.payer_key, payee=first.payee_key
    )
    return session


def _check_night_pdf(body: bytes, shown: dict, marker: str) -> None:
    count, text = pdf_read(body)
    assert count >= 1 and f"Page {count} of {count}" in text
    for row in shown["lines"]:
        assert row["line"].name in text
        for cell in row["cells"]:
            assert cell["text"] in text, (cell["text"], text)
        assert f"{row['line'].deals_played} ({row['line'].deals_won})" in text
    assert f"{shown['board'].deals_counted} deals counted" in text
    for transfer in shown["transfers"]:
        line = transfer["transfer"]
        assert f"{line.payer} {line.payee} {transfer['amount']}" in text, text
    assert text.count("✓ Paid") == 1 and f"marked by {marker}" in text
    # Every deal: both deals of the game, each player's points in it, Farid the winner.
    deals = " ".join(f"{n} −31 −23 −20 −40 −40 +154 Farid" for n in (1, 2))
    assert deals in text, text


def test_a_nights_pdf_through_the_page_and_the_api_shows_the_pages_figures(pages: Pages):
    session = _night_paid(pages)
    path = f"/clubs/{pages.slug}/sessions/{session.pk}/"
    page = pages.client("player").get(path)
    assert page.status_code == 200
    assert f'href="{path}report.pdf"' in page.content.decode()
    shown = page.context
    assert len(shown["lines"]) == 6 and shown["transfers"]
    downloaded = pages.client("player").get(f"{path}report.pdf")
    assert downloaded.status_code == 200 and downloaded["Content-Type"] == "application/pdf"
    assert downloaded["Content-Disposition"].startswith("attachment;")
    marker = pages.s.organiser.get_username()
    _check_night_pdf(downloaded.content, shown, marker)
    answer = _api(pages).get(f"/api/v1{path}report.pdf", HTTP_ACCEPT="application/pdf")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    _check_night_pdf(answer.content, shown, marker)


def test_a_tournaments_pdf_through_the_desk_the_public_page_and_the_api(pages: Pages):
    cup = finished_cup(pages)
    club_update(club=pages.s.club, actor=pages.s.owner, public_standings=True)
    desk = pages.client("player").get(f"/clubs/{pages.slug}/tournaments/{cup.pk}/")
    places, pool = desk.context["places"], desk.context["prize_pool"]
    assert len(places) == 6 and any(p["won"] for p in places)
    paths = [
        (pages.client("player"), f"/clubs/{pages.slug}/tournaments/{cup.pk}/report.pdf"),
        (pages.client("anonymous"), f"/p/{pages.slug}/tournaments/{cup.pk}/report.pdf"),
        (_api(pages), f"/api/v1/clubs/{pages.slug}/tournaments/{cup.pk}/report.pdf"),
    ]
    for client, path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Content-Type"] == "application/pdf"
        count, text = pdf_read(response.content)
        assert f"Page {count} of {count}" in text
        assert f"Prize pool: {pool}" in text
        for place in places:
            tied = " (tied)" if place["tied"] else ""
            prize = f" {place['prize']}" if place["won"] else ""
            row = f"{place['place']}{tied} {place['name']}{prize}"
            assert row in text, (row, text)
        rounds = cup.round_set.count()
        assert all(f"Round {n}" in text for n in range(1, rounds + 1))
        assert all(name in text for name in pages.night.players)


def test_share_text_and_standings_image_of_a_night_and_a_tournament(pages: Pages):
    session = _night_paid(pages)
    cup = finished_cup(pages)
    club_update(club=pages.s.club, actor=pages.s.owner, public_standings=True)
    client = pages.client("player")
    night = client.get(f"/clubs/{pages.slug}/sessions/{session.pk}/share.txt")
    assert night["Content-Type"] == "text/plain; charset=utf-8"
    board = client.get(f"/clubs/{pages.slug}/sessions/{session.pk}/").context
    first = board["lines"][0]
    assert f"1. {first['line'].name}  {first['cells'][0]['text']}" in night.content.decode()
    shared = client.get(f"/clubs/{pages.slug}/tournaments/{cup.pk}/share.txt").content.decode()
    places = client.get(f"/clubs/{pages.slug}/tournaments/{cup.pk}/").context["places"]
    assert f"1. {places[0]['name']}  {places[0]['prize']}" in shared
    assert f"http://testserver/p/{pages.slug}/tournaments/{cup.pk}/" in shared
    for path in (
        f"/clubs/{pages.slug}/sessions/{session.pk}/standings.png",
        f"/clubs/{pages.slug}/tournaments/{cup.pk}/standings.png",
        f"/p/{pages.slug}/tournaments/{cup.pk}/standings.png",
    ):
        response = pages.client("anonymous" if path.startswith("/p/") else "player").get(path)
        assert response.status_code == 200 and response["Content-Type"] == "image/png", path
        image = Image.open(io.BytesIO(response.content))
        assert image.format == "PNG" and image.size[0] == 960 and image.size[1] > 300


def test_a_points_only_clubs_reports_show_no_money(pages: Pages):
    session = _night_paid(pages)
    cup = finished_cup(pages)
    club_update(club=pages.s.club, actor=pages.s.owner, points_only=True)
    for path in (
        f"/clubs/{pages.slug}/sessions/{session.pk}/report.pdf",
        f"/clubs/{pages.slug}/tournaments/{cup.pk}/report.pdf",
    ):
        _, text = pdf_read(pages.client("player").get(path).content)
        for word in ("₹", "INR", "Prize", "prize", "fee", "Paid"):
            assert word not in text, (path, word, text)
        assert "Farid" in text
    shared = pages.client("player").get(f"/clubs/{pages.slug}/tournaments/{cup.pk}/share.txt")
    assert "₹" not in shared.content.decode()


def test_a_report_of_another_clubs_night_is_not_found(pages: Pages):
    response = _api(pages).get(f"/api/v1/clubs/{pages.slug}/sessions/999999/report.pdf")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert (
        pages.client("outsider")
        .get(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/report.pdf")
        .status_code
        == 404
    )


def _figure(api_line: dict, column: dict, currency: str) -> str:
    """A scoreboard line's figure of a column, written as the share text writes it, from the
    API's own numbers."""
    if column["quantity"] == "money":
        return format_money(api_line["money_minor"], currency, 2, signed=True)
    value = api_line["chips"] if column["quantity"] == "chips" else None
    if value is None:
        value = api_line["points_by_format"][column["key"]]
    return f"{signed_number(value)} {column['unit']}"


def _described(body: bytes) -> str:
    image = Image.open(io.BytesIO(body))
    assert image.format == "PNG" and image.size[0] == 960 and image.size[1] > 300
    return str(image.text["Description"])


def test_share_text_and_image_in_the_api_say_the_figures_of_the_other_reads(pages: Pages):
    session = _night_paid(pages)
    cup = finished_cup(pages)
    api = _api(pages)
    night = f"/api/v1/clubs/{pages.slug}/sessions/{session.pk}/"
    board = api.get(f"{night}scoreboard/").json()
    shared = api.get(f"{night}share/")
    assert shared.status_code == 200, shared.content
    text = shared.json()["text"]
    assert text.startswith(f"{pages.s.club.name} · {session.name}\n")
    assert f"\n{board['deals_counted']} deals, so far\n" in text  # the night is still open
    money = [c for c in board["columns"] if c["quantity"] == "money"]
    assert money, board["columns"]
    for rank, line in enumerate(board["lines"], start=1):
        figures_ = " · ".join(_figure(line, c, board["currency"]) for c in board["columns"])
        assert f"{rank}. {line['name']}  {figures_}\n" in text, (figures_, text)
    image = api.get(f"{night}standings.png", HTTP_ACCEPT="image/png")
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert _described(image.content) == text

    club_update(club=pages.s.club, actor=pages.s.owner, public_standings=True)
    one = f"/api/v1/clubs/{pages.slug}/tournaments/{cup.pk}/"
    detail = api.get(one).json()
    answer = api.get(f"{one}share/").json()
    assert answer["public_url"] == f"http://testserver/p/{pages.slug}/tournaments/{cup.pk}/"
    text = answer["text"]
    assert text.endswith(f"\n\n{answer['public_url']}\n")
    assert detail["places"] and any(p["prize_minor"] for p in detail["places"])
    for place in detail["places"]:
        prize = format_money(place["prize_minor"], board["currency"], 2)
        row = f"{place['place']}. {place['name']}" + (f"  {prize}" if place["prize_minor"] else "")
        assert f"{row}\n" in text, (row, text)
    image = api.get(f"{one}standings.png")
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert _described(image.content) + f"\n{answer['public_url']}\n" == text
    for missing in ("sessions/999999/share/", "tournaments/999999/standings.png"):
        response = api.get(f"/api/v1/clubs/{pages.slug}/{missing}")
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
