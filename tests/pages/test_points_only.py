"""A club that plays for points only shows no money anywhere: every page of the club (each URL
of the project that names a club, walked by its pattern), the night's CSV and every API answer
of the club, after a night played for money, a finished tournament with fees and prizes and a
player's UPI id (all from before the club switched), carry no currency symbol or code, no money
figure and no payment link. Money put in is refused, naming the field; the settle-up is in
points."""

from __future__ import annotations

import csv
import io
import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from clubs.models import Membership, Player
from clubs.page_kit.display import CURRENCY_SYMBOLS
from clubs.services import club_update, player_update
from config.errors import Conflict, InvalidInput
from config.money import is_money_field
from scoring import figures, nights, table_links
from scoring.club_settings import preset_create
from scoring.games import game_create, table_create
from scoring.models import RulePreset, Session
from standings.models import ResultImport
from tests.pages.conftest import Pages
from tests.reports.helpers import pdf_read
from tests.tournaments.helpers import enter, new_tournament, play_round
from tournaments.models import Entry, Tournament
from tournaments.services.setup import tournament_create, tournament_start
from webhooks.models import Delivery, Endpoint, Event

# What shows money on a page: a currency's symbol or code, a payment link; and words of money.
SYMBOLS = sorted({symbol.strip() for symbol in CURRENCY_SYMBOLS.values()}, key=len, reverse=True)
MONEY_ON_A_PAGE = re.compile(
    "|".join([*(re.escape(s) for s in SYMBOLS if not s.isalpha()), r"\bINR\b", "upi://",
              "farid.k@okhdfc", "pay.example", r"\bprize", r"\bfees?\b", r"\bpurse\b",
              r"\bmoney\b", r"\bpot\b", "Pay ·"]),
    re.IGNORECASE,
)  # fmt: skip
# Words that may stay: the setting's own label and hint, on the settings page only.
SETTING_WORDS = re.compile(r"Play for points only; no money shown|<p class=\"hint\" id=\"club-poi"
                           r"nts-only-hint\">[^<]*</p>")  # fmt: skip


@dataclass
class World:
    pages: Pages
    ids: dict[str, Any]


def _routes() -> list[tuple[str, str]]:
    """Every URL pattern of the project that names a club (pages and API) or a table link's
    token (a table's own page), as a path template."""
    found: list[tuple[str, str]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                if "<slug:club_slug>" in route or "<str:token>" in route:
                    found.append((pattern.name or route, "/" + route))

    walk(get_resolver().url_patterns, "")
    return found


def _world(pages: Pages) -> World:
    """A night played for money, a finished tournament with fees and prizes, a table link, a
    webhook and Farid's UPI id and payment link; then the club switches to points only."""
    s = pages.s
    deal, submission = pages.play_deal()
    player_update(
        player=pages.night.players["Farid"], actor=s.organiser, actor_role="organiser",
        upi_id="farid.k@okhdfc", payment_link="https://pay.example/farid",
    )  # fmt: skip
    club_update(club=s.club, actor=s.owner, public_standings=True, table_entry="confirm")
    cup = new_tournament(s, table_max=3, advance_per_table=1, entry_fee_minor=50_000,
                         club_fee_minor=5_000, payout="seventy_thirty")  # fmt: skip
    enter(s, cup, list(pages.night.players.values()))
    tournament_start(tournament=cup, actor=s.organiser)
    rng = random.Random(3)
    for _ in range(6):
        cup.refresh_from_db()
        if cup.status != Tournament.Status.RUNNING:
            break
        play_round(s, cup, rng)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    link = table_links.table_links_ensure(
        tables=[pages.night.game.table], actor=s.organiser, mode="confirm"
    )[0]
    endpoint = Endpoint.objects.create(club=s.club, url="http://127.0.0.1:9/h", secret="s" * 32)
    event = Event.objects.create(club=s.club, name="ping")
    delivery = Delivery.objects.create(endpoint=endpoint, event=event, status="delivered")
    club_update(club=s.club, actor=s.owner, points_only=True)
    ids = {
        "club_slug": s.club.slug, "player_id": pages.night.pid("Farid"),
        "session_id": pages.night.session.pk, "game_id": pages.night.game.pk,
        "table_id": pages.night.game.table_id, "deal_id": deal.pk,
        "submission_id": submission.pk, "tournament_id": cup.pk, "number": 1,
        "entry_id": Entry.objects.filter(tournament=cup).first().pk, "link_id": link.pk,
        "endpoint_id": endpoint.pk, "delivery_id": delivery.pk,
        "membership_id": Membership.objects.get(club=s.club, user=s.player).pk,
        "invitation_id": 0, "token": table_links.link_token(link),
        "import_id": ResultImport.objects.create(
            club=s.club, fingerprint="f" * 64, layout="points_deals", plan={"nights": []},
            status="done", preset=RulePreset.objects.get(club=None, key="points"),
        ).pk,
        "layout": "points_deals", "extension": "csv",
        # A series holds places and points, no money; its pages answer 404 for an unknown one.
        "series_id": 0, "event_id": 0,
        # A club's federation routes are writes (a GET answers 405); no money in them.
        "federation_slug": "none",
    }  # fmt: skip
    return World(pages, ids)


def _path(template: str, ids: dict[str, Any]) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(ids[m.group(1)]), template)


def _money_in_json(data: Any, where: str = "") -> list[str]:
    """Where a money field carries a value, or a money word sits in a value."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            if is_money_field(str(key)) and value is not None:
                found.append(f"{where}.{key}={value!r}")
            found += _money_in_json(value, f"{where}.{key}")
    elif isinstance(data, list):
        for index, item in enumerate(data):
            found += _money_in_json(item, f"{where}[{index}]")
    elif isinstance(data, str) and MONEY_ON_A_PAGE.search(data):
        found.append(f"{where}={data!r}")
    return found


def test_no_page_csv_or_api_answer_of_a_points_only_club_shows_money(pages: Pages):
    world = _world(pages)
    page_client = pages.client("owner")
    api = APIClient()
    api.force_authenticate(pages.s.owner)
    shown = {"page": 0, "api": 0, "csv": 0, "pdf": 0, "image": 0}
    leaks = []
    for name, template in _routes():
        path = _path(template, world.ids)
        is_api = path.startswith("/api/")
        response = (api if is_api else page_client).get(path)
        assert response.status_code < 500, (name, path, response.status_code)
        if response.status_code != 200:
            continue  # a write's URL (405), a redirect, an unknown invitation
        content_type = response["Content-Type"]
        # The club's stream carries change numbers only; it is not read (nor closed: closing it
        # ends the request, which closes the test's database connection).
        if content_type == "text/event-stream":
            continue
        if content_type == "application/pdf":  # a report, through the page or the API
            shown["pdf"] += 1
            leaks += [f"{path}: {m.group(0)!r}" for m in MONEY_ON_A_PAGE.finditer(
                pdf_read(response.content)[1])][:3]  # fmt: skip
            continue
        # The club's archive is its data whole (docs/archive.md), money kept as stored: a
        # backup and a move to another server, not a page; the owner's download.
        if content_type.startswith("application/jsonl"):
            continue
        if content_type == "image/png":  # the standings image: drawn from the checked cards
            shown["image"] += 1
            assert response.content.startswith(b"\x89PNG"), path
            continue
        kind = "api" if is_api else ("csv" if path.endswith(".csv") else "page")
        shown[kind] += 1
        if is_api:
            leaks += [f"{path} {leak}" for leak in _money_in_json(response.json())]
            continue
        body = SETTING_WORDS.sub("", response.content.decode())
        body = re.sub(r"<script\b.*?</script>", "", body, flags=re.S)  # code, not text shown
        leaks += [f"{path}: {m.group(0)!r} in …{body[max(0, m.start() - 80) : m.end() + 40]!r}"
                  for m in MONEY_ON_A_PAGE.finditer(body)][:3]  # fmt: skip
    assert leaks == [], "\n".join(leaks)
    # The walk reached the club's pages, its CSVs (the night's export, the results import's
    # template) and its API, not a handful of them.
    assert shown["page"] >= 25 and shown["api"] >= 30 and shown["csv"] == 2, shown
    # The reports of the night and the tournament (pages, API, public page), the game's score
    # sheet (page, API), and the standings images (pages, public page, API).
    assert shown["pdf"] == 7 and shown["image"] == 5, shown


def test_the_settle_up_of_a_points_only_club_is_in_points_on_the_page_csv_and_api(pages: Pages):
    world = _world(pages)
    session = Session.objects.select_related("club").get(pk=pages.night.session.pk)
    transfers = figures.session_settle_up(session=session)
    # Farid won 154 rummy points of the five losers (31 + 23 + 20 + 40 + 40).
    assert sorted((t.payer, t.payee, t.points) for t in transfers) == [
        ("Asha", "Farid", 31), ("Bilal", "Farid", 23), ("Chitra", "Farid", 20),
        ("Dev", "Farid", 40), ("Esther", "Farid", 40),
    ]  # fmt: skip
    assert all(t.amount_minor is None and t.pay.upi_uri is None for t in transfers)
    page = pages.client("player").get(f"/clubs/home/sessions/{session.pk}/").content.decode()
    assert re.search(r"Asha</strong> <span>gives</span> <strong>Farid</strong> <span class=\"a"
                     r"mount\">31 rummy points", page)  # fmt: skip
    assert "Mark paid" not in pages.client("owner").get(f"/clubs/home/sessions/{session.pk}/")
    rows = list(csv.reader(io.StringIO(
        pages.client("player").get(f"/clubs/home/sessions/{session.pk}/export.csv")
        .content.decode()
    )))  # fmt: skip
    settle = rows.index(["settle-up"])
    assert rows[settle + 1] == ["payer", "payee", "points", "unit"]
    assert ["Asha", "Farid", "31", "rummy points"] in rows[settle + 2 :]
    api = pages.s.client("player").get(f"/api/v1/clubs/home/sessions/{session.pk}/settlement/")
    body = api.json()
    assert body["currency"] is None
    asha = next(t for t in body["transfers"] if t["payer"] == "Asha")
    assert asha["points"] == 31 and asha["game_format"] == "points"
    assert asha["amount_minor"] is None and asha["upi_uri"] is None
    assert world.ids["session_id"] == session.pk


def test_money_put_into_a_points_only_club_is_refused_naming_the_field(pages: Pages):
    s = pages.s
    club_update(club=s.club, actor=s.owner, points_only=True)
    s.club.refresh_from_db()
    table = table_create(session=pages.night.session, actor=s.organiser)
    preset = RulePreset.objects.get(club=None, key="points")
    players = list(pages.night.players.values())[:2]
    with pytest.raises(InvalidInput) as refused:
        game_create(table=table, actor=s.organiser, preset=preset, players=players,
                    point_value_minor=400)  # fmt: skip
    assert refused.value.message.startswith("point_value_minor: Home Club plays for points only")
    # Without a point value, the game plays for none, whatever its preset says.
    pool = RulePreset.objects.get(club=None, key="pool-101")
    game = game_create(table=table, actor=s.organiser, preset=pool, players=players)
    assert (game.point_value_minor, game.entry_fee_minor) == (0, 0)
    with pytest.raises(InvalidInput) as refused:
        preset_create(club=s.club, actor=s.owner, key="stake", name="Stake", format="points",
                      variant="indian", params={"table": {"point_value_minor": 100}})  # fmt: skip
    assert refused.value.message.startswith("point_value_minor: ")
    with pytest.raises(InvalidInput) as refused:
        tournament_create(club=s.club, actor=s.organiser, name="Cup", preset=preset,
                          entry_fee_minor=1000)  # fmt: skip
    assert refused.value.message.startswith("entry_fee_minor: ")
    assert not Tournament.objects.filter(name="Cup").exists()
    with pytest.raises(InvalidInput) as refused:
        player_update(player=players[0], actor=s.organiser, actor_role="organiser",
                      upi_id="asha@ybl")  # fmt: skip
    assert refused.value.message.startswith("upi_id: ")
    assert Player.objects.get(pk=players[0].pk).upi_id == ""
    with pytest.raises(Conflict):
        nights.transfer_mark_paid(session=pages.night.session, actor=s.organiser,
                                  payer="player:1", payee="player:2")  # fmt: skip
    # The pages' forms say the same, on the form.
    answer = pages.client("organiser").post(
        f"/clubs/home/tables/{table.pk}/games/new/",
        {"preset": preset.pk, "seat_1": players[0].pk, "seat_2": players[1].pk, "point_value": "4"},
    )
    said = answer.content.decode()
    assert answer.status_code == 400 and "plays for points only" in said, said[-3000:]


def test_the_owner_switches_points_only_on_the_settings_page_and_the_api(pages: Pages):
    answer = pages.client("owner").post(
        "/clubs/home/settings/club/",
        {"name": "Home Club", "currency": "INR", "timezone": "UTC", "points_only": "on",
         "table_entry": "off"},
    )  # fmt: skip
    assert answer.status_code == 302
    pages.s.club.refresh_from_db()
    assert pages.s.club.points_only
    api = pages.s.client("owner")
    club = api.get("/api/v1/clubs/home/").json()
    assert club["points_only"] is True and club["currency"] is None
    back = api.patch("/api/v1/clubs/home/", {"points_only": False}, format="json").json()
    assert back["points_only"] is False and back["currency"] == "INR"
    assert Client().get("/clubs/home/").status_code == 302  # still a members' page
