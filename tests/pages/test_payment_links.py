"""Payment links on the settle-up: a player's UPI id and payment link, kept by the player or an
organiser (page and API), checked for shape; each unpaid transfer to them offers a Pay link and
a QR code on the night's page and in the API, the UPI one in rupee clubs only."""

from __future__ import annotations

import html
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from clubs.models import Player
from clubs.payments import upi_pay_uri
from clubs.services import player_update
from config.errors import InvalidInput, NotAllowed
from scoring import figures, nights
from tests.pages.conftest import Pages
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.models import Tournament
from tournaments.services.setup import tournament_start

API = "/api/v1/clubs/home"


def _farid_pays_by(pages: Pages, upi_id: str = "farid.k@okhdfc", link: str = "") -> Player:
    farid = pages.night.players["Farid"]
    return player_update(
        player=farid, actor=pages.s.organiser, actor_role="organiser",
        upi_id=upi_id, payment_link=link,
    )  # fmt: skip


def test_the_upi_link_names_payee_amount_and_night_url_encoded():
    uri = upi_pay_uri(
        upi_id="farid.k@okhdfc", payee_name="Farid Khan", amount_minor=12_405,
        note="Home & Away: Friday #3",
    )  # fmt: skip
    assert uri == (
        "upi://pay?pa=farid.k@okhdfc&pn=Farid%20Khan&am=124.05&cu=INR"
        "&tn=Home%20%26%20Away%3A%20Friday%20%233"
    )
    parts = parse_qs(urlsplit(uri).query)
    assert parts["tn"] == ["Home & Away: Friday #3"] and parts["am"] == ["124.05"]
    assert upi_pay_uri(upi_id="a1@b", payee_name="X", amount_minor=7, note="n").count("am=0.07")


@pytest.mark.parametrize(
    "upi_id",
    ["farid", "f@okhdfc", "farid@", "@okhdfc", "farid k@okhdfc", "farid@ok.hdfc", "a@b@c",
     "x" * 257 + "@okhdfc"],
)  # fmt: skip
def test_a_malformed_upi_id_is_refused_naming_the_field_and_nothing_is_stored(
    pages: Pages, upi_id: str
):
    with pytest.raises(InvalidInput) as refused:
        _farid_pays_by(pages, upi_id=upi_id)
    assert (
        refused.value.message.startswith("upi_id: ") and "is not a UPI id" in refused.value.message
    )
    assert Player.objects.get(pk=pages.night.pid("Farid")).upi_id == ""


@pytest.mark.parametrize("upi_id", ["fk@okhdfc", "farid.k-2_x@ybl", "9876543210@paytm"])
def test_a_well_formed_upi_id_is_kept(pages: Pages, upi_id: str):
    assert _farid_pays_by(pages, upi_id=f"  {upi_id} ").upi_id == upi_id


@pytest.mark.parametrize("link", ["http://pay.example.com/farid", "javascript:alert(1)", "pay.me"])
def test_a_payment_link_must_be_https(pages: Pages, link: str):
    with pytest.raises(InvalidInput) as refused:
        _farid_pays_by(pages, upi_id="", link=link)
    assert (
        refused.value.message.startswith("payment_link: ") and "https://" in refused.value.message
    )
    assert Player.objects.get(pk=pages.night.pid("Farid")).payment_link == ""


def test_each_unpaid_transfer_to_a_player_with_a_upi_id_offers_pay_and_a_qr_code(pages: Pages):
    pages.play_deal()
    _farid_pays_by(pages, link="https://pay.example.com/farid?x=1")
    session = pages.night.session
    transfers = figures.session_settlement(session=session)
    assert len(transfers) == 5 and {t.payee for t in transfers} == {"Farid"}
    asha = next(t for t in transfers if t.payer == "Asha")
    nights.transfer_mark_paid(
        session=session, actor=pages.s.organiser, payer=asha.payer_key, payee=asha.payee_key,
        paid=True,
    )  # fmt: skip
    body = pages.client("player").get(f"/clubs/home/sessions/{session.pk}/").content.decode()
    links = [
        html.unescape(href) for href in re.findall(r'href="(upi://[^"]+)" data-pay="upi"', body)
    ]
    # Four unpaid payers see a Pay link and its QR code; Asha's paid line stays as it was.
    assert sorted(parse_qs(urlsplit(u).query)["am"][0] for u in links) == sorted(
        f"{t.amount_minor // 100}.{t.amount_minor % 100:02d}" for t in transfers if t is not asha
    )
    for uri in links:
        query = parse_qs(urlsplit(uri).query)
        assert query["pa"] == ["farid.k@okhdfc"] and query["pn"] == ["Farid"]
        assert query["cu"] == ["INR"] and query["tn"] == ["Home Club: Friday"]
    assert body.count('class="qr"') == 4 and body.count('data-pay="link"') == 4
    assert "https://pay.example.com/farid?x=1" in html.unescape(body)


def test_the_api_gives_each_transfer_the_payees_links_or_null(pages: Pages):
    pages.play_deal()
    _farid_pays_by(pages)
    answer = pages.s.client("player").get(f"{API}/sessions/{pages.night.session.pk}/settlement/")
    assert answer.status_code == 200
    for item in answer.json()["transfers"]:
        assert item["upi_uri"].startswith("upi://pay?pa=farid.k@okhdfc&pn=Farid&am=")
        assert item["payment_link"] is None


def test_a_club_in_another_currency_offers_the_payment_link_only(pages: Pages):
    club = pages.s.club
    club.currency = "EUR"
    club.save()
    pages.play_deal()
    _farid_pays_by(pages, link="https://pay.example.com/farid")
    transfers = figures.session_settlement(session=pages.night.session)
    assert transfers and all(t.pay.upi_uri is None for t in transfers)
    assert {t.pay.payment_link for t in transfers} == {"https://pay.example.com/farid"}
    body = pages.client("player").get(f"/clubs/home/sessions/{pages.night.session.pk}/")
    assert "upi://" not in body.content.decode()


def test_a_player_sets_their_own_payment_details_but_no_one_elses(pages: Pages):
    farid = pages.night.players["Farid"]
    farid.user = pages.s.player
    farid.save()
    mine = pages.s.client("player").patch(
        f"{API}/players/{farid.pk}/", {"upi_id": "farid.k@okhdfc"}, format="json"
    )
    assert mine.status_code == 200 and mine.json()["upi_id"] == "farid.k@okhdfc"
    asha = pages.night.pid("Asha")
    other = pages.s.client("player").patch(
        f"{API}/players/{asha}/", {"upi_id": "me@okhdfc"}, format="json"
    )
    assert other.status_code == 403 and Player.objects.get(pk=asha).upi_id == ""
    rename = pages.s.client("player").patch(
        f"{API}/players/{farid.pk}/", {"name": "Farid K"}, format="json"
    )
    assert rename.status_code == 403 and Player.objects.get(pk=farid.pk).name == "Farid"
    with pytest.raises(NotAllowed):
        player_update(player=farid, actor=pages.s.scorer, actor_role="scorer", upi_id="s@ybl")


def test_the_api_refuses_a_bad_upi_id_in_the_one_error_shape(pages: Pages):
    asha = pages.night.pid("Asha")
    answer = pages.s.client("organiser").patch(
        f"{API}/players/{asha}/", {"upi_id": "asha at okhdfc"}, format="json"
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["message"].startswith("upi_id: ") and "upi_id" in error["details"]
    assert Player.objects.get(pk=asha).upi_id == ""


def test_the_player_page_form_keeps_and_refuses_payment_details(pages: Pages):
    farid = pages.night.players["Farid"]
    farid.user = pages.s.player
    farid.save()
    url = f"/clubs/home/players/{farid.pk}/payment/"
    page = pages.client("player").get(f"/clubs/home/players/{farid.pk}/").content.decode()
    assert 'id="player-upi"' in page and 'for="player-upi"' in page
    refused = pages.client("player").post(url, {"upi_id": "farid", "payment_link": ""})
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "is not a UPI id" in html.unescape(body) and 'aria-invalid="true"' in body
    assert Player.objects.get(pk=farid.pk).upi_id == ""
    saved = pages.client("player").post(url, {"upi_id": "farid@ybl", "payment_link": ""})
    assert saved.status_code == 302 and Player.objects.get(pk=farid.pk).upi_id == "farid@ybl"
    asha = pages.night.pid("Asha")
    assert (
        'id="player-upi"'
        not in pages.client("player").get(f"/clubs/home/players/{asha}/").content.decode()
    )
    other = pages.client("player").post(
        f"/clubs/home/players/{asha}/payment/", {"upi_id": "me@ybl", "payment_link": ""}
    )
    assert other.status_code == 403 and Player.objects.get(pk=asha).upi_id == ""
    by_organiser = pages.client("organiser").post(
        f"/clubs/home/players/{asha}/payment/", {"upi_id": "asha@ybl", "payment_link": ""}
    )
    assert by_organiser.status_code == 302 and Player.objects.get(pk=asha).upi_id == "asha@ybl"


def test_the_tournament_desk_offers_each_prize_winner_pay_links(standing):
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000, payout="seventy_thirty")
    enter(standing, cup, roster(standing, 8))
    tournament_start(tournament=cup, actor=standing.organiser)
    rng = random.Random(2)
    for _ in range(5):
        cup.refresh_from_db()
        if cup.status != Tournament.Status.RUNNING:
            break
        play_round(standing, cup, rng)
    cup.refresh_from_db()
    api = standing.client("player").get(f"/api/v1/clubs/home/tournaments/{cup.pk}/").json()
    first = max(api["places"], key=lambda line: line["prize_minor"])
    winner = Player.objects.get(pk=first["player"])
    player_update(
        player=winner, actor=standing.organiser, actor_role="organiser", upi_id="winner@okaxis"
    )
    client = Client()
    client.force_login(standing.player)
    body = html.unescape(client.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode())
    prize = first["prize_minor"]
    assert prize > 0
    amount = f"{prize // 100}.{prize % 100:02d}"
    uri = upi_pay_uri(
        upi_id="winner@okaxis", payee_name=winner.name, amount_minor=prize,
        note=f"Home Club: {cup.name}",
    )  # fmt: skip
    assert f'href="{uri}" data-pay="upi"' in body and f"am={amount}" in uri
    assert 'id="tournament-settle-up"' in body and body.count('class="qr"') == 1
