"""Signing in with the OAuth2 client libraries apps use, on their defaults, against a live
server: Authlib and requests-oauthlib. The person logs in and consents in a real HTTP session;
the app trades the code with PKCE, calls the API, refreshes twice (both libraries send the app's
scope with every refresh) and keeps the club it was granted."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin

import pytest
import requests
from authlib.integrations.requests_client import OAuth2Session as AuthlibSession
from oauth2_provider.models import AccessToken, Application
from requests_oauthlib import OAuth2Session as OAuthlibSession

from tests.factories import ClubFactory, MembershipFactory

REDIRECT = "http://127.0.0.1:8765/callback"
PASSWORD = "a long enough password 1"
SCOPE = ["read", "score"]

pytestmark = pytest.mark.usefixtures("transactional_db")


class _FormFields(HTMLParser):
    """The named inputs of the page, as a browser sends them: hidden fields included, and the
    ticked boxes (a list of values for each name)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, Any] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        name = named.get("name")
        if tag != "input" or not name:
            return
        if named.get("type") != "checkbox":
            self.fields.setdefault(name, named.get("value") or "")
        elif "checked" in named:
            self.fields.setdefault(name, []).append(named.get("value") or "on")


def _fields(html: str) -> dict[str, Any]:
    parser = _FormFields()
    parser.feed(html)
    return parser.fields


@pytest.fixture
def phone_app() -> Application:
    return Application.objects.create(
        name="Score Phone", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT, client_secret="", algorithm="",
    )  # fmt: skip


@pytest.fixture
def person(standing: Any) -> Any:
    """The home club's scorer, also the owner of another club: the app is granted only home."""
    standing.scorer.set_password(PASSWORD)
    standing.scorer.save()
    MembershipFactory(user=standing.scorer, club=ClubFactory(name="Elsewhere", slug="elsewhere"))
    return standing.scorer


def _consented(base: str, authorization_url: str, person: Any, club_pk: int) -> str:
    """Log in, open the app's authorization URL, tick the club and allow, in one HTTP session
    as a browser would; the address the browser is sent back to (with the code)."""
    browser = requests.Session()
    login = browser.get(f"{base}/login/")
    answered = browser.post(
        f"{base}/login/",
        {**_fields(login.text), "username": person.username, "password": PASSWORD},
        headers={"Referer": f"{base}/login/"}, allow_redirects=False,
    )  # fmt: skip
    assert answered.status_code == 302, answered.text
    consent = browser.get(authorization_url)
    assert consent.status_code == 200, consent.text
    allowed = browser.post(
        urljoin(base, "/oauth/authorize/"),
        {**_fields(consent.text), "allow": "Authorize", "clubs": [str(club_pk)]},
        headers={"Referer": authorization_url}, allow_redirects=False,
    )  # fmt: skip
    assert allowed.status_code == 302, allowed.text
    return str(allowed.headers["Location"])


def _club_slugs(api: requests.Session, base: str) -> list[str]:
    listed = api.get(f"{base}/api/v1/clubs/")
    assert listed.status_code == 200, listed.text
    return [club["slug"] for club in listed.json()["results"]]


def test_authlib_signs_in_refreshes_twice_with_its_scope_and_keeps_the_club(
    live_server: Any, phone_app: Application, person: Any, standing: Any
):
    base = live_server.url
    app = AuthlibSession(
        phone_app.client_id, scope=" ".join(SCOPE), redirect_uri=REDIRECT,
        code_challenge_method="S256", token_endpoint_auth_method="none",
    )  # fmt: skip
    verifier = "v" * 20 + "-authlib-code-verifier-of-enough-length"
    url, _ = app.create_authorization_url(f"{base}/oauth/authorize/", code_verifier=verifier)
    back = _consented(base, url, person, standing.club.pk)
    token = app.fetch_token(
        f"{base}/oauth/token/", authorization_response=back, code_verifier=verifier
    )
    assert token["scope"] == "read score" and token["clubs"] == [standing.club.pk]
    assert _club_slugs(app, base) == ["home"]

    for _ in range(2):
        refreshed = app.refresh_token(f"{base}/oauth/token/")
        assert refreshed["scope"] == "read score"
        assert refreshed["clubs"] == [standing.club.pk]
        assert _club_slugs(app, base) == ["home"]
        assert app.get(f"{base}/api/v1/clubs/home/").status_code == 200
        assert app.get(f"{base}/api/v1/clubs/elsewhere/").status_code == 404
    # The stored token is bound to the club, as the first one was.
    (live,) = AccessToken.objects.filter(application=phone_app)
    assert live.scope == f"read score club:{standing.club.pk}"


def test_requests_oauthlib_signs_in_on_its_defaults_and_keeps_the_club(
    live_server: Any, phone_app: Application, person: Any, standing: Any, monkeypatch: Any
):
    # The library refuses plain http unless told; the test server has no TLS. Nothing about
    # scopes is relaxed: a scope answered other than the one asked for would stop sign-in.
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")
    monkeypatch.delenv("OAUTHLIB_RELAX_TOKEN_SCOPE", raising=False)
    base = live_server.url
    app = OAuthlibSession(phone_app.client_id, redirect_uri=REDIRECT, scope=SCOPE, pkce="S256")
    url, _ = app.authorization_url(f"{base}/oauth/authorize/")
    back = _consented(base, url, person, standing.club.pk)
    token = app.fetch_token(f"{base}/oauth/token/", authorization_response=back)
    assert token["scope"] == SCOPE and token["clubs"] == [standing.club.pk]
    assert _club_slugs(app, base) == ["home"]

    for _ in range(2):
        refreshed = app.refresh_token(f"{base}/oauth/token/", client_id=phone_app.client_id)
        assert refreshed["scope"] == SCOPE and refreshed["clubs"] == [standing.club.pk]
        assert _club_slugs(app, base) == ["home"]


def test_a_refresh_never_widens_what_was_granted(
    live_server: Any, phone_app: Application, person: Any, standing: Any
):
    base = live_server.url
    app = AuthlibSession(
        phone_app.client_id, scope="read", redirect_uri=REDIRECT,
        code_challenge_method="S256", token_endpoint_auth_method="none",
    )  # fmt: skip
    verifier = "w" * 50
    url, _ = app.create_authorization_url(f"{base}/oauth/authorize/", code_verifier=verifier)
    back = _consented(base, url, person, standing.club.pk)
    token = app.fetch_token(
        f"{base}/oauth/token/", authorization_response=back, code_verifier=verifier
    )
    other = standing.club.pk + 1000
    for wider in ("read score", f"read club:{other}"):
        refused = requests.post(f"{base}/oauth/token/", data={
            "grant_type": "refresh_token", "refresh_token": token["refresh_token"],
            "client_id": phone_app.client_id, "scope": wider,
        })  # fmt: skip
        assert refused.status_code == 400 and refused.json()["error"] == "invalid_scope"
    # Naming fewer is allowed; the club stays.
    narrower = requests.post(f"{base}/oauth/token/", data={
        "grant_type": "refresh_token", "refresh_token": token["refresh_token"],
        "client_id": phone_app.client_id, "scope": "read",
    })  # fmt: skip
    assert narrower.status_code == 200, narrower.text
    assert narrower.json()["clubs"] == [standing.club.pk]
