"""Each page for each standing user: members read (players too), organisers and scorers write,
outsiders get 404 (a club's existence is not leaked), anonymous visitors go to the login page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.pages.conftest import Pages

WHO = ["owner", "organiser", "scorer", "player", "outsider", "anonymous"]


def _paths(p: Pages) -> dict[str, tuple[str, dict[str, int]]]:
    deal, _ = p.play_deal()
    n = p.night
    c = f"/clubs/{p.slug}"
    read = {"owner": 200, "organiser": 200, "scorer": 200, "player": 200}
    organise = {"owner": 200, "organiser": 200, "scorer": 403, "player": 403}
    score = {"owner": 200, "organiser": 200, "scorer": 200, "player": 403}
    own = {"owner": 200, "organiser": 403, "scorer": 403, "player": 403}
    asha = n.pid("Asha")
    cup = _tournament(p)
    t = f"{c}/tournaments/{cup.pk}"
    return {
        "club home": (f"{c}/", read),
        "all players": (f"{c}/players/?q=a", read),
        "import players": (f"{c}/players/import/", organise),
        "import results": (f"{c}/results/import/", organise),
        "results template": (f"{c}/results/import/points_deals.xlsx", organise),
        "result import status": (f"{c}/results/imports/{_result_import(p)}/", organise),
        "all nights": (f"{c}/sessions/?q=a&status=closed", read),
        "all members": (f"{c}/members/?q=o", read),
        "player page": (f"{c}/players/{asha}/", read),
        "session page": (f"{c}/sessions/{n.session.pk}/", read),
        "scoreboard fragment": (f"{c}/sessions/{n.session.pk}/scoreboard/", read),
        "csv export": (f"{c}/sessions/{n.session.pk}/export.csv", read),
        "night report": (f"{c}/sessions/{n.session.pk}/report.pdf", read),
        "night share text": (f"{c}/sessions/{n.session.pk}/share.txt", read),
        "night image": (f"{c}/sessions/{n.session.pk}/standings.png", read),
        "game page": (f"{c}/games/{n.game.pk}/", read),
        "score sheet": (f"{c}/games/{n.game.pk}/sheet.pdf", read),
        "deal page": (f"{c}/deals/{deal.pk}/", read),
        "deal fragment": (f"{c}/deals/{deal.pk}/live/", read),
        "new game form": (f"{c}/tables/{n.game.table_id}/games/new/", organise),
        "deal entry": (f"{c}/games/{n.game.pk}/deals/new/", score),
        "entry fragment": (f"{c}/games/{n.game.pk}/deals/live/", score),
        "correction form": (f"{c}/deals/{deal.pk}/result/", score),
        "club standings": (f"{c}/standings/", read),
        "club settings": (f"{c}/settings/", organise),
        "club archive": (f"{c}/settings/archive.jsonl", own),
        "tournaments": (f"{c}/tournaments/", read),
        "tournament desk": (f"{t}/", read),
        "tournament grid": (f"{t}/grid/", read),
        "table cards": (f"{t}/rounds/1/cards/", read),
        "tournament report": (f"{t}/report.pdf", read),
        "tournament share text": (f"{t}/share.txt", read),
        "tournament image": (f"{t}/standings.png", read),
        "night's table cards": (f"{c}/sessions/{n.session.pk}/table-cards/", score),
        "federations": (f"{c}/federations/", read),
        "club federation": (f"{c}/federations/{_federation(p)}/", read),
    }


def _federation(p: Pages) -> str:
    """A federation the club is a member of: its slug."""
    from datetime import date

    from federation import services as federation_services
    from federation.models import Federation
    from scoring.models import RulePreset
    from tests.factories import UserFactory

    if not Federation.objects.filter(slug="rf").exists():
        officer = UserFactory(username="rating-officer")
        federation = federation_services.federation_create(
            actor=officer, name="Rummy Federation", slug="rf",
            preset=RulePreset.objects.get(club=None, key="points"), starts_on=date(2026, 1, 1),
        )  # fmt: skip
        federation_services.club_invite(actor=officer, federation=federation, club=p.s.club)
        federation_services.club_answer(
            actor=p.s.owner, federation=federation, club=p.s.club, accept=True
        )
    return "rf"


def _result_import(p: Pages) -> int:
    """A finished import of past results, whose page shows how it went."""
    from scoring.models import RulePreset
    from standings.models import ResultImport

    preset = RulePreset.objects.get(club=None, key="points")
    done, _ = ResultImport.objects.get_or_create(
        club=p.s.club, fingerprint="f" * 64,
        defaults={"layout": "points_deals", "preset": preset, "plan": {"nights": []},
                  "status": "done"},
    )  # fmt: skip
    return done.pk


def _tournament(p: Pages) -> Any:
    """A knock-out of the night's six players, drawn."""
    from tests.tournaments.helpers import enter, new_tournament
    from tournaments.services.setup import tournament_start

    cup = new_tournament(p.s, table_max=3, advance_per_table=1)
    enter(p.s, cup, list(p.night.players.values()))
    tournament_start(tournament=cup, actor=p.s.organiser)
    return cup


PAGES = [
    "club home", "player page", "import players", "import results", "results template",
    "result import status", "session page", "scoreboard fragment",
    "csv export", "game page", "score sheet",
    "deal page", "deal fragment", "new game form", "deal entry", "entry fragment",
    "correction form",
    "club standings", "club settings", "club archive", "tournaments", "tournament desk",
    "tournament grid",
    "table cards", "night report", "night share text", "night image", "tournament report",
    "tournament share text", "tournament image", "federations", "club federation",
]  # fmt: skip


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("who", WHO)
def test_page_access(pages: Pages, page: str, who: str):
    path, expect = _paths(pages)[page]
    response = pages.client(who).get(path)
    if who == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith("/login/?next=")
    elif who == "outsider":
        assert response.status_code == 404
    else:
        assert response.status_code == expect[who], (page, who)


@dataclass
class Objects:
    """What the writes act on: real rows, so an allowed role is never answered "not found"."""

    deal: int
    submission: int
    membership: int
    invitation: int
    tournament: int
    entry: int
    spare: int
    webhook: int
    delivery: str
    link: int


def _objects(p: Pages) -> Objects:
    from clubs import services as club_services
    from clubs.models import Player, Role
    from scoring import table_links
    from webhooks.models import Delivery, Endpoint, Event

    deal, submission = p.play_deal()
    cup = _tournament(p)
    hook = Endpoint.objects.create(
        club=p.s.club, url="http://127.0.0.1:9/hook", events=["deal.scored"], secret="s" * 32
    )
    invitation, _ = club_services.invitation_create(
        club=p.s.club, actor=p.s.owner, actor_role=Role.OWNER, role=Role.PLAYER
    )
    return Objects(
        deal=deal.pk,
        submission=submission.pk,
        membership=p.s.club.memberships.get(user__username="player").pk,
        invitation=invitation.pk,
        tournament=cup.pk,
        entry=cup.entries.order_by("pk").first().pk,
        spare=Player.objects.create(club=p.s.club, name="Spare").pk,
        webhook=hook.pk,
        delivery=str(
            Delivery.objects.create(
                endpoint=hook,
                event=Event.objects.create(club=p.s.club, name="ping"),
                status="delivered",
            ).delivery_id
        ),
        link=table_links.table_links_ensure(
            tables=[p.night.game.table], actor=p.s.organiser, mode="confirm"
        )[0].pk,
    )


OWNER = ("owner",)
ORGANISER = ("owner", "organiser")
SCORER = ("owner", "organiser", "scorer")

# Every form a club page posts to, with the roles it is for: (name, path, data, allowed roles).
Data = dict[str, str] | Callable[[Pages, Objects], dict[str, str]]
WRITES: list[tuple[str, Callable[[Pages, Objects], str], Data, tuple[str, ...]]] = [
    ("player add", lambda p, o: f"/clubs/{p.slug}/players/add/", {"name": "Zed"}, ORGANISER),
    ("player rename", lambda p, o: f"/clubs/{p.slug}/players/{p.night.pid('Asha')}/rename/",
     {"name": "Asha K"}, ORGANISER),
    ("player retire", lambda p, o: f"/clubs/{p.slug}/players/{p.night.pid('Asha')}/retire/",
     {}, ORGANISER),
    # Asha's account is no one's here: only organisers keep her payment details.
    ("player details", lambda p, o: f"/clubs/{p.slug}/players/{p.night.pid('Asha')}/details/",
     {"nickname": "Ash", "email": "asha@example.com", "phone": "", "membership_number": ""},
     ORGANISER),
    ("player import preview", lambda p, o: f"/clubs/{p.slug}/players/import/",
     {"text": "Arjun, Bhavna", "preview": "1"}, ORGANISER),
    ("player payment", lambda p, o: f"/clubs/{p.slug}/players/{p.night.pid('Asha')}/payment/",
     {"upi_id": "asha@ybl", "payment_link": ""}, ORGANISER),
    ("player merge", lambda p, o: f"/clubs/{p.slug}/players/{p.night.pid('Asha')}/merge/",
     lambda p, o: {"into": str(p.night.pid("Bilal")), "confirm": "1"}, ORGANISER),
    ("member add", lambda p, o: f"/clubs/{p.slug}/members/add/",
     {"username": "outsider", "role": "player"}, ORGANISER),
    ("member invite", lambda p, o: f"/clubs/{p.slug}/members/invite/", {"role": "player"},
     ORGANISER),
    ("invitation revoke", lambda p, o: f"/clubs/{p.slug}/invitations/{o.invitation}/revoke/", {},
     ORGANISER),
    ("member role", lambda p, o: f"/clubs/{p.slug}/members/{o.membership}/role/",
     {"role": "scorer"}, ORGANISER),
    ("member remove", lambda p, o: f"/clubs/{p.slug}/members/{o.membership}/remove/", {},
     ORGANISER),
    ("session create", lambda p, o: f"/clubs/{p.slug}/sessions/new/", {"name": "Sat"}, ORGANISER),
    ("webhook add", lambda p, o: f"/clubs/{p.slug}/settings/webhooks/",
     {"url": "http://127.0.0.1:9/x", "events": "game.finished"}, ORGANISER),
    ("webhook enable", lambda p, o: f"/clubs/{p.slug}/settings/webhooks/{o.webhook}/enable/",
     {}, ORGANISER),
    ("webhook secret", lambda p, o: f"/clubs/{p.slug}/settings/webhooks/{o.webhook}/secret/",
     {}, ORGANISER),
    ("webhook delete", lambda p, o: f"/clubs/{p.slug}/settings/webhooks/{o.webhook}/delete/",
     {}, ORGANISER),
    ("webhook ping", lambda p, o: f"/clubs/{p.slug}/settings/webhooks/{o.webhook}/ping/", {},
     ORGANISER),
    ("webhook replay", lambda p, o: f"/clubs/{p.slug}/settings/webhooks/{o.webhook}/replay/",
     {"since": "2026-01-01T20:00"}, ORGANISER),
    ("results import", lambda p, o: f"/clubs/{p.slug}/results/import/", {}, ORGANISER),
    ("webhook redeliver", lambda p, o: f"/clubs/{p.slug}/settings/webhooks/{o.webhook}/"
     f"deliveries/{o.delivery}/redeliver/", {}, ORGANISER),
    ("metric order", lambda p, o: f"/clubs/{p.slug}/settings/standings-order/",
     {"metric_1": "points"}, ORGANISER),
    ("public standings", lambda p, o: f"/clubs/{p.slug}/settings/public/", {"public": "on"},
     OWNER),
    ("club details", lambda p, o: f"/clubs/{p.slug}/settings/club/", {"name": "Renamed"}, OWNER),
    ("preset new", lambda p, o: f"/clubs/{p.slug}/settings/presets/", {"name": "House"},
     ORGANISER),
    ("table create", lambda p, o: f"/clubs/{p.slug}/sessions/{p.night.session.pk}/tables/",
     {"name": "T9"}, ORGANISER),
    ("table delete", lambda p, o: f"/clubs/{p.slug}/sessions/{p.night.session.pk}/tables/"
     f"{p.night.game.table_id}/delete/", {}, ORGANISER),
    ("session close", lambda p, o: f"/clubs/{p.slug}/sessions/{p.night.session.pk}/close/", {},
     ORGANISER),
    ("session reopen", lambda p, o: f"/clubs/{p.slug}/sessions/{p.night.session.pk}/reopen/", {},
     ORGANISER),
    ("session delete", lambda p, o: f"/clubs/{p.slug}/sessions/{p.night.session.pk}/delete/", {},
     ORGANISER),
    ("transfer paid",
     lambda p, o: f"/clubs/{p.slug}/sessions/{p.night.session.pk}/transfers/paid/",
     {"payer": "club", "payee": "club"}, ORGANISER),
    ("game new", lambda p, o: f"/clubs/{p.slug}/tables/{p.night.game.table_id}/games/new/", {},
     ORGANISER),
    ("seat add", lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/seats/",
     lambda p, o: {"player": str(o.spare)}, ORGANISER),
    ("seat remove", lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/leave/",
     lambda p, o: {"player": str(p.night.pid("Asha"))}, ORGANISER),
    ("game delete", lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/delete/", {},
     ORGANISER),
    ("rejoin", lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/rejoin/",
     lambda p, o: {"player": str(p.night.pid("Asha"))}, ORGANISER),
    ("split", lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/split/", {"kind": "drops"},
     ORGANISER),
    ("finish", lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/finish/", {}, ORGANISER),
    ("deal new", lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/deals/new/", {}, SCORER),
    ("deal tiebreaker", lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/deals/tiebreaker/",
     {}, SCORER),
    ("deal result", lambda p, o: f"/clubs/{p.slug}/deals/{o.deal}/result/", {}, SCORER),
    ("deal check", lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/deals/new/check/", {},
     SCORER),
    ("tiebreaker check",
     lambda p, o: f"/clubs/{p.slug}/games/{p.night.game.pk}/deals/tiebreaker/check/", {}, SCORER),
    ("correction check", lambda p, o: f"/clubs/{p.slug}/deals/{o.deal}/result/check/", {},
     SCORER),
    ("deal void", lambda p, o: f"/clubs/{p.slug}/deals/{o.deal}/void/", {}, ORGANISER),
    ("deal delete", lambda p, o: f"/clubs/{p.slug}/deals/{o.deal}/delete/", {}, ORGANISER),
    ("submission confirm", lambda p, o: f"/clubs/{p.slug}/submissions/{o.submission}/confirm/",
     {}, SCORER),
    ("submission reject", lambda p, o: f"/clubs/{p.slug}/submissions/{o.submission}/reject/",
     {}, SCORER),
    ("table link", lambda p, o: f"/clubs/{p.slug}/tables/{p.night.game.table_id}/link/", {},
     SCORER),
    ("table link revoke", lambda p, o: f"/clubs/{p.slug}/table-links/{o.link}/revoke/", {},
     SCORER),
    ("night's table links",
     lambda p, o: f"/clubs/{p.slug}/sessions/{p.night.session.pk}/table-links/", {}, SCORER),
    ("tournament create", lambda p, o: f"/clubs/{p.slug}/tournaments/", {"name": "Cup"},
     ORGANISER),
    ("tournament entry", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/entries/",
     {"name": "Zed"}, ORGANISER),
    ("tournament check-in", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/entries/"
     f"{o.entry}/check-in/", {}, ORGANISER),
    ("tournament withdraw", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/entries/"
     f"{o.entry}/withdraw/", {}, ORGANISER),
    ("tournament reinstate", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/entries/"
     f"{o.entry}/reinstate/", {}, ORGANISER),
    ("tournament rebuy", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/entries/"
     f"{o.entry}/rebuy/", {}, ORGANISER),
    ("tournament fee refund", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/"
     f"entries/{o.entry}/unpaid/", {}, ORGANISER),
    ("tournament player link", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/"
     f"entries/{o.entry}/link/", {}, ORGANISER),
    ("tournament bulk", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/entries/bulk/",
     lambda p, o: {"action": "paid", "entry": str(o.entry)}, ORGANISER),
    ("tournament paste", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/entries/paste/",
     {"names": "Zed", "preview": "1"}, ORGANISER),
    ("tournament sign-up settings",
     lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/signup/", {"open": ""}, ORGANISER),
    ("tournament start", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/start/", {},
     ORGANISER),
    ("tournament release",
     lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/rounds/1/release/", {}, ORGANISER),
    ("tournament table links",
     lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/rounds/1/links/", {}, ORGANISER),
    ("tournament round clock",
     lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/rounds/1/clock/",
     {"minutes": "30"}, ORGANISER),
    ("tournament swap",
     lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/rounds/1/swap/",
     {"first": "1", "second": "2"}, ORGANISER),
    ("tournament unwind",
     lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/rounds/1/unwind/", {}, ORGANISER),
    ("tournament cancel", lambda p, o: f"/clubs/{p.slug}/tournaments/{o.tournament}/cancel/", {},
     ORGANISER),
    ("federation answer", lambda p, o: f"/clubs/{p.slug}/federations/{_federation(p)}/answer/",
     {"accept": "1"}, OWNER),
    ("federation sanction ask",
     lambda p, o: f"/clubs/{p.slug}/federations/{_federation(p)}/events/",
     lambda p, o: {"event": f"session:{p.night.session.pk}", "tier": "club"}, ORGANISER),
    ("federation event submit",
     lambda p, o: f"/clubs/{p.slug}/federations/{_federation(p)}/events/0/submit/", {},
     ORGANISER),
    ("federation link propose",
     lambda p, o: f"/clubs/{p.slug}/federations/{_federation(p)}/players/",
     lambda p, o: {"player": str(o.spare)}, ORGANISER),
]  # fmt: skip


@pytest.mark.parametrize(("name", "path", "data", "allowed"), WRITES, ids=[w[0] for w in WRITES])
@pytest.mark.parametrize("who", WHO)
def test_each_write_is_for_its_roles_only(
    pages: Pages, name: str, path, data, allowed: tuple[str, ...], who: str
):
    """Refused: 403 naming the role needed, 404 for outsiders, the login page for anonymous
    visitors. Allowed: the form is taken (done, or refused for what was sent, never for who)."""
    objects = _objects(pages)
    body = data(pages, objects) if callable(data) else data
    response = pages.client(who).post(path(pages, objects), body)
    if who == "outsider":
        assert response.status_code == 404
    elif who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/login/")
    elif who not in allowed:
        assert response.status_code == 403, (name, who)
        needed = (
            "owner role"
            if allowed == OWNER
            else ("scorer role" if allowed == SCORER else "organiser role")
        )
        assert needed in response.content.decode()
    else:
        assert response.status_code not in (401, 403), (name, who, response.status_code)
        assert not response.get("Location", "").startswith("/login/")
        if response.status_code == 404:  # the service's refusal on its page, not the club hidden
            assert "<h1>Not found</h1>" not in response.content.decode(), (name, who)


def test_every_club_page_is_in_a_table(pages: Pages):
    """Every page and form under a club is in the reads or the writes above."""
    from django.urls import URLPattern, URLResolver, get_resolver, resolve

    names: set[str] = set()

    def walk(patterns: list, prefix: str) -> None:
        for pattern in patterns:
            full = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, full)
            elif isinstance(pattern, URLPattern) and full.startswith("clubs/<slug:club_slug>/"):
                names.add(pattern.name)

    walk(get_resolver().url_patterns, "")
    objects = _objects(pages)
    tabled = {resolve(path(pages, objects)).url_name for _, path, _, _ in WRITES}
    tabled |= {resolve(path.split("?")[0]).url_name for path, _ in _paths(pages).values()}
    tabled |= EXTRA_READS
    tabled |= ACCESS_TESTED_BESIDE
    assert names - tabled == set(), "club pages missing from the access tables"


# Reads tested beside their own feature (the preview answers a fragment as the form is typed).
EXTRA_READS = {"preset-preview", "tournament-prize-preview"}
# A series' pages and forms: their own table of every role over every route,
# tests/series/test_pages_and_permissions.py.
ACCESS_TESTED_BESIDE = {
    "club-series-list", "club-series", "club-series-edit", "club-series-event-add",
    "club-series-event-remove", "club-series-csv",
}  # fmt: skip


def test_player_cannot_enter_a_deal(pages: Pages):
    response = pages.client("player").post(
        f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/", pages.form()
    )
    assert response.status_code == 403
    assert pages.night.game.deals.count() == 0


def test_player_sees_no_forms(pages: Pages):
    body = pages.client("player").get(f"/clubs/{pages.slug}/").content.decode()
    assert "Start session" not in body and "Add a player" not in body
    assert "Asha" in body and "Members and roles" in body
    body = pages.client("organiser").get(f"/clubs/{pages.slug}/").content.decode()
    assert "Start session" in body and "Add a player" in body and "Invite an account" in body


def test_home_links_to_clubs(pages: Pages):
    body = pages.client("player").get("/").content.decode()
    assert f'href="/clubs/{pages.slug}/"' in body


@pytest.mark.parametrize("who", WHO)
def test_a_players_own_pages_answer_whoever_holds_the_link(pages: Pages, who: str):
    """The player's page, its live part and "Not me" are public pages of a club that shows
    them: the same for every standing user with the link, not found with a wrong one or in a
    club without public pages."""
    from tournaments.services.signup import entry_link_issue

    cup = _tournament(pages)
    entry = cup.entries.order_by("pk").first()
    token = entry_link_issue(tournament=cup, actor=pages.s.organiser, entry_id=entry.pk)
    base = f"/p/{pages.slug}/tournaments/{cup.pk}"
    client = pages.client(who)
    pages.s.club.public_standings = True
    pages.s.club.save()
    assert client.get(f"{base}/me/{token}/").status_code == 200
    assert client.get(f"{base}/me/{token}/live/").status_code == 200
    assert client.get(f"{base}/me/{token[:-2]}/live/").status_code == 404
    assert client.post(f"{base}/forget/").status_code == 302
    pages.s.club.public_standings = False
    pages.s.club.save()
    for path in (f"{base}/me/{token}/", f"{base}/me/{token}/live/"):
        assert client.get(path).status_code == 404, path
    assert client.post(f"{base}/forget/").status_code == 404


@pytest.mark.parametrize("who", WHO)
def test_the_language_switcher_and_the_scripts_words_are_for_everyone(pages: Pages, who: str):
    """Off any club: every visitor, signed in or not, chooses a language and reads the scripts'
    words in it."""
    client = pages.client(who)
    assert client.get("/jsi18n/hi/").status_code == 200
    chosen = client.post("/language/", {"language": "de", "next": "/"})
    assert chosen.status_code == 302 and chosen["Location"] == "/"
    assert client.get("/language/").status_code == 405
