"""axe-core (pinned in clients/typescript/package.json) finds no WCAG 2.2 A/AA violation on any
page a club uses, in every language: English and Hebrew (right to left) on a phone (390 px) and a
laptop (1280 px), Hindi, German and Dutch on a phone. The same walk fails a page that scrolls
sideways at 390 px, that does not say its language or that shows a placeholder the translation
machinery left in its text.

One browser, one club, each page loaded once per language and audited at each width by resizing
the window (the pages' layout follows the width in CSS only), and one readable list of what
failed. axe runs as an injected script, which the site's Content-Security-Policy refuses
(rightly): only this test's contexts bypass it (tests/browser/test_csp.py keeps the policy
honest)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clubs import services as club_services
from config.catalogs import TRANSLATED
from tests.browser.club_site import Site
from tests.browser.conftest import CHROMIUM, DESKTOP, PHONE, login_cookie, shoot
from tests.conftest import service_absent

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "clients/typescript/node_modules/axe-core/axe.min.js"
STANDARDS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# Only the violations are wanted: axe then skips describing every element that passes.
RUN = """(tags) => axe.run(document, {
    runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']}).then(
    (found) => found.violations.map((v) => ({
        rule: v.id, impact: v.impact,
        targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ')),
        count: v.nodes.length})))"""
# The widths each language is audited at: the left-to-right translations differ from English
# only in their words, so a phone (where longer words overflow first) is enough for them.
WIDTHS = {"en": (PHONE, DESKTOP), "he": (PHONE, DESKTOP)} | {
    language: (PHONE,) for language in TRANSLATED if language != "he"
}
# Signs of a string the translation machinery did not fill in.
BROKEN = ("%(", ")s", "{{", "{%", "%}", "}}")


def _overflow(page: Any) -> int:
    return int(page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    ))  # fmt: skip


# A phone page's main controls (a table link's, a player's own link): 44 px tall at least.
THUMB = 44
MAIN_CONTROLS = ", ".join([
    "main button:not(.small)", "main input[type=submit]", "main select",
    "main input:not([type=hidden]):not([type=checkbox]):not([type=radio])",
])  # fmt: skip
SMALL_CONTROLS = """([selector, least]) => Array.from(document.querySelectorAll(selector))
    .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height < least)
    .map((el) => `${el.tagName.toLowerCase()}${el.name ? '[name=' + el.name + ']' : ''}`
        + ` ${Math.round(el.getBoundingClientRect().height)}px`)"""


def _pick_cards(page: Any) -> None:
    """The card picker open on a hand of two cards, one a court card."""
    page.locator(".pick-btn").first.click()
    for card in ("AS", "JS"):
        page.locator(f"#picker [data-card='{card}']").click()


def _type_tiles(page: Any) -> None:
    """A rack typed in, one tile of it not a tile: the tiles and the error shown."""
    page.locator(".tiles-input").first.fill("R5 K13 JK X9")
    page.locator(".tiles-view .rtile, .tile-view .rtile").first.wait_for()


# What is shown only once someone acts on the page: axe reads it too.
ACTING = {"/deals/new/": _pick_cards, "/result/": _pick_cards, "/enter/": _pick_cards}


def _states(page: Any, address: str) -> Iterator[str]:
    """The page as loaded, then as each way of acting on it leaves it: each state's label."""
    yield ""
    for ending, act in ACTING.items():
        if address.endswith(ending) and page.locator(".pick-btn").count():
            act(page)
            yield "(acted on) "
    if page.locator(".tiles-input").count():
        _type_tiles(page)
        yield "(tiles typed) "


def _audit(page: Any, width: int, phone_page: bool) -> list[str]:
    """axe's violations on the page as it is (rule, impact, how many, the first elements), its
    sideways scroll on a phone, a phone page's main controls under 44 px."""
    found = page.evaluate(RUN, STANDARDS)
    problems = [f"{v['rule']} ({v['impact']}, {v['count']}x) {v['targets']}" for v in found]
    if width == PHONE["width"]:
        if (wide := _overflow(page)) > 0:
            problems.append(f"{wide} px of sideways scroll")
        if phone_page:
            small = page.evaluate(SMALL_CONTROLS, [MAIN_CONTROLS, THUMB])
            problems += [f"a main control under {THUMB} px: {control}" for control in small]
    return problems


def _words(page: Any, language: str) -> list[str]:
    """The page says its language and shows no placeholder left unfilled."""
    said = page.locator("html").get_attribute("lang")
    text = page.locator("body").inner_text()
    problems = [f"says it is in {said}"] if said != language else []
    return problems + [f"shows {sign!r}" for sign in BROKEN if sign in text]


def _check(page: Any, address: str, language: str, site: Site) -> list[str]:
    """What is wrong with the page at ``address`` in ``language`` at each of its widths, as
    loaded and once acted on (``ACTING``)."""
    widths = WIDTHS[language]
    page.set_viewport_size(widths[0])
    try:
        answer = page.goto(address)
    except Exception as error:  # an answer without a page (405, a download)
        return [f"no page: {str(error).splitlines()[0]}"]
    status = answer.status if answer is not None else 0
    problems = [f"answered {status}"] if status >= 500 else []
    problems += _words(page, language)
    phone_page = address in site.phone
    for state in _states(page, address):
        for viewport in widths:
            page.set_viewport_size(viewport)
            width = viewport["width"]
            problems += [f"{width}px {state}{p}" for p in _audit(page, width, phone_page)]
    if language == "he" and address in site.looked_at:
        for viewport in widths:
            page.set_viewport_size(viewport)
            shoot(page, f"axe-he-{viewport['width']}-{site.looked_at[address]}")
    return problems


@pytest.mark.timeout(1500)
def test_axe_finds_no_violation_on_any_page_in_every_language(
    browser: Any, live_server: Any, standing: Any, club_site: Site
) -> None:
    if not AXE.exists():
        service_absent(f"needs axe-core at {AXE} (make install runs npm ci)")
    assert Path(CHROMIUM).exists()
    member = browser.new_context(viewport=PHONE, base_url=live_server.url, bypass_csp=True)
    member.add_cookies([login_cookie(standing.organiser, live_server)])
    visitor = browser.new_context(viewport=PHONE, base_url=live_server.url, bypass_csp=True)
    for context in (member, visitor):
        # Given to the browser once, run in every page it loads (no copy sent per page).
        context.add_init_script(path=str(AXE))
    failures: list[str] = []
    try:
        for language in WIDTHS:
            club_services.club_update(club=standing.club, actor=standing.owner, language=language)
            for context, seen in ((member, club_site.every), (visitor, club_site.visiting)):
                context.set_default_timeout(30_000)
                context.set_extra_http_headers({"Accept-Language": language})
                page = context.pages[0] if context.pages else context.new_page()
                for address in seen:
                    problems = _check(page, address, language, club_site)
                    failures += [f"{language} {address}: {problem}" for problem in problems]
    finally:
        member.close()
        visitor.close()
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)
