"""Signing an app in, in a real browser: the consent page (what the app asks, which clubs), the
app's token used against the API, the person's Apps page and the club's list of apps, signing
the app out; the device page. On a phone (390 px) and a desktop (1280 px)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.test import Client
from oauth2_provider.models import Application
from rest_framework.test import APIClient

from clubs.models import Role
from tests.browser.conftest import DESKTOP, PHONE, SHOTS, shoot
from tests.browser.test_formats import no_overflow
from tests.browser.test_night import expect_text
from tests.factories import ClubFactory, MembershipFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REDIRECT = "http://127.0.0.1:8765/callback"


def _sign_in(page: Any, app: Application) -> dict[str, Any]:
    """The app's authorization request in the browser: consent with the home club, then the
    code traded for tokens as the app would."""
    verifier = secrets.token_urlsafe(48)
    challenge = (
        base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    )
    page.route("http://127.0.0.1:8765/**", lambda route: route.fulfill(body="signed in"))
    query = {
        "response_type": "code", "client_id": app.client_id, "redirect_uri": REDIRECT,
        "scope": "read score", "state": "st", "code_challenge": challenge,
        "code_challenge_method": "S256",
    }  # fmt: skip
    page.goto("/oauth/authorize/?" + urlencode(query))
    expect_text(page.locator("h1"), "Score Phone")
    no_overflow(page, "consent")
    shoot(page, f"oauth-consent-{page.viewport_size['width']}")
    page.get_by_label("Home Club").check()
    page.get_by_role("button", name="Allow").click()
    page.wait_for_url(REDIRECT + "**")
    code = parse_qs(urlsplit(page.url).query)["code"][0]
    answer = Client().post(
        "/oauth/token/",
        urlencode({
            "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
            "client_id": app.client_id, "code_verifier": verifier,
        }),
        content_type="application/x-www-form-urlencoded",
    )  # fmt: skip
    assert answer.status_code == 200, answer.content
    return answer.json()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_consent_apps_page_and_signing_out(new_page: Any, standing: Any, viewport: Any):
    MembershipFactory(
        user=standing.scorer, club=ClubFactory(name="Elsewhere", slug="elsewhere"), role=Role.OWNER
    )
    app = Application.objects.create(
        name="Score Phone", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT, algorithm="",
    )  # fmt: skip
    page = new_page(viewport, user=standing.scorer)
    tokens = _sign_in(page, app)
    assert tokens["scope"] == "read score" and tokens["clubs"] == [standing.club.pk]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['access_token']}")
    assert api.get("/api/v1/clubs/home/players/").status_code == 200

    page.goto("/account/apps/")
    row = page.locator("#apps li", has_text="Score Phone")
    expect_text(row, "read, score")
    expect_text(row, "Home Club")
    assert "Elsewhere" not in row.inner_text()
    no_overflow(page, "apps page")
    shoot(page, f"account-apps-{viewport['width']}")

    owner = new_page(viewport, user=standing.owner)
    owner.goto("/clubs/home/settings/#apps")
    expect_text(owner.locator("#apps"), "Score Phone")
    expect_text(owner.locator("#apps"), "for scorer")
    no_overflow(owner, "club settings")
    SHOTS.mkdir(parents=True, exist_ok=True)
    owner.locator("#apps").screenshot(path=str(SHOTS / f"club-apps-{viewport['width']}.png"))

    page.get_by_role("button", name="Sign out Score Phone").click()
    expect_text(page.locator(".messages"), "Signed out")
    assert api.get("/api/v1/clubs/home/players/").status_code == 401


def test_the_device_page_on_a_phone(new_page: Any, standing: Any):
    tv = Application.objects.create(
        name="Club TV", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_DEVICE_CODE, algorithm="",
    )  # fmt: skip
    device = (
        Client()
        .post(
            "/oauth/device-authorization/",
            urlencode({"client_id": tv.client_id, "scope": "read"}),
            content_type="application/x-www-form-urlencoded",
        )
        .json()
    )
    page = new_page(PHONE, user=standing.scorer)
    page.goto("/oauth/device/")
    page.get_by_label("Code").fill(device["user_code"])
    page.get_by_role("button", name="Continue").click()
    expect_text(page.locator("h1"), "Club TV")
    no_overflow(page, "device consent")
    shoot(page, "oauth-device-consent-390")
    page.get_by_label("Home Club").check()
    page.get_by_role("button", name="Allow").click()
    expect_text(page.locator("h1"), "connected")
    shoot(page, "oauth-device-done-390")
