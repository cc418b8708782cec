"""The federation's pages: every page for every caller (the lists and a player's page are
public; the officer's queue and its buttons are the officers' only), and the figures they show
are the API's."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client, TestCase
from django.utils import translation

from config.catalogs import TRANSLATED
from federation import services
from federation.models import FederationPlayer, SanctionedEvent
from scoring.nights import session_create
from tests.federation.test_services import NIGHT, _link_all, _released

pytestmark = pytest.mark.django_db

WHO = ["owner", "member", "officer", "outsider", "anonymous"]
PUBLIC = dict.fromkeys(WHO, 200)
OFFICER = {"owner": 403, "member": 403, "officer": 200, "outsider": 403, "anonymous": 302}
PAGES = {
    "ranking": ("/f/rf/", PUBLIC),
    "ratings": ("/f/rf/ratings/", PUBLIC),
    "preview": ("/f/rf/ratings/preview/", PUBLIC),
    "projector": ("/f/rf/projector/", PUBLIC),
    "queue": ("/f/rf/queue/", OFFICER),
}


def _client(world, who: str) -> Client:
    client = Client()
    user = {
        "owner": world.standing.owner,
        "member": world.standing.player,
        "officer": world.officer,
        "outsider": world.standing.outsider,
    }.get(who)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("page", list(PAGES))
def test_page_access(world, page: str, who: str):
    path, expect = PAGES[page]
    assert _client(world, who).get(path).status_code == expect[who]


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_queue_refused_says_why_in_the_pages_language(world, language: str):
    client = _client(world, "owner")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    body = client.get("/f/rf/queue/").content.decode()
    with translation.override(language):
        said = translation.gettext("this needs a rating officer of %(federation)s")
    assert said % {"federation": world.federation.name} in body


@pytest.mark.parametrize("who", WHO)
def test_a_player_page_is_public_and_an_unknown_one_is_404(world, who: str):
    player = FederationPlayer.objects.create(federation=world.federation, name="Asha")
    client = _client(world, who)
    assert client.get(f"/f/rf/players/{player.pk}/").status_code == 200
    assert client.get(f"/f/rf/players/{player.pk + 99}/").status_code == 404
    assert client.get("/f/rf/ratings/7/").status_code == 404


@pytest.mark.parametrize("who", WHO)
def test_the_queue_buttons_are_the_officers_only(world, who: str):
    night = session_create(club=world.standing.club, actor=world.standing.owner, name="Asked")
    event = services.sanction_request(
        actor=world.standing.owner,
        federation=world.federation,
        club=world.standing.club,
        tier="club",
        session=night,
    )
    response = _client(world, who).post(
        "/f/rf/queue/decide/", {"id": event.pk, "action": "sanction"}
    )
    event.refresh_from_db()
    if who == "officer":
        assert response.status_code == 302 and event.status == "sanctioned"
    else:
        assert response.status_code == OFFICER[who] and event.status == "requested"


def test_the_pages_show_the_apis_figures_and_a_refusal_says_why(world, standing):
    _link_all(world, standing.club, standing.organiser, ["Asha", "Bilal", "Chitra", "Dev"])
    event = world.night(standing.club, standing.organiser, "Cup")
    _released(world, event, standing.organiser, NIGHT)
    api = Client().get("/api/v1/federations/rf/ranking/").json()["results"]
    page = Client().get("/f/rf/").content.decode()
    for row in api:
        assert row["name"] in page and row["total"] in page
    # The next list is January's (nothing published yet): the event counts if released then.
    SanctionedEvent.objects.filter(pk=event.pk).update(released_on="2026-01-15")
    preview = Client().get("/f/rf/ratings/preview/").content.decode()
    assert "Asha" in preview and "provisional" in preview
    officer = _client(world, "officer")
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = officer.post("/f/rf/queue/decide/", {"id": event.pk, "action": "return"})
    assert response.status_code == 302 and "error=" in response["Location"]
    assert "say what the club should correct" in officer.get(response["Location"]).content.decode()
    assert SanctionedEvent.objects.get(pk=event.pk).status == "released"
