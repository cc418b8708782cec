"""Playwright driving Debian's Chromium against pytest-django's live server (tasks run eagerly, so
a submitted deal is decided before its page loads).

Without Chromium (or the playwright package) these tests skip with the reason, and fail instead
when ``REQUIRE_SERVICES=1``. Screenshots go to ``test-artifacts/screenshots/`` (git-ignored)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import service_absent

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]  # fmt: skip
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
WIDE = {"width": 1920, "height": 1080}  # a projector, a big screen
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module, stopped at its end.

    Playwright's sync API runs an event loop in this thread, so Django would refuse the tests'
    own (synchronous) ORM calls; it is told not to, for these modules only, never beyond them."""
    if not os.path.exists(CHROMIUM):
        service_absent(f"needs Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        service_absent("needs the playwright package (pip install playwright)")
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def login_cookie(user: Any, live_server: Any) -> dict[str, Any]:
    """A session cookie for ``user``, so a test starts logged in without typing."""
    client = Client()
    client.force_login(user)
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": live_server.url,
    }


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keeps each phase's report on the test, so a failed test's pages can be described."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def describe_pages(contexts: list[Any]) -> None:
    """Prints where each open page was and the start of what it showed: a failure seen only in a
    CI log then says which page a locator waited on."""
    for number, context in enumerate(contexts, 1):
        for page in context.pages:
            try:
                shown = page.locator("body").inner_text(timeout=2_000)
            except Exception as error:  # a closed or hung page still gets its URL printed
                shown = f"(unreadable: {error.__class__.__name__})"
            print(f"context {number}: {page.url}\n  {' '.join(shown.split())[:600]}")


@pytest.fixture
def new_page(request: pytest.FixtureRequest, browser: Any, live_server: Any) -> Iterator[Any]:
    """``new_page(viewport=PHONE, user=None)``: a page in a fresh context, logged in as ``user``."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int] = PHONE, user: Any = None) -> Any:
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        # Generous for a loaded CI machine: the first load of a page with the picker can take
        # several seconds there; the tests' own expectations keep their tighter figures.
        context.set_default_timeout(20_000)
        if user is not None:
            context.add_cookies([login_cookie(user, live_server)])
        contexts.append(context)
        return context.new_page()

    yield make
    called = getattr(request.node, "report_call", None)
    if called is not None and called.failed:
        describe_pages(contexts)
    for context in contexts:
        context.close()


def shoot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def club_site(standing: Any) -> Any:
    """Every page a club uses, of one club built for the test (tests/browser/club_site.py)."""
    from tests.browser.club_site import club_site as build

    return build(standing)
