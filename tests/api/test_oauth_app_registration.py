"""A club's owner registers the apps they make on /account/apps/registered/, through the real
pages with their CSRF tokens: the app signs people in at once, a confidential app's secret is
shown once, redirect URIs are checked and edited, an app is deleted with its tokens, and only
owners register, each changing only their own apps."""

from __future__ import annotations

import base64
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from oauth2_provider.models import AccessToken, Application, DeviceGrant

from clubs.models import AuditEntry
from tests.api.test_oauth import PASSWORD, REDIRECT, _api, _form
from tests.api.test_oauth_server import _consented_code, _device, _trade

PAGE = "/account/apps/registered/"


def _browser(user: Any) -> Client:
    """A browser that logged in through the login page, with CSRF checks as in production."""
    user.set_password(PASSWORD)
    user.save()
    browser = Client(enforce_csrf_checks=True)
    login = browser.get("/login/")
    answered = browser.post(
        "/login/",
        {"username": user.username, "password": PASSWORD, "csrfmiddlewaretoken": _token(login)},
    )
    assert answered.status_code == 302, answered.content
    return browser


def _token(page: Any) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    assert found, "the page has no form with a CSRF token"
    return found.group(1)


def _send(browser: Client, path: str, data: dict[str, Any]) -> Any:
    """Post ``data`` as the page's form does: with the token of the page just loaded."""
    page = browser.get(PAGE)
    return browser.post(path, {**data, "csrfmiddlewaretoken": _token(page)})


def _register(browser: Client, **fields: str) -> Any:
    data = {"client_type": "public", "grant": "authorization-code", **fields}
    return _send(browser, f"{PAGE}new/", data)


def test_an_owner_registers_an_app_and_people_sign_in_with_it(standing: Any) -> None:
    owner = _browser(standing.owner)
    page = owner.get(PAGE)
    assert page.status_code == 200 and "You have registered no app." in page.content.decode()
    assert 'href="/account/apps/registered/"' in owner.get("/account/apps/").content.decode()

    # Without the page's CSRF token nothing is registered.
    forged = owner.post(f"{PAGE}new/", {"name": "X", "client_type": "public", "grant": "device"})
    assert forged.status_code == 403 and not Application.objects.exists()

    made = _register(
        owner, name="Score Phone", redirect_uris=f"rummyclub://signed-in\r\n{REDIRECT}\r\n{REDIRECT}",
        skip_authorization="on",
    )  # fmt: skip
    assert made.status_code == 302 and made["Location"] == f"{PAGE}#new-app"
    app = Application.objects.get()
    assert (app.user, app.name, app.client_type) == (standing.owner, "Score Phone", "public")
    assert app.authorization_grant_type == Application.GRANT_AUTHORIZATION_CODE
    assert app.redirect_uris == f"rummyclub://signed-in {REDIRECT}"
    assert not app.skip_authorization and app.client_secret == ""
    shown = owner.get(PAGE)
    html = shown.content.decode()
    assert "“Score Phone” is registered." in html and app.client_id in html
    assert "client secret" not in html.lower() and shown["Cache-Control"] == "no-store"
    assert "is registered." not in owner.get(PAGE).content.decode()  # shown once
    entry = AuditEntry.objects.get(action="app.register")
    assert entry.actor == standing.owner and entry.after["client_id"] == app.client_id

    # A member of the club signs in with it, choosing the club on the consent page.
    standing.scorer.set_password(PASSWORD)
    standing.scorer.save()
    member = Client()
    member.post("/login/", {"username": "scorer", "password": PASSWORD})
    consent = member.get("/oauth/authorize/?" + urlencode({
        "response_type": "code", "client_id": app.client_id, "redirect_uri": REDIRECT,
        "code_challenge": "x" * 43, "code_challenge_method": "S256",
    }))  # fmt: skip
    assert "An app registered by owner." in consent.content.decode()
    code, verifier = _consented_code(member, app, standing.club.pk)
    tokens = _trade(app, code, verifier)
    assert tokens.status_code == 200, tokens.content
    assert _api(tokens.json()["access_token"]).get("/api/v1/clubs/home/").status_code == 200


def test_a_confidential_apps_secret_is_shown_once_and_works(standing: Any) -> None:
    owner = _browser(standing.owner)
    made = _register(
        owner, name="Club server", client_type="confidential",
        redirect_uris="https://scores.example/signed-in",
    )  # fmt: skip
    assert made.status_code == 302
    html = owner.get(PAGE).content.decode()
    secret = re.search(r'id="new-client-secret">([^<]+)<', html).group(1)  # type: ignore[union-attr]
    app = Application.objects.get()
    assert app.client_type == "confidential" and app.client_secret != secret  # kept hashed
    assert secret not in owner.get(PAGE).content.decode()
    basic = base64.b64encode(f"{app.client_id}:{secret}".encode()).decode()
    looked = _form(
        Client(), "/oauth/introspect/", {"token": "none"}, HTTP_AUTHORIZATION=f"Basic {basic}"
    )
    assert looked.status_code == 200 and looked.json() == {"active": False}


def test_a_device_app_gets_device_codes(standing: Any) -> None:
    owner = _browser(standing.owner)
    assert _register(owner, name="Club TV", grant="device").status_code == 302
    app = Application.objects.get()
    assert app.authorization_grant_type == Application.GRANT_DEVICE_CODE and not app.redirect_uris
    asked = _device(Client(), app)
    assert asked.status_code == 200 and asked.json()["user_code"]
    html = owner.get(PAGE).content.decode()
    assert app.client_id in html and f"redirect-uris-{app.pk}" not in html


TOO_MANY = "\n".join(f"https://scores.example/{n}" for n in range(11))
REFUSALS = [
    ({"redirect_uris": "http://scores.example/cb"}, "plain http only to this computer"),
    ({"redirect_uris": "ftp://files.example/cb"}, "the scheme must be https"),
    ({"redirect_uris": "https://scores.example/cb#top"}, "cannot have a fragment"),
    ({"redirect_uris": "https://me@scores.example/cb"}, "cannot carry a user name"),
    ({"redirect_uris": "https://*.example/cb"}, "without wildcards"),
    ({"redirect_uris": "https://scores.example:99999/cb"}, "not a URI"),
    ({"redirect_uris": "rummyclub:"}, "name the place in the app"),
    ({"redirect_uris": ""}, "give at least one"),
    ({"redirect_uris": TOO_MANY}, "at most 10"),
    ({"grant": "device", "redirect_uris": REDIRECT}, "leave the redirect URIs empty"),
    ({"name": "   "}, "give the app a name"),
    ({"name": "x" * 81}, "at most 80 characters"),
    ({"grant": "client-credentials"}, "is not offered"),
    ({"grant": "password"}, "is not offered"),
    ({"client_type": "secretive"}, "neither public"),
]


@pytest.mark.parametrize(("fields", "says"), REFUSALS)
def test_what_cannot_be_registered_is_named(
    standing: Any, fields: dict[str, str], says: str
) -> None:
    owner = _browser(standing.owner)
    sent = {"name": "Score Phone", "redirect_uris": REDIRECT, **fields}
    refused = _register(owner, **sent)
    assert refused.status_code == 400
    html = refused.content.decode()
    assert says in html.replace("&#x27;", "'") and 'id="form-error"' in html
    assert 'aria-invalid="true"' in html or "name" not in fields  # the field is marked
    assert not Application.objects.exists()


def test_only_a_clubs_owner_registers(standing: Any) -> None:
    assert Client().get(PAGE)["Location"].startswith("/login/")
    scorer = _browser(standing.scorer)
    page = scorer.get(PAGE)
    assert page.status_code == 200 and "Only a club's owner registers apps" in page.content.decode()
    refused = _register(scorer, name="Score Phone", redirect_uris=REDIRECT)
    assert refused.status_code == 403
    assert "only a club&#x27;s owner can register an app" in refused.content.decode()
    assert not Application.objects.exists()


def test_an_owner_edits_and_deletes_only_their_own_apps(standing: Any) -> None:
    owner, outsider = _browser(standing.owner), _browser(standing.outsider)
    _register(owner, name="Score Phone", redirect_uris=REDIRECT)
    _register(outsider, name="Away App", redirect_uris="https://away.example/cb")
    app = Application.objects.get(user=standing.owner)
    assert "Away App" not in owner.get(PAGE).content.decode()

    # Another owner can neither edit nor delete it.
    assert (
        _send(outsider, f"{PAGE}{app.pk}/", {"redirect_uris": "https://x.example/cb"}).status_code
        == 404
    )
    assert _send(outsider, f"{PAGE}{app.pk}/delete/", {}).status_code == 404
    app.refresh_from_db()
    assert app.redirect_uris == REDIRECT

    refused = _send(owner, f"{PAGE}{app.pk}/", {"redirect_uris": "http://scores.example/cb"})
    assert refused.status_code == 400 and "plain http only" in refused.content.decode()
    assert "http://scores.example/cb" in refused.content.decode()  # what was typed, kept
    edited = _send(
        owner,
        f"{PAGE}{app.pk}/",
        {"redirect_uris": "https://scores.example/signed-in\nrummyclub://in"},
    )
    assert edited.status_code == 302
    app.refresh_from_db()
    assert app.redirect_uris == "https://scores.example/signed-in rummyclub://in"
    assert "are saved" in owner.get(PAGE).content.decode()
    change = AuditEntry.objects.get(action="app.update")
    assert change.before == {"redirect_uris": REDIRECT}
    assert change.after == {"redirect_uris": app.redirect_uris}

    # Deleting signs everyone out of it at once.
    _send(owner, f"{PAGE}{app.pk}/", {"redirect_uris": REDIRECT})
    standing.scorer.set_password(PASSWORD)
    standing.scorer.save()
    member = Client()
    member.post("/login/", {"username": "scorer", "password": PASSWORD})
    code, verifier = _consented_code(member, app, standing.club.pk)
    access = _trade(app, code, verifier).json()["access_token"]
    assert _api(access).get("/api/v1/clubs/home/").status_code == 200
    deleted = _send(owner, f"{PAGE}{app.pk}/delete/", {})
    assert deleted.status_code == 302
    assert not Application.objects.filter(pk=app.pk).exists()
    assert _api(access).get("/api/v1/clubs/home/").status_code == 401
    assert not AccessToken.objects.exists()
    assert "everyone signed in with it is signed out" in owner.get(PAGE).content.decode()
    assert AuditEntry.objects.get(action="app.delete").before["name"] == "Score Phone"
    assert Application.objects.filter(user=standing.outsider).exists()


def test_deleting_a_device_app_drops_its_waiting_codes(standing: Any) -> None:
    owner = _browser(standing.owner)
    _register(owner, name="Club TV", grant="device")
    app = Application.objects.get()
    device = _device(Client(), app).json()
    assert DeviceGrant.objects.filter(device_code=device["device_code"]).exists()
    assert _send(owner, f"{PAGE}{app.pk}/delete/", {}).status_code == 302
    assert not DeviceGrant.objects.exists()
    poll = _form(Client(), "/oauth/token/", {
        "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
        "device_code": device["device_code"], "client_id": app.client_id,
    })  # fmt: skip
    assert poll.status_code == 401 and poll.json()["error"] == "invalid_client"
