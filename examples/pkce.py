"""Signing an app in with OAuth2, authorization code with PKCE, as a phone or web app does.

A real app opens the authorization URL in the person's browser and receives the code at its
redirect URI; so that the examples run unattended, this plays the person too: it logs in on the
login page and ticks the club on the consent page. Only the standard library and httpx."""

from __future__ import annotations

import base64
import hashlib
import html
import re
import secrets
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx

_INPUT = re.compile(r"<input\b[^>]*>")
_ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')


class SignInRefused(Exception):
    """The login, the consent or the token exchange said no; the message says which and why."""


def _inputs(page: str) -> list[dict[str, str]]:
    """Each input's attributes; a box ticked on the page has ``checked`` among them."""
    return [
        {k: html.unescape(v) for k, v in _ATTR.findall(tag)}
        | ({"checked": "checked"} if re.search(r"\schecked\b", tag) else {})
        for tag in _INPUT.findall(page)
    ]


def _log_in(browser: httpx.Client, username: str, password: str) -> None:
    page = browser.get("/login/").text
    csrf = next(i["value"] for i in _inputs(page) if i.get("name") == "csrfmiddlewaretoken")
    answer = browser.post(
        "/login/",
        data={"username": username, "password": password, "csrfmiddlewaretoken": csrf},
        headers={"Referer": str(browser.base_url) + "/login/"},
    )
    if answer.status_code != 302:
        raise SignInRefused(f"login refused ({answer.status_code})")


def sign_in(
    base: str, *, client_id: str, redirect_uri: str, username: str, password: str, club: str,
    scope: str,
) -> dict[str, Any]:  # fmt: skip
    """The tokens (`access_token`, `refresh_token`, `scope`, `expires_in`) for ``scope`` in the
    club whose slug is ``club``, granted by ``username``."""
    verifier = secrets.token_urlsafe(48)
    challenge = (
        base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    )
    state = secrets.token_urlsafe(16)
    query = {
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
        "scope": scope, "state": state, "code_challenge": challenge,
        "code_challenge_method": "S256",
    }  # fmt: skip
    with httpx.Client(base_url=base, timeout=30) as browser:
        _log_in(browser, username, password)
        consent = browser.get("/oauth/authorize/?" + urlencode(query))
        consent.raise_for_status()
        fields = _inputs(consent.text)
        form = {i["name"]: i.get("value", "") for i in fields if i.get("type") == "hidden"}
        ticked = next((i for i in fields if i.get("data-slug") == club), None)
        if ticked is None:
            raise SignInRefused(f"the consent page offers no club {club!r}")
        # The scopes the page shows ticked (the person could untick some, never add one).
        granted = [i["value"] for i in fields if i.get("name") == "grant" and "checked" in i]
        allowed = browser.post(
            "/oauth/authorize/",
            data={**form, "allow": "Authorize", "clubs": ticked["value"], "grant": granted},
            headers={"Referer": str(consent.url)},
        )
    back = urlsplit(allowed.headers.get("location", ""))
    answer = parse_qs(back.query)
    if answer.get("state") != [state] or "code" not in answer:
        raise SignInRefused(
            f"the consent did not answer a code: {allowed.status_code} {back.query}"
        )
    tokens = httpx.post(f"{base}/oauth/token/", data={
        "grant_type": "authorization_code", "code": answer["code"][0],
        "redirect_uri": redirect_uri, "client_id": client_id, "code_verifier": verifier,
    })  # fmt: skip
    tokens.raise_for_status()
    return tokens.json()  # type: ignore[no-any-return]
