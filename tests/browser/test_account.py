"""A person's account in a real browser: resetting a forgotten password from the emailed link
(read from the test mail box), changing it, and creating an API token (its key shown once, with a
copy button and a curl example), using it against the API, then revoking it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from rest_framework.test import APIClient

from clubs.models import ApiToken
from tests.browser.conftest import PHONE, shoot
from tests.browser.test_night import expect_text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_resetting_a_forgotten_password_from_the_emailed_link(new_page: Any, standing: Any):
    standing.player.email = "player@example.com"
    standing.player.save()
    page = new_page(PHONE)
    page.goto("/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill("player@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect_text(page.locator("h1"), "Check your email")
    (message,) = mail.outbox
    link = re.search(r"https?://[^/\s]+(/account/password/reset/\S+/)", message.body)
    assert link is not None, message.body
    page.goto(link.group(1))
    page.get_by_label("New password", exact=True).fill("a-much-longer-pass-42")
    page.get_by_label("New password confirmation").fill("a-much-longer-pass-42")
    page.get_by_role("button", name="Set the password").click()
    expect_text(page.locator("h1"), "Password set")
    page.goto("/login/")
    page.get_by_label("Username").fill("player")
    page.get_by_label("Password").fill("a-much-longer-pass-42")
    page.get_by_role("button", name="Log in").click()
    expect_text(page.locator(".account"), "player")
    shoot(page, "account-after-reset-phone")


def test_creating_an_api_token_using_it_and_revoking_it(new_page: Any, standing: Any):
    page = new_page(PHONE, user=standing.scorer)
    page.goto("/account/")
    page.get_by_label("New token for").fill("Scoring tablet")
    page.get_by_role("button", name="Create token").click()
    key = page.locator("#token-key").inner_text().strip()
    expect_text(page.locator("#new-key pre"), re.escape(key))
    shoot(page, "account-token-created-phone")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/v1/clubs/home/").status_code == 200
    page.reload()  # the key is not shown again
    assert page.locator("#token-key").count() == 0
    page.get_by_role("button", name="Revoke Scoring tablet").click()
    expect_text(page.locator(".messages"), "revoked")
    assert ApiToken.objects.get(name="Scoring tablet").revoked_at is not None
    assert client.get("/api/v1/clubs/home/").status_code == 401
