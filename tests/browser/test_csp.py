"""The pages run under the Content-Security-Policy (no inline script anywhere): a real Chromium
visits the main pages, enters a deal on the card picker's page, and sees no violation."""

from __future__ import annotations

from typing import Any

import pytest

from clubs import services as club_services
from tests.browser.conftest import DESKTOP
from tests.scoring.conftest import make_night
from tests.scoring.helpers import enter_deal
from tests.scoring.test_queries import deal_result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
    window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


@pytest.mark.slow
def test_main_pages_show_no_csp_violation(new_page: Any, standing: Any):
    night = make_night(standing)
    enter_deal(night.game, standing.scorer, deal_result(night))
    club_services.club_update(club=standing.club, actor=standing.owner, public_standings=True)
    page = new_page(viewport=DESKTOP, user=standing.organiser)
    page.add_init_script(WATCH)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Security Policy" in m.text else None)
    paths = [
        "/",
        "/clubs/home/",
        f"/clubs/home/sessions/{night.session.pk}/",
        f"/clubs/home/games/{night.game.pk}/",
        f"/clubs/home/games/{night.game.pk}/deals/new/",
        f"/clubs/home/players/{night.pid('Asha')}/",
        "/clubs/home/standings/",
        "/clubs/home/settings/",
        "/p/home/standings/",
        "/api/docs/",
    ]
    seen = {}
    for path in paths:
        response = page.goto(path)
        assert response is not None and response.status < 400, path
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert "camera=()" in response.headers["permissions-policy"]
        page.wait_for_load_state("networkidle")
        seen[path] = page.evaluate("window.__violations")
    assert all(not v for v in seen.values()), seen
    assert not console, console
