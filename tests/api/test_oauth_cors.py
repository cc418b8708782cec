"""CORS for registered web apps: the API and the token and revocation endpoints answer the
origins of registered apps' redirect URIs (https, or http to loopback) and nobody else's, with
the headers a browser app needs; the origins are cached and forgotten when an app changes. Last,
a real Chromium on another origin calls the API, as a web app's page would."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from oauth2_provider.models import Application

from clubs.signin import cors, services
from tests.api.test_oauth import _form
from tests.api.test_oauth_app_registration import PAGE, _browser, _register, _send
from tests.conftest import service_absent

WEB_APP = "https://scores.example"
LOOPBACK_APP = "http://127.0.0.1:8765"


@pytest.fixture(autouse=True)
def _origins_read_afresh() -> Iterator[None]:
    """Each test's apps are its own: a rolled-back test leaves no origins in the cache."""
    cache.delete(cors.CACHE_KEY)
    yield
    cache.delete(cors.CACHE_KEY)


@pytest.fixture
def web_app(standing: Any) -> Application:
    app, _secret = services.oauth_app_register(
        user=standing.owner, name="Scores on the web", client_type="public",
        grant="authorization-code",
        redirect_uris=f"{WEB_APP}:443/signed-in {LOOPBACK_APP}/callback rummyclub://signed-in",
    )  # fmt: skip
    return app


@pytest.fixture
def key(standing: Any) -> str:
    _token, key = services.api_token_create(user=standing.scorer, name="board")
    return key


def _preflight(path: str, origin: str, method: str = "POST") -> Any:
    return Client().options(
        path, HTTP_ORIGIN=origin, HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, idempotency-key",
    )  # fmt: skip


def _vary(response: Any) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",")}


@pytest.mark.parametrize("origin", [WEB_APP, LOOPBACK_APP])
def test_a_registered_apps_origin_may_call_the_api(
    web_app: Application, key: str, origin: str
) -> None:
    preflight = _preflight("/api/v1/clubs/home/players/", origin)
    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == origin
    assert (
        preflight["Access-Control-Allow-Headers"] == "authorization, content-type, idempotency-key"
    )
    assert "POST" in preflight["Access-Control-Allow-Methods"]
    assert "origin" in _vary(preflight) and "Access-Control-Allow-Credentials" not in preflight
    api = Client(HTTP_AUTHORIZATION=f"Bearer {key}", HTTP_ORIGIN=origin)
    listed = api.get("/api/v1/clubs/")
    assert listed.status_code == 200
    assert listed["Access-Control-Allow-Origin"] == origin and "origin" in _vary(listed)
    assert listed["Access-Control-Expose-Headers"] == (
        "Location, Idempotent-Replayed, Retry-After, ETag, RateLimit-Limit, RateLimit-Remaining,"
        " RateLimit-Reset, RateLimit-Policy, Deprecation, Sunset, Link"
    )
    # Errors carry the headers too, so the page can read them.
    refused = Client(HTTP_ORIGIN=origin).get("/api/v1/clubs/")
    assert refused.status_code == 401 and refused["Access-Control-Allow-Origin"] == origin


def test_the_token_and_revocation_endpoints_answer_it(web_app: Application) -> None:
    for path in ("/oauth/token/", "/oauth/revoke/"):
        preflight = _preflight(path, WEB_APP)
        assert preflight["Access-Control-Allow-Origin"] == WEB_APP, path
    answered = _form(
        Client(), "/oauth/token/", {"grant_type": "refresh_token", "refresh_token": "x",
                                    "client_id": web_app.client_id}, HTTP_ORIGIN=WEB_APP,
    )  # fmt: skip
    assert answered.status_code == 400 and answered["Access-Control-Allow-Origin"] == WEB_APP
    revoked = _form(
        Client(), "/oauth/revoke/", {"token": "x", "client_id": web_app.client_id},
        HTTP_ORIGIN=WEB_APP,
    )  # fmt: skip
    assert revoked.status_code == 200 and revoked["Access-Control-Allow-Origin"] == WEB_APP


@pytest.mark.parametrize(
    "origin",
    [
        "https://elsewhere.example",
        "http://scores.example",  # the registered host, but not over https
        "https://scores.example:8443",  # another port
        "http://127.0.0.1:8766",  # another loopback port
        "null",
    ],
)
def test_any_other_origin_gets_no_cors_headers(web_app: Application, key: str, origin: str) -> None:
    preflight = _preflight("/api/v1/clubs/", origin)
    assert "Access-Control-Allow-Origin" not in preflight
    assert "Access-Control-Allow-Headers" not in preflight
    answered = Client(HTTP_AUTHORIZATION=f"Bearer {key}", HTTP_ORIGIN=origin).get("/api/v1/clubs/")
    assert answered.status_code == 200 and "Access-Control-Allow-Origin" not in answered
    assert "Access-Control-Expose-Headers" not in answered


def test_only_the_api_and_the_token_endpoints(web_app: Application) -> None:
    for path in ("/account/", "/login/", "/oauth/authorize/", "/oauth/introspect/", "/health/"):
        answered = Client(HTTP_ORIGIN=WEB_APP).get(path)
        assert "Access-Control-Allow-Origin" not in answered, path
    assert "Access-Control-Allow-Origin" not in _preflight("/oauth/introspect/", WEB_APP)


def test_an_origin_the_operator_lists_for_an_app(db: None) -> None:
    Application.objects.create(
        name="Listed", client_type="public", authorization_grant_type="authorization-code",
        redirect_uris="rummyclub://in", allowed_origins="https://listed.example", algorithm="",
    )  # fmt: skip
    preflight = _preflight("/api/v1/clubs/", "https://listed.example")
    assert preflight["Access-Control-Allow-Origin"] == "https://listed.example"


def test_the_origins_are_cached_and_follow_the_apps(standing: Any) -> None:
    owner = _browser(standing.owner)
    origin = "https://new.example"
    assert "Access-Control-Allow-Origin" not in _preflight("/api/v1/clubs/", origin)
    # Read once, then from the cache: no query for the apps on the next request.
    with CaptureQueriesContext(connection) as queries:
        _preflight("/api/v1/clubs/", origin)
    assert not [q for q in queries if "oauth2_provider_application" in q["sql"]]

    _register(owner, name="New", redirect_uris=f"{origin}/signed-in")
    assert _preflight("/api/v1/clubs/", origin)["Access-Control-Allow-Origin"] == origin
    app = Application.objects.get()
    _send(owner, f"{PAGE}{app.pk}/", {"redirect_uris": "https://moved.example/signed-in"})
    assert "Access-Control-Allow-Origin" not in _preflight("/api/v1/clubs/", origin)
    moved = _preflight("/api/v1/clubs/", "https://moved.example")
    assert moved["Access-Control-Allow-Origin"] == "https://moved.example"
    _send(owner, f"{PAGE}{app.pk}/delete/", {})
    assert "Access-Control-Allow-Origin" not in _preflight(
        "/api/v1/clubs/", "https://moved.example"
    )


# --- a web app's page in a real browser ----------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
CALL = """async ([url, key]) => {
  try {
    const answer = await fetch(url, {method: "POST", headers: {
      "Authorization": "Bearer " + key, "Content-Type": "application/json",
      "Idempotency-Key": "add-dev"}, body: JSON.stringify({name: "Dev"})});
    return {status: answer.status, replayed: answer.headers.get("Idempotent-Replayed"),
            body: await answer.json()};
  } catch (error) { return {blocked: String(error)}; }
}"""


@pytest.fixture
def chromium() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        service_absent(f"needs Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        service_absent("needs the playwright package (pip install playwright)")
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        # Playwright's event loop runs in this thread; the test's own ORM calls are synchronous.
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser
        finally:
            browser.close()


class _AppPage(BaseHTTPRequestHandler):
    """A web app's own server: any path is its page (which calls the API by script)."""

    def do_GET(self) -> None:
        body = b"<!doctype html><title>Web scores</title><p>A score app's page.</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def _app_server() -> Iterator[str]:
    """A page server on a loopback port of its own; its origin."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _AppPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.browser
@pytest.mark.usefixtures("transactional_db")
def test_a_web_apps_page_calls_the_api_from_its_origin(
    live_server: Any, chromium: Any, standing: Any
) -> None:
    """A page served from the app's registered loopback origin posts to the API with a bearer
    token and an Idempotency-Key (so the browser sends a preflight) and reads the answer and its
    exposed headers; the same page from an origin no app registered is blocked by the browser."""
    _token, key = services.api_token_create(user=standing.organiser, name="web")
    url = f"{live_server.url}/api/v1/clubs/home/players/"
    with _app_server() as registered, _app_server() as unregistered:
        services.oauth_app_register(
            user=standing.owner, name="Web scores", client_type="public",
            grant="authorization-code", redirect_uris=f"{registered}/callback",
        )  # fmt: skip
        context = chromium.new_context()
        try:
            page = context.new_page()
            page.goto(f"{registered}/app")
            answered = page.evaluate(CALL, [url, key])
            assert answered.get("status") == 201, answered
            assert answered["body"]["name"] == "Dev" and answered["replayed"] is None
            # Sent again (a retry): the same answer, and the page can read that it is a replay.
            again = page.evaluate(CALL, [url, key])
            assert again.get("status") == 201 and again["replayed"] == "true", again
            assert again["body"]["id"] == answered["body"]["id"]

            page.goto(f"{unregistered}/app")
            blocked = page.evaluate(CALL, [url, key])
            assert "blocked" in blocked, blocked
        finally:
            context.close()
    assert standing.club.players.filter(name="Dev").count() == 1
