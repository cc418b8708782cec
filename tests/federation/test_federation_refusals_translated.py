"""The federation's refusals in the reader's language: the API's in its ``Accept-Language``
(Hindi, Hebrew, German, Dutch), with the same codes and the field named first in English, and
those shown on a member club's page and the officer's queue in the page's language (German).
Without a language asked for, the English is as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework.test import APIClient

from federation import services
from federation.exchange import FORMAT
from scoring.nights import session_create

pytestmark = pytest.mark.django_db

CLUB_API = "/api/v1/clubs/home/federations/rf/"


def _api(user: Any, language: str = "") -> APIClient:
    client = APIClient(headers={"accept-language": language} if language else {})
    client.force_authenticate(user)
    return client


def _words(language: str, msgid: str, **values: Any) -> str:
    with translation.override(language):
        return _(msgid) % values if values else _(msgid)


def test_a_refused_sanction_request_in_hindi_and_hebrew_keeps_its_code(world, standing):
    night = session_create(club=standing.club, actor=standing.organiser, name="Friday cup")
    ask = {"session_id": night.pk, "tier": "gold"}
    english = _api(standing.organiser).post(f"{CLUB_API}events/", ask, format="json").json()
    assert english["error"] == {
        "code": "bad_tier",
        "message": "tier: use one of club, open",
        "details": english["error"]["details"],
    }
    hindi = _api(standing.organiser, "hi").post(f"{CLUB_API}events/", ask, format="json")
    assert hindi.status_code == 400 and hindi["Content-Language"] == "hi"
    assert hindi.json()["error"]["code"] == "bad_tier"
    assert hindi.json()["error"]["message"] == "tier: इनमें से एक चुनें: club, open"

    ask["tier"] = "club"
    assert (
        _api(standing.organiser).post(f"{CLUB_API}events/", ask, format="json").status_code == 201
    )
    again = _api(standing.organiser, "he").post(f"{CLUB_API}events/", ask, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_asked"
    assert again.json()["error"]["message"] == "event: " + _words("he", "asked for already")


def test_a_refused_import_in_hebrew_and_dutch_keeps_its_code(world, standing):
    event = services.sanction_request(
        actor=standing.organiser, federation=world.federation, club=standing.club, tier="club",
        held_elsewhere="night", name="Away night",
    )  # fmt: skip
    url = f"{CLUB_API}events/{event.pk}/import/"
    other = _api(standing.organiser, "he").post(url, {"format": "other"}, format="json")
    assert other.status_code == 400 and other.json()["error"]["code"] == "bad_export"
    assert other.json()["error"]["message"] == "format: " + _words(
        "he", "not a %(format)s document", format=FORMAT
    )
    assert other.json()["error"]["message"] != f"format: not a {FORMAT} document"

    newer = _api(standing.organiser, "nl").post(
        url, {"format": FORMAT, "version": 2}, format="json"
    )
    assert newer.json()["error"]["code"] == "export_version"
    assert newer.json()["error"]["message"] == (
        "version: deze instantie leest versie 1 van de evenementexport; deze is versie 2"
    )


def test_an_officer_reads_a_refusal_in_german(world, standing):
    night = session_create(club=standing.club, actor=standing.organiser, name="Friday cup")
    event = services.sanction_request(
        actor=standing.organiser, federation=world.federation, club=standing.club, tier="club",
        session=night,
    )  # fmt: skip
    url = f"/api/v1/federations/rf/events/{event.pk}/sanction/"
    refused = _api(world.officer, "de").post(url, {"approve": False}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "reason_required"
    assert refused.json()["error"]["message"] == (
        "reason: sag, warum die Veranstaltung abgelehnt wird"
    )
    # Not an officer: said in German too, the code unchanged.
    outsider = _api(standing.organiser, "de").post(url, {"approve": True}, format="json")
    assert outsider.status_code == 403
    assert outsider.json()["error"]["code"] == "permission_denied"
    assert outsider.json()["error"]["message"] == _words(
        "de", "this needs a rating officer of %(federation)s", federation="Rummy Federation"
    )
    missing = _api(world.officer, "he").get("/api/v1/federations/nowhere/ranking/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert missing.json()["error"]["message"] == "אין איגוד 'nowhere'"


def _page_client(user: Any) -> Client:
    client = Client(headers={"accept-language": "de"})
    client.force_login(user)
    return client


def test_a_refusal_on_the_club_page_and_the_queue_is_in_german(world, standing):
    night = session_create(club=standing.club, actor=standing.organiser, name="Friday cup")
    organiser = _page_client(standing.organiser)
    base = "/clubs/home/federations/rf/"
    bad = organiser.post(f"{base}events/", {"event": f"session:{night.pk}", "tier": "gold"})
    body = bad.content.decode()
    assert bad.status_code == 400 and 'lang="de"' in body
    assert "verwende eine von club, open" in body and "use one of" not in body

    event = services.sanction_request(
        actor=standing.organiser, federation=world.federation, club=standing.club, tier="club",
        session=night,
    )  # fmt: skip
    early = organiser.post(f"{base}events/{event.pk}/submit/")
    assert early.status_code == 409
    assert _words("de", "this event is %(status)s: it cannot be submitted", status="beantragt") in (
        early.content.decode()
    )

    officer = _page_client(world.officer)
    answer = officer.post("/f/rf/queue/decide/", {"id": event.pk, "action": "refuse"})
    assert answer.status_code == 302
    queue = officer.get(answer["Location"]).content.decode()
    assert "sag, warum die Veranstaltung abgelehnt wird" in queue
    assert "say why the event is refused" not in queue
