"""OAuth2 sign-in for score apps, end to end through the real pages and endpoints: the
authorization code with PKCE (log in, consent with clubs, token, call the API, refresh, revoke)
and the device grant (a TV asks, a person approves on their phone, the TV polls)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.test import Client
from oauth2_provider.models import AccessToken, Application, RefreshToken

from clubs.models import AuditEntry, Role
from tests.api.test_permissions import _results
from tests.factories import ClubFactory, MembershipFactory

REDIRECT = "http://127.0.0.1:8765/callback"
PASSWORD = "a long enough password 1"


@pytest.fixture
def phone_app(db: None) -> Application:
    return Application.objects.create(
        name="Score Phone",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT,
        client_secret="",
        algorithm="",
    )


@pytest.fixture
def tv_app(db: None) -> Application:
    return Application.objects.create(
        name="Club TV",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_DEVICE_CODE,
        client_secret="",
        algorithm="",
    )


@pytest.fixture
def scorer_with_two_clubs(standing: Any) -> Any:
    """The standing club's scorer, also the owner of a second club ("Elsewhere")."""
    standing.scorer.set_password(PASSWORD)
    standing.scorer.save()
    MembershipFactory(
        user=standing.scorer, club=ClubFactory(name="Elsewhere", slug="elsewhere"), role=Role.OWNER
    )
    return standing.scorer


def _logged_in(user: Any) -> Client:
    """A browser that logged in through the login page."""
    browser = Client()
    response = browser.post("/login/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302, response.content
    return browser


def _pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _form(client: Client, path: str, data: dict[str, Any], **headers: Any) -> Any:
    """A POST as apps send to the OAuth2 endpoints: a urlencoded form."""
    return client.post(
        path, urlencode(data), content_type="application/x-www-form-urlencoded", **headers
    )


def _api(token: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def _authorize(browser: Client, app: Application, challenge: str, scope: str) -> dict[str, Any]:
    """The consent page's form, as the browser got it (its hidden fields)."""
    query = {
        "response_type": "code", "client_id": app.client_id, "redirect_uri": REDIRECT,
        "scope": scope, "state": "s-42", "code_challenge": challenge,
        "code_challenge_method": "S256",
    }  # fmt: skip
    page = browser.get("/oauth/authorize/?" + urlencode(query))
    assert page.status_code == 200, page.content
    html = page.content.decode()
    assert app.name in html and "Home Club" in html and "Elsewhere" in html
    form = page.context["form"]
    return {name: form[name].value() or "" for name in form.fields if name != "allow"}


def _signed_in(
    browser: Client, app: Application, club_pk: int, secret: str = "", scope: str = "read"
) -> dict[str, Any]:
    """A token for ``club_pk``: consent in ``browser``, the code exchanged with PKCE (and the
    app's secret, for a confidential app)."""
    verifier, challenge = _pkce()
    fields = _authorize(browser, app, challenge, scope)
    allowed = browser.post(
        "/oauth/authorize/", {**fields, "allow": "Authorize", "clubs": [str(club_pk)]}
    )
    code = parse_qs(urlsplit(allowed["Location"]).query)["code"][0]
    exchange = {
        "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
        "client_id": app.client_id, "code_verifier": verifier,
    }  # fmt: skip
    if secret:
        exchange["client_secret"] = secret
    return _form(Client(), "/oauth/token/", exchange).json()  # type: ignore[no-any-return]


def test_pkce_sign_in_consent_with_clubs_token_refresh_and_revoke(
    world: Any, phone_app: Application, scorer_with_two_clubs: Any
):

    browser = _logged_in(scorer_with_two_clubs)
    verifier, challenge = _pkce()
    fields = _authorize(browser, phone_app, challenge, "read score")
    home = world.club

    # Allowing without a club is refused on the page, and nothing is granted.
    refused = browser.post("/oauth/authorize/", {**fields, "allow": "Authorize"})
    assert refused.status_code == 400 and "Choose at least one club" in refused.content.decode()

    allowed = browser.post(
        "/oauth/authorize/", {**fields, "allow": "Authorize", "clubs": [str(home.pk)]}
    )
    assert allowed.status_code == 302
    back = urlsplit(allowed["Location"])
    assert f"{back.scheme}://{back.netloc}{back.path}" == REDIRECT
    answer = parse_qs(back.query)
    assert answer["state"] == ["s-42"]
    code = answer["code"][0]

    # Without the verifier the code is refused (PKCE), with it a token comes.
    token_form = {
        "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
        "client_id": phone_app.client_id,
    }  # fmt: skip
    assert (
        _form(Client(), "/oauth/token/", {**token_form, "code_verifier": "x" * 43}).status_code
        == 400
    )
    issued = _form(Client(), "/oauth/token/", {**token_form, "code_verifier": verifier})
    assert issued.status_code == 200, issued.content
    tokens = issued.json()
    assert tokens["scope"] == "read score" and tokens["clubs"] == [home.pk]
    assert tokens["token_type"] == "Bearer" and tokens["refresh_token"]
    app = _api(tokens["access_token"])

    # The token reads and scores in the club granted, manages nothing, sees no other club.
    assert app.get("/api/v1/clubs/home/").status_code == 200
    assert [c["slug"] for c in app.get("/api/v1/clubs/").json()["results"]] == ["home"]
    assert app.get("/api/v1/clubs/elsewhere/").status_code == 404
    assert app.get("/api/v1/clubs/elsewhere/players/").status_code == 404
    deal = app.post(f"/api/v1/clubs/home/games/{world.game}/deals/", {}, "application/json")
    assert deal.status_code == 201, deal.content
    result = app.post(
        f"/api/v1/clubs/home/deals/{deal.json()['id']}/submissions/", _results(world),
        "application/json",
    )  # fmt: skip
    assert result.status_code == 202, result.content
    manage = app.post("/api/v1/clubs/home/players/", {"name": "Zed"}, "application/json")
    assert manage.status_code == 403
    assert manage.json()["error"]["code"] == "insufficient_scope"
    assert app.post("/api/v1/tokens/", {"name": "more"}, "application/json").status_code == 403

    # Refresh: a new access token, the old one refused, the same scope and clubs.
    refreshed = _form(Client(), "/oauth/token/", {
        "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
        "client_id": phone_app.client_id,
    })  # fmt: skip
    assert refreshed.status_code == 200, refreshed.content
    fresh = refreshed.json()
    assert (fresh["scope"], fresh["clubs"]) == (tokens["scope"], tokens["clubs"])
    assert fresh["access_token"] != tokens["access_token"]
    assert app.get("/api/v1/clubs/home/").status_code == 401
    app = _api(fresh["access_token"])
    assert app.get("/api/v1/clubs/home/").status_code == 200

    # The person sees the app on their Apps page, and the club's admins see it act there.
    apps_page = browser.get("/account/apps/").content.decode()
    assert "Score Phone" in apps_page and "read, score" in apps_page and "Home Club" in apps_page
    settings = _logged_in_owner(world).get("/clubs/home/settings/").content.decode()
    assert "Score Phone" in settings and "for scorer" in settings

    # Revoking the refresh token at the revocation endpoint signs the app out.
    revoked = _form(Client(), "/oauth/revoke/", {
        "token": fresh["refresh_token"], "token_type_hint": "refresh_token",
        "client_id": phone_app.client_id,
    })  # fmt: skip
    assert revoked.status_code == 200
    gone = app.get("/api/v1/clubs/home/")
    assert gone.status_code == 401 and set(gone.json()["error"]) == {"code", "message", "details"}
    assert "Score Phone" not in browser.get("/account/apps/").content.decode()


def _logged_in_owner(world: Any) -> Client:
    world.s.owner.set_password(PASSWORD)
    world.s.owner.save()
    return _logged_in(world.s.owner)


def test_signing_out_from_the_apps_page_stops_the_app(
    world: Any, phone_app: Application, scorer_with_two_clubs: Any
):
    browser = _logged_in(scorer_with_two_clubs)
    tokens = _signed_in(browser, phone_app, world.club.pk)
    app = _api(tokens["access_token"])
    assert app.get("/api/v1/clubs/home/sessions/").status_code == 200
    # read only: no deal, no result
    no_write = app.post(f"/api/v1/clubs/home/games/{world.game}/deals/", {}, "application/json")
    assert no_write.status_code == 403

    # Another person cannot sign the app out for this one.
    outsider = world.s.outsider
    outsider.set_password(PASSWORD)
    outsider.save()
    _logged_in(outsider).post(f"/account/apps/{phone_app.pk}/revoke/")
    assert app.get("/api/v1/clubs/home/sessions/").status_code == 200

    signed_out = browser.post(f"/account/apps/{phone_app.pk}/revoke/")
    assert signed_out.status_code == 302
    assert app.get("/api/v1/clubs/home/sessions/").status_code == 401
    refresh = _form(Client(), "/oauth/token/", {
        "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
        "client_id": phone_app.client_id,
    })  # fmt: skip
    assert refresh.status_code == 400
    assert not AccessToken.objects.filter(user=scorer_with_two_clubs).exists()
    assert (
        RefreshToken.objects.filter(user=scorer_with_two_clubs, revoked__isnull=True).count() == 0
    )
    assert AuditEntry.objects.filter(action="app.revoke").count() == 1


def test_an_app_cannot_name_clubs_itself(phone_app: Application, scorer_with_two_clubs: Any):
    browser = _logged_in(scorer_with_two_clubs)
    _verifier, challenge = _pkce()
    query = {
        "response_type": "code", "client_id": phone_app.client_id, "redirect_uri": REDIRECT,
        "scope": "read club:1", "state": "s", "code_challenge": challenge,
        "code_challenge_method": "S256",
    }  # fmt: skip
    asked = browser.get("/oauth/authorize/?" + urlencode(query))
    assert asked.status_code == 302 and "error=invalid_scope" in asked["Location"]
    # An earlier approval is no shortcut past the page: the clubs are chosen every time.
    from datetime import timedelta

    from django.utils import timezone

    AccessToken.objects.create(
        user=scorer_with_two_clubs, application=phone_app, token="earlier",
        expires=timezone.now() + timedelta(hours=1), scope="read score club:1",
    )  # fmt: skip
    query["scope"] = "read"
    again = browser.get("/oauth/authorize/?" + urlencode({**query, "approval_prompt": "auto"}))
    assert again.status_code == 200 and "In these clubs" in again.content.decode()
    without_pkce = {k: v for k, v in query.items() if not k.startswith("code_")}
    without_pkce["scope"] = "read"
    refused = browser.get("/oauth/authorize/?" + urlencode(without_pkce))
    assert refused.status_code == 302 and "error=invalid_request" in refused["Location"]


def test_the_device_flow_end_to_end(world: Any, tv_app: Application, scorer_with_two_clubs: Any):
    tv = Client()
    asked = _form(
        tv, "/oauth/device-authorization/", {"client_id": tv_app.client_id, "scope": "read"}
    )
    assert asked.status_code == 200, asked.content
    device = asked.json()
    assert device["verification_uri"].endswith("/oauth/device/") and device["interval"] == 5
    poll = {
        "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
        "device_code": device["device_code"], "client_id": tv_app.client_id,
    }  # fmt: skip
    pending = _form(tv, "/oauth/token/", poll)
    assert pending.status_code == 400 and pending.json()["error"] == "authorization_pending"

    phone = _logged_in(scorer_with_two_clubs)
    wrong = phone.post("/oauth/device/", {"user_code": "NOPE"})
    assert wrong.status_code == 200 and "Incorrect user code" in wrong.content.decode()
    entered = phone.post("/oauth/device/", {"user_code": device["user_code"]})
    assert entered.status_code == 302
    confirm_page = phone.get(entered["Location"])
    assert confirm_page.status_code == 200 and "Club TV" in confirm_page.content.decode()
    assert phone.post(entered["Location"], {"action": "accept"}).status_code == 400
    accepted = phone.post(entered["Location"], {"action": "accept", "clubs": [str(world.club.pk)]})
    assert accepted.status_code == 302
    assert "is connected" in phone.get(accepted["Location"]).content.decode()

    issued = _form(tv, "/oauth/token/", poll)
    assert issued.status_code == 200, issued.content
    tokens = issued.json()
    assert tokens["scope"] == "read" and tokens["clubs"] == [world.club.pk]
    assert tokens["refresh_token"]
    screen = _api(tokens["access_token"])
    board = screen.get(f"/api/v1/clubs/home/sessions/{world.session}/scoreboard/")
    assert board.status_code == 200
    assert screen.get("/api/v1/clubs/elsewhere/").status_code == 404
    write = screen.post(f"/api/v1/clubs/home/games/{world.game}/deals/", {}, "application/json")
    assert write.status_code == 403
    token = AccessToken.objects.get()
    assert token.user == scorer_with_two_clubs and token.application == tv_app

    # The device code gives one token only.
    assert _form(tv, "/oauth/token/", poll).status_code != 200


def test_the_device_flow_denied(tv_app: Application, scorer_with_two_clubs: Any):
    tv = Client()
    device = _form(
        tv, "/oauth/device-authorization/", {"client_id": tv_app.client_id, "scope": "read"}
    ).json()
    phone = _logged_in(scorer_with_two_clubs)
    entered = phone.post("/oauth/device/", {"user_code": device["user_code"]})
    phone.post(entered["Location"], {"action": "deny"})
    denied = _form(tv, "/oauth/token/", {
        "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
        "device_code": device["device_code"], "client_id": tv_app.client_id,
    })  # fmt: skip
    assert denied.status_code == 400 and denied.json()["error"] == "access_denied"
    assert not AccessToken.objects.exists()


def test_an_app_introspects_its_own_tokens_only(
    world: Any, phone_app: Application, scorer_with_two_clubs: Any
):
    server = Application.objects.create(
        name="Club server", client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, redirect_uris=REDIRECT,
        client_secret="server-secret", algorithm="",
    )  # fmt: skip
    browser = _logged_in(scorer_with_two_clubs)
    phones = _signed_in(browser, phone_app, world.club.pk)["access_token"]
    servers = _signed_in(browser, server, world.club.pk, secret="server-secret")["access_token"]
    basic = base64.b64encode(f"{server.client_id}:server-secret".encode()).decode()

    def looked_up(token: str, **headers: Any) -> Any:
        return _form(Client(), "/oauth/introspect/", {"token": token}, **headers)

    own = looked_up(servers, HTTP_AUTHORIZATION=f"Basic {basic}")
    assert own.status_code == 200, own.content
    facts = own.json()
    assert facts["active"] is True and facts["scope"] == f"read club:{world.club.pk}"
    assert facts["username"] == "scorer" and facts["client_id"] == server.client_id
    # Another app's live token is told of as an unknown one: nothing of its scope or person.
    assert looked_up(phones, HTTP_AUTHORIZATION=f"Basic {basic}").json() == {"active": False}
    assert looked_up("nothing", HTTP_AUTHORIZATION=f"Basic {basic}").json() == {"active": False}
    assert looked_up(phones).status_code in (401, 403)
    # A public app has no secret to introspect with, even its own token.
    public = base64.b64encode(f"{phone_app.client_id}:".encode()).decode()
    assert looked_up(phones, HTTP_AUTHORIZATION=f"Basic {public}").status_code in (401, 403)


def test_consent_can_narrow_what_the_app_asked_for(
    world: Any, phone_app: Application, scorer_with_two_clubs: Any
):
    browser = _logged_in(scorer_with_two_clubs)
    _verifier, challenge = _pkce()
    fields = _authorize(browser, phone_app, challenge, "read score")
    assert fields["grant"] == ["read", "score"]
    allowed = browser.post(
        "/oauth/authorize/",
        {**fields, "grant": ["read"], "allow": "Authorize", "clubs": [str(world.club.pk)]},
    )
    assert allowed.status_code == 302, allowed.content
    code = parse_qs(urlsplit(allowed["Location"]).query)["code"][0]
    from oauth2_provider.models import Grant

    assert Grant.objects.get(code=code).scope == f"read club:{world.club.pk}"
    nothing = browser.post(
        "/oauth/authorize/",
        {**fields, "grant": [], "allow": "Authorize", "clubs": [str(world.club.pk)]},
    )
    assert nothing.status_code == 400 and "at least one" in nothing.content.decode()


@pytest.mark.parametrize(
    "altered",
    [
        {"scope": "read manage"},  # the hidden scope widened
        {"grant": ["read", "manage"]},  # a tick the page never showed
        {"granting": "", "scope": "read score manage"},  # the ticks dropped, the scope widened
        {"asked": "read manage"},  # the seal replaced
        {"asked": ""},  # the seal dropped
    ],
)
def test_consent_never_widens_what_the_app_asked_for(
    world: Any, phone_app: Application, scorer_with_two_clubs: Any, altered: dict[str, Any]
):
    browser = _logged_in(scorer_with_two_clubs)
    _verifier, challenge = _pkce()
    fields = _authorize(browser, phone_app, challenge, "read")
    answer = browser.post(
        "/oauth/authorize/",
        {**fields, **altered, "allow": "Authorize", "clubs": [str(world.club.pk)]},
    )
    assert answer.status_code == 400, answer.get("Location")
    said = answer.content.decode()
    assert "never more" in said or "out of date or was altered" in said
    from oauth2_provider.models import Grant

    assert not Grant.objects.exists()


def test_no_grant_that_skips_the_consent(db: None, scorer_with_two_clubs: Any):
    """The password grant and client credentials would give tokens without the person choosing
    clubs at consent: refused even for an app registered with them."""
    password_app = Application.objects.create(
        name="Old app", client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_PASSWORD, client_secret="s", algorithm="",
    )  # fmt: skip
    basic = base64.b64encode(f"{password_app.client_id}:s".encode()).decode()
    refused = _form(
        Client(), "/oauth/token/",
        {"grant_type": "password", "username": "scorer", "password": PASSWORD, "scope": "read"},
        HTTP_AUTHORIZATION=f"Basic {basic}",
    )  # fmt: skip
    assert refused.status_code in (400, 401) and "access_token" not in refused.json()
    assert refused.json()["error"] == "unauthorized_client"
    assert not AccessToken.objects.exists()


def test_personal_tokens_through_the_api_take_scopes_and_clubs(standing: Any):
    from clubs.models import ApiToken

    person = standing.client("organiser")
    made = person.post(
        "/api/v1/tokens/", {"name": "board", "scopes": ["read"], "clubs": ["home"]}, format="json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["scope"] == f"read club:{standing.club.pk}"
    board = _api(made.json()["key"])
    assert board.get("/api/v1/clubs/home/players/").status_code == 200
    assert (
        board.post("/api/v1/clubs/home/players/", {"name": "X"}, "application/json").status_code
        == 403
    )
    everything = person.post("/api/v1/tokens/", {"name": "all"}, format="json").json()
    assert everything["scope"] == f"read score manage club:{standing.club.pk}"
    for body, field in [
        ({"name": "x", "scopes": ["write"]}, "scopes"),
        ({"name": "x", "clubs": ["away"]}, "clubs"),
        ({"name": "x", "scopes": []}, "scopes"),
    ]:
        refused = person.post("/api/v1/tokens/", body, format="json")
        assert refused.status_code == 400 and field in refused.json()["error"]["details"], body
    assert ApiToken.objects.count() == 2


def test_tokens_from_before_scopes_keep_working_everywhere(standing: Any):
    """The migration that brought scopes gives every existing token all of them, in every club
    its user belonged to, so nothing that worked stops."""
    import importlib

    from django.apps import apps

    from clubs.models import ApiToken
    from clubs.signin import services

    migration = importlib.import_module("clubs.migrations.0009_api_token_scope")
    token, key = services.api_token_create(user=standing.outsider, name="old script")
    ApiToken.objects.filter(pk=token.pk).update(scope="")  # as every token was before
    assert _api(key).get("/api/v1/clubs/away/").status_code == 403
    migration.give_existing_tokens_everything(apps, None)
    token.refresh_from_db()
    away = standing.club.__class__.objects.get(slug="away")
    assert token.scope == f"read score manage club:{away.pk}"
    assert (
        _api(key).patch("/api/v1/clubs/away/", {"name": "Away!"}, "application/json").status_code
        == 200
    )
