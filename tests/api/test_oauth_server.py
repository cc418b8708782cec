"""The authorization server held to the RFCs, through its real endpoints: the metadata lists what
it accepts (RFC 8414), the device grant as RFC 8628 has it (typed codes, slow_down, the complete
verification URI, device apps only), a code traded twice revokes what it gave (RFC 6749
4.1.2), PKCE other than S256 is refused before the consent page (RFC 7636 4.4.1), and the
command that registers an app prints its client id."""

from __future__ import annotations

import base64
import threading
from datetime import timedelta
from io import StringIO
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, DeviceGrant, Grant, RefreshToken

from clubs.models import AuditEntry, SpentAuthorizationCode
from tests.api.test_oauth import PASSWORD, REDIRECT, _api, _form, _logged_in, _pkce
from tests.factories import ClubFactory, MembershipFactory

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


def _app(name: str, grant: str, **fields: Any) -> Application:
    return Application.objects.create(
        name=name, client_type=fields.pop("client_type", Application.CLIENT_PUBLIC),
        authorization_grant_type=grant, client_secret=fields.pop("client_secret", ""),
        algorithm="", **fields,
    )  # fmt: skip


@pytest.fixture
def phone_app(db: None) -> Application:
    return _app("Score Phone", Application.GRANT_AUTHORIZATION_CODE, redirect_uris=REDIRECT)


@pytest.fixture
def tv_app(db: None) -> Application:
    return _app("Club TV", Application.GRANT_DEVICE_CODE)


@pytest.fixture
def scorer(standing: Any) -> Any:
    standing.scorer.set_password(PASSWORD)
    standing.scorer.save()
    return standing.scorer


# --- RFC 8414: the server's metadata ------------------------------------------------------------


def test_the_metadata_lists_only_what_the_server_accepts(db: None) -> None:
    answer = Client().get("/.well-known/oauth-authorization-server", HTTP_HOST="127.0.0.1:8000")
    assert answer.status_code == 200, answer.content
    meta = answer.json()
    base = "http://127.0.0.1:8000"
    assert meta["issuer"] == base
    assert meta["grant_types_supported"] == ["authorization_code", "refresh_token", DEVICE_GRANT]
    assert meta["response_types_supported"] == ["code"]
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["scopes_supported"] == ["manage", "read", "score"]
    assert meta["authorization_response_iss_parameter_supported"] is True
    assert meta["token_endpoint_auth_methods_supported"] == [
        "none", "client_secret_basic", "client_secret_post",
    ]  # fmt: skip
    assert meta["revocation_endpoint_auth_methods_supported"] == [
        "none", "client_secret_basic", "client_secret_post",
    ]  # fmt: skip
    assert meta["introspection_endpoint_auth_methods_supported"] == [
        "client_secret_basic", "client_secret_post",
    ]  # fmt: skip
    assert {key: meta[key] for key in meta if key.endswith("_endpoint")} == {
        "authorization_endpoint": f"{base}/oauth/authorize/",
        "token_endpoint": f"{base}/oauth/token/",
        "revocation_endpoint": f"{base}/oauth/revoke/",
        "introspection_endpoint": f"{base}/oauth/introspect/",
        "device_authorization_endpoint": f"{base}/oauth/device-authorization/",
    }
    # Every endpoint listed is there: each answers a request without an app as OAuth2 does.
    for key in ("token_endpoint", "revocation_endpoint", "device_authorization_endpoint"):
        answered = _form(Client(), urlsplit(meta[key]).path, {"client_id": "nobody"})
        assert answered.status_code in (400, 401) and "error" in answered.json(), key


def test_client_credentials_are_refused_even_for_an_app_registered_for_them(db: None) -> None:
    server = _app(
        "Club server", Application.GRANT_CLIENT_CREDENTIALS,
        client_type=Application.CLIENT_CONFIDENTIAL, client_secret="server-secret",
    )  # fmt: skip
    basic = base64.b64encode(f"{server.client_id}:server-secret".encode()).decode()
    refused = _form(
        Client(), "/oauth/token/", {"grant_type": "client_credentials", "scope": "read"},
        HTTP_AUTHORIZATION=f"Basic {basic}",
    )  # fmt: skip
    assert refused.status_code == 400 and refused.json()["error"] == "unauthorized_client"
    assert not AccessToken.objects.exists()


# --- RFC 8628: the device grant -----------------------------------------------------------------


def _device(client: Client, app: Application, scope: str = "read") -> Any:
    return _form(
        client, "/oauth/device-authorization/", {"client_id": app.client_id, "scope": scope}
    )


def _poll(client: Client, app: Application, device_code: str) -> Any:
    return _form(client, "/oauth/token/", {
        "grant_type": DEVICE_GRANT, "device_code": device_code, "client_id": app.client_id,
    })  # fmt: skip


def test_the_code_is_taken_as_a_person_types_it(
    standing: Any, tv_app: Application, scorer: Any
) -> None:
    device = _device(Client(), tv_app).json()
    code = device["user_code"]
    assert code.isalnum() and code == code.upper()
    phone = _logged_in(scorer)
    for typed in (f"{code[:4].lower()}-{code[4:].lower()}", f" {code[:4]} {code[4:].lower()} "):
        entered = phone.post("/oauth/device/", {"user_code": typed})
        assert entered.status_code == 302, entered.content
        assert entered["Location"] == f"/oauth/device/{tv_app.client_id}/{code}/"
    club = standing.club
    accepted = phone.post(entered["Location"], {"action": "accept", "clubs": [str(club.pk)]})
    assert accepted.status_code == 302
    # Used, expired or unknown codes are named as such, whatever their case.
    used = phone.post("/oauth/device/", {"user_code": code.lower()})
    assert "That code has already been used" in used.content.decode()
    tokens = _poll(Client(), tv_app, device["device_code"])
    assert tokens.status_code == 200 and tokens.json()["clubs"] == [club.pk]
    later = _device(Client(), tv_app).json()
    DeviceGrant.objects.filter(device_code=later["device_code"]).update(
        expires=timezone.now() - timedelta(seconds=1)
    )
    expired = phone.post("/oauth/device/", {"user_code": later["user_code"].lower()})
    assert "has expired" in expired.content.decode()
    unknown = phone.post("/oauth/device/", {"user_code": "zz-zz"})
    assert unknown.status_code == 200 and "Incorrect user code" in unknown.content.decode()


def test_the_complete_verification_uri_fills_in_the_code(tv_app: Application, scorer: Any) -> None:
    device = _device(Client(), tv_app).json()
    complete = urlsplit(device["verification_uri_complete"])
    assert f"{complete.scheme}://{complete.netloc}{complete.path}" == device["verification_uri"]
    assert parse_qs(complete.query) == {"user_code": [device["user_code"]]}
    link = f"{complete.path}?{complete.query}"
    # Logged out, the login page leads back to it with the code.
    to_login = Client().get(link)
    assert to_login.status_code == 302
    assert parse_qs(urlsplit(to_login["Location"]).query)["next"] == [link]
    page = _logged_in(scorer).get(link)
    html = page.content.decode()
    assert page.status_code == 200 and f'value="{device["user_code"]}"' in html
    assert "Check that this is the code" in html
    # The person still confirms (the page does not approve by itself).
    assert DeviceGrant.objects.get(device_code=device["device_code"]).user is None


def test_a_device_polling_too_fast_is_told_to_slow_down(tv_app: Application) -> None:
    tv = Client()
    device = _device(tv, tv_app).json()
    assert device["interval"] == 5
    first = _poll(tv, tv_app, device["device_code"])
    assert first.status_code == 400 and first.json()["error"] == "authorization_pending"
    assert first["Cache-Control"] == "no-store"
    again = _poll(tv, tv_app, device["device_code"])
    assert again.status_code == 400 and again.json()["error"] == "slow_down"
    assert "wait at least 10 s" in again.json()["error_description"]
    assert DeviceGrant.objects.get().interval == 10
    # Still too fast: the interval grows again, for this device only.
    assert _poll(tv, tv_app, device["device_code"]).json()["error"] == "slow_down"
    other = _device(tv, tv_app).json()
    assert _poll(tv, tv_app, other["device_code"]).json()["error"] == "authorization_pending"
    grant = DeviceGrant.objects.get(device_code=device["device_code"])
    assert grant.interval == 15
    assert DeviceGrant.objects.get(device_code=other["device_code"]).interval == 5
    # A device that waits its (new) interval is answered as pending again.
    DeviceGrant.objects.filter(pk=grant.pk).update(
        last_checked=timezone.now() - timedelta(seconds=15)
    )
    waited = _poll(tv, tv_app, device["device_code"])
    assert waited.json()["error"] == "authorization_pending"


def test_device_codes_only_for_device_apps_and_only_for_theirs(
    phone_app: Application, tv_app: Application
) -> None:
    tv = Client()
    refused = _device(tv, phone_app)
    assert refused.status_code == 400 and refused.json()["error"] == "unauthorized_client"
    assert "not registered for the device grant" in refused.json()["error_description"]
    for scope in ("read club:1", "read write"):
        asked = _device(tv, tv_app, scope)
        assert asked.status_code == 400 and asked.json()["error"] == "invalid_scope", scope
    assert not DeviceGrant.objects.exists()
    unknown = _form(tv, "/oauth/device-authorization/", {"client_id": "nobody"})
    assert unknown.status_code == 401 and unknown.json()["error"] == "invalid_client"

    device = _device(tv, tv_app).json()
    other_tv = _app("Other TV", Application.GRANT_DEVICE_CODE)
    stolen = _poll(tv, other_tv, device["device_code"])
    assert stolen.status_code == 400 and stolen.json()["error"] == "invalid_grant"
    by_a_phone = _poll(tv, phone_app, device["device_code"])
    assert by_a_phone.status_code == 400 and by_a_phone.json()["error"] == "unauthorized_client"
    missing = _form(
        tv, "/oauth/token/", {"grant_type": DEVICE_GRANT, "client_id": tv_app.client_id}
    )
    assert missing.status_code == 400 and missing.json()["error"] == "invalid_request"
    assert "device_code is missing" in missing.json()["error_description"]
    unknown_code = _poll(tv, tv_app, "no-such-code")
    assert unknown_code.status_code == 400 and unknown_code.json()["error"] == "invalid_grant"
    DeviceGrant.objects.update(expires=timezone.now() - timedelta(seconds=1))
    expired = _poll(tv, tv_app, device["device_code"])
    assert expired.status_code == 400 and expired.json()["error"] == "expired_token"


# --- RFC 6749 4.1.2: a code is used once ------------------------------------------------------


def _consented_code(browser: Client, app: Application, club_pk: int) -> tuple[str, str]:
    verifier, challenge = _pkce()
    query = {
        "response_type": "code", "client_id": app.client_id, "redirect_uri": REDIRECT,
        "scope": "read score", "state": "s-1", "code_challenge": challenge,
        "code_challenge_method": "S256",
    }  # fmt: skip
    page = browser.get("/oauth/authorize/?" + urlencode(query))
    assert page.status_code == 200, page.content
    form = page.context["form"]
    fields = {name: form[name].value() or "" for name in form.fields if name != "allow"}
    allowed = browser.post(
        "/oauth/authorize/", {**fields, "allow": "Authorize", "clubs": [str(club_pk)]}
    )
    return parse_qs(urlsplit(allowed["Location"]).query)["code"][0], verifier


def _trade(app: Application, code: str, verifier: str) -> Any:
    return _form(Client(), "/oauth/token/", {
        "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
        "client_id": app.client_id, "code_verifier": verifier,
    })  # fmt: skip


def test_a_code_traded_twice_is_refused_and_revokes_what_it_gave(
    standing: Any, phone_app: Application, scorer: Any
) -> None:
    browser = _logged_in(scorer)
    code, verifier = _consented_code(browser, phone_app, standing.club.pk)
    first = _trade(phone_app, code, verifier)
    assert first.status_code == 200, first.content
    tokens = first.json()
    # The app refreshes: the new tokens came from the same code all the same.
    refreshed = _form(Client(), "/oauth/token/", {
        "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
        "client_id": phone_app.client_id,
    }).json()  # fmt: skip
    assert _api(refreshed["access_token"]).get("/api/v1/clubs/home/").status_code == 200
    # Another sign-in of the same person and app, from another code, is not touched.
    other_code, other_verifier = _consented_code(browser, phone_app, standing.club.pk)
    other = _trade(phone_app, other_code, other_verifier).json()

    replayed = _trade(phone_app, code, verifier)
    assert replayed.status_code == 400 and replayed.json()["error"] == "invalid_grant"
    assert "already used" in replayed.json()["error_description"]
    assert _api(refreshed["access_token"]).get("/api/v1/clubs/home/").status_code == 401
    again = _form(Client(), "/oauth/token/", {
        "grant_type": "refresh_token", "refresh_token": refreshed["refresh_token"],
        "client_id": phone_app.client_id,
    })  # fmt: skip
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert _api(other["access_token"]).get("/api/v1/clubs/home/").status_code == 200
    # Without the verifier (an attacker with the code alone) the replay revokes just the same.
    third_code, third_verifier = _consented_code(browser, phone_app, standing.club.pk)
    third = _trade(phone_app, third_code, third_verifier).json()
    stolen = _form(Client(), "/oauth/token/", {
        "grant_type": "authorization_code", "code": third_code, "redirect_uri": REDIRECT,
        "client_id": phone_app.client_id,
    })  # fmt: skip
    assert stolen.status_code == 400 and stolen.json()["error"] == "invalid_grant"
    assert _api(third["access_token"]).get("/api/v1/clubs/home/").status_code == 401
    # Only digests of the codes are kept.
    assert not SpentAuthorizationCode.objects.filter(digest__in=[code, other_code]).exists()
    assert SpentAuthorizationCode.objects.count() == 3 and not Grant.objects.exists()


@pytest.mark.postgres
@pytest.mark.usefixtures("postgres_tx")
def test_a_code_traded_twice_at_the_same_moment_gives_no_live_token(live_server: Any) -> None:
    """Two trades of one code racing each other: at most one gets tokens, and those are
    revoked, whichever way the two interleave. (PostgreSQL: the SQLite test database is one
    in-memory connection that the live server's threads share, so nothing there runs apart.)"""
    club = ClubFactory(name="Home Club", slug="home")
    person = MembershipFactory(club=club, user__username="racer").user
    person.set_password(PASSWORD)
    person.save()
    app = _app("Score Phone", Application.GRANT_AUTHORIZATION_CODE, redirect_uris=REDIRECT)
    # Ten times: the two interleave differently from one time to the next.
    for _ in range(10):
        code, verifier = _consented_code(_logged_in(person), app, club.pk)
        answers: list[int] = []
        start = threading.Barrier(2)

        def trade(
            code: str = code,
            verifier: str = verifier,
            start: threading.Barrier = start,
            answers: list[int] = answers,
        ) -> None:
            start.wait()
            answers.append(requests.post(f"{live_server.url}/oauth/token/", data={
                "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
                "client_id": app.client_id, "code_verifier": verifier,
            }, timeout=30).status_code)  # fmt: skip

        racers = [threading.Thread(target=trade) for _ in range(2)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
        assert sorted(answers) in ([200, 400], [400, 400]), answers
        assert not RefreshToken.objects.filter(revoked__isnull=True).exists()
        assert not AccessToken.objects.exists()


# --- RFC 7636: PKCE with S256, before the consent page ------------------------------------------


@pytest.mark.parametrize(
    ("pkce", "says"),
    [
        ({"code_challenge_method": "plain"}, "code_challenge_method must be S256, not plain"),
        ({}, "code_challenge_method must be S256, not absent"),
        ({"code_challenge": None}, "code_challenge is missing"),
        ({"code_challenge": None, "code_challenge_method": None}, "code_challenge is missing"),
        ({"code_challenge": "too-short", "code_challenge_method": "S256"}, "43 characters"),
    ],
)
def test_pkce_other_than_s256_is_refused_before_the_consent_page(
    phone_app: Application, scorer: Any, pkce: dict[str, Any], says: str
) -> None:
    _verifier, challenge = _pkce()
    query = {
        "response_type": "code", "client_id": phone_app.client_id, "redirect_uri": REDIRECT,
        "scope": "read", "state": "s-9", "code_challenge": challenge, **pkce,
    }  # fmt: skip
    query = {key: value for key, value in query.items() if value is not None}
    asked = _logged_in(scorer).get("/oauth/authorize/?" + urlencode(query))
    assert asked.status_code == 302, asked.content
    back = urlsplit(asked["Location"])
    assert f"{back.scheme}://{back.netloc}{back.path}" == REDIRECT
    answer = parse_qs(back.query)
    assert answer["error"] == ["invalid_request"] and answer["state"] == ["s-9"]
    assert says in answer["error_description"][0]
    assert "code" not in answer and not Grant.objects.exists()


def test_pkce_refusals_with_a_bad_redirect_are_shown_not_redirected(
    phone_app: Application, scorer: Any
) -> None:
    _verifier, challenge = _pkce()
    query = {
        "response_type": "code", "client_id": phone_app.client_id,
        "redirect_uri": "https://elsewhere.example/cb", "scope": "read",
        "code_challenge": challenge, "code_challenge_method": "plain",
    }  # fmt: skip
    shown = _logged_in(scorer).get("/oauth/authorize/?" + urlencode(query))
    assert shown.status_code == 400
    assert "The app's request is not valid" in shown.content.decode()


def test_a_consent_form_altered_to_plain_gives_no_code(
    phone_app: Application, standing: Any, scorer: Any
) -> None:
    browser = _logged_in(scorer)
    _verifier, challenge = _pkce()
    query = {
        "response_type": "code", "client_id": phone_app.client_id, "redirect_uri": REDIRECT,
        "scope": "read", "state": "s-3", "code_challenge": challenge,
        "code_challenge_method": "S256",
    }  # fmt: skip
    form = browser.get("/oauth/authorize/?" + urlencode(query)).context["form"]
    fields = {name: form[name].value() or "" for name in form.fields if name != "allow"}
    fields["code_challenge_method"] = "plain"
    sent = browser.post(
        "/oauth/authorize/", {**fields, "allow": "Authorize", "clubs": [str(standing.club.pk)]}
    )
    assert sent.status_code == 302 and "error=invalid_request" in sent["Location"]
    assert not Grant.objects.exists()
    forged = browser.post("/oauth/authorize/", {**fields, "client_id": "nobody", "allow": "1"})
    assert forged.status_code == 400 and "No app has this client id" in forged.content.decode()


# --- Registering an app from the command line -----------------------------------------------------


def _command(*args: str) -> str:
    out = StringIO()
    call_command("oauth_app_create", *args, stdout=out)
    return out.getvalue()


def test_the_command_prints_the_client_id(standing: Any, scorer: Any) -> None:
    printed = _command(
        "public", "authorization-code", "--name", "Score Phone",
        "--redirect-uris", f"rummyclub://signed-in {REDIRECT}",
    )  # fmt: skip
    phone = Application.objects.get(name="Score Phone")
    assert f"client_id: {phone.client_id}" in printed and "client_secret" not in printed
    assert phone.redirect_uris == f"rummyclub://signed-in {REDIRECT}"
    assert not phone.skip_authorization and phone.user is None and phone.client_secret == ""
    # The printed id signs in.
    code, verifier = _consented_code(_logged_in(scorer), phone, standing.club.pk)
    assert _trade(phone, code, verifier).status_code == 200

    tv = _command("public", DEVICE_GRANT, "--name", "Club TV")
    tv_id = tv.split("client_id: ")[1].split()[0]
    asked = _device(Client(), Application.objects.get(client_id=tv_id))
    assert asked.status_code == 200, asked.content

    server = _command(
        "confidential", "authorization-code", "--name", "Club server",
        "--redirect-uris", "https://scores.example/signed-in", "--user", "owner",
    )  # fmt: skip
    server_id = server.split("client_id: ")[1].split()[0]
    secret = server.split("client_secret: ")[1].split()[0]
    app = Application.objects.get(client_id=server_id)
    assert app.user == standing.owner and app.client_secret != secret  # kept hashed
    basic = base64.b64encode(f"{server_id}:{secret}".encode()).decode()
    looked = _form(
        Client(), "/oauth/introspect/", {"token": "nothing"}, HTTP_AUTHORIZATION=f"Basic {basic}"
    )
    assert looked.status_code == 200 and looked.json() == {"active": False}
    assert AuditEntry.objects.filter(action="app.register").count() == 3


COMMAND_REFUSALS = [
    (["public", "client-credentials"], "grant: 'client-credentials' is not offered"),
    (["public", "password"], "grant: 'password' is not offered"),
    (["public", "authorization-code"], "redirect_uris: give at least one"),
    (["public", "authorization-code", "--redirect-uris", "http://a.example/cb"], "plain http only"),
    (["public", "device", "--redirect-uris", REDIRECT], "leave the redirect URIs empty"),
    (["public", "device", "--name", "  "], "name: give the app a name"),
    (["public", "device", "--user", "nobody"], "no account named 'nobody'"),
    (["public", "device", "--user", "scorer"], "only a club's owner"),
]


@pytest.mark.parametrize(("args", "says"), COMMAND_REFUSALS)
def test_the_command_names_what_is_wrong(standing: Any, args: list[str], says: str) -> None:
    with pytest.raises(CommandError) as refused:
        _command("--name", "X", *args)
    assert says in str(refused.value)
    assert not Application.objects.exists()
