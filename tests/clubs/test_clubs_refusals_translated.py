"""A refusal of the clubs, sign-in and config layers is said in the asker's language: the API's
by ``Accept-Language`` (its ``code`` unchanged, the field before the colon untranslated), a
page's in the page's language (an invitation refused, an app's sign-out refused, an app's
registration refused)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from clubs import services
from clubs.models import Membership

pytestmark = pytest.mark.django_db


def _said(language: str, text: str, **values: object) -> str:
    """``text`` as the catalog of ``language`` has it (values put in)."""
    with translation.override(language):
        words = gettext(text)
    assert language == "en" or words != text, f"{text!r} is not translated into {language}"
    return words % values if values else words


def _api(standing, who: str, language: str) -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(getattr(standing, who))
    return client


def test_api_refusals_in_hindi_hebrew_german_and_dutch_keep_their_codes(standing) -> None:
    hindi = _api(standing, "player", "hi").get("/api/v1/clubs/nowhere/").json()["error"]
    assert hindi["code"] == "not_found"
    assert hindi["message"] == _said("hi", "no club %(slug)s among your clubs", slug="'nowhere'")

    owner = Membership.objects.get(club=standing.club, user=standing.owner)
    hebrew = _api(standing, "owner", "he").delete(f"/api/v1/clubs/home/members/{owner.pk}/")
    assert hebrew.status_code == 409 and hebrew["Content-Language"] == "he"
    assert hebrew.json()["error"]["code"] == "last_owner"
    assert hebrew.json()["error"]["message"] == _said("he", "a club needs at least one owner")

    german = _api(standing, "owner", "de")
    taken = german.post(
        "/api/v1/clubs/home/players/", {"name": "Asha"}, content_type="application/json"
    ).json()["error"]
    assert taken["code"] == "name_taken"
    assert taken["message"] == "name: " + _said(
        "de", "a player named %(name)s is already on the roster", name="'Asha'"
    )
    zone = german.patch(
        "/api/v1/clubs/home/", {"timezone": "Mars/Olympus"}, content_type="application/json"
    ).json()["error"]
    assert zone["code"] == "invalid"
    assert zone["message"] == "timezone: unbekannte Zeitzone 'Mars/Olympus'"

    dutch = _api(standing, "scorer", "nl").post(
        "/api/v1/clubs/home/members/",
        {"username": "outsider", "role": "scorer"},
        content_type="application/json",
    )
    assert dutch.status_code == 403 and dutch.json()["error"]["code"] == "permission_denied"
    assert dutch.json()["error"]["message"] == _said(
        "nl", "this needs the %(needed)s role in %(club)s; you are %(role)s",
        needed="organisator", club="Home Club", role="scoreteller",
    )  # fmt: skip


def test_the_english_stays_as_it_was(standing) -> None:
    refused = _api(standing, "owner", "en").post(
        "/api/v1/clubs/home/players/", {"name": "Asha"}, content_type="application/json"
    )
    assert refused.json()["error"] == {
        "code": "name_taken",
        "message": "name: a player named 'Asha' is already on the roster",
        "details": {},
    }


def test_an_unknown_field_and_a_wrong_type_in_hindi(standing) -> None:
    client = _api(standing, "owner", "hi")
    unknown = client.patch(
        "/api/v1/clubs/home/", {"colour": "red"}, content_type="application/json"
    ).json()["error"]
    assert unknown["code"] == "unknown_field"
    said = _said(
        "hi", "unknown field %(names)s; this takes: %(takes)s", names="'colour'", takes="name"
    )
    assert unknown["message"].startswith(said.removesuffix("name"))
    wrong = client.patch(
        "/api/v1/clubs/home/", {"name": 12}, content_type="application/json"
    ).json()["error"]
    assert wrong["message"] == "name: " + _said("hi", "must be a string, not a number")


def test_a_refused_invitation_is_shown_in_hindi(standing) -> None:
    _invitation, key = services.invitation_create(
        club=standing.club, actor=standing.owner, actor_role="owner", role="player"
    )
    visitor = Client(headers={"accept-language": "hi"})
    taken = visitor.post(f"/invite/{key}/", {"username": "PLAYER", "password": "a-long-pass-77"})
    assert taken.status_code == 409
    body = taken.content.decode()
    assert _said("hi", "that username is taken; choose another") in body
    assert "that username is taken" not in body

    member = Client(headers={"accept-language": "hi"})
    member.force_login(standing.player)
    again = member.post(f"/invite/{key}/")
    assert again.status_code == 409
    assert _said("hi", "you are already a member of %(club)s", club="Home Club") in (
        again.content.decode()
    )


def test_an_apps_refused_sign_out_is_shown_in_german(standing) -> None:
    client = Client(headers={"accept-language": "de"})
    client.force_login(standing.player)
    page = client.post("/account/apps/987654/revoke/", follow=True)
    body = page.content.decode()
    assert _said("de", "no app #%(id)s", id=987654) in body
    assert "no app #987654" not in body


def test_an_apps_refused_registration_is_shown_in_hebrew(standing) -> None:
    client = Client(headers={"accept-language": "he"})
    client.force_login(standing.owner)
    refused = client.post(
        "/account/apps/registered/new/",
        {"name": "", "client_type": "public", "grant": "device", "redirect_uris": ""},
    )
    assert refused.status_code == 400
    body = refused.content.decode()
    assert _said("he", "give the app a name, the one people see when they sign in") in body
