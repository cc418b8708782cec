"""axe-core (pinned in clients/typescript/package.json) finds no WCAG 2.2 A/AA violation on any
page a club uses, in English and in Hebrew (right to left), on a phone (390 px) and a laptop
(1280 px): one browser for every page, language and width, and one readable list of what failed.

axe runs as an injected script, which the site's Content-Security-Policy refuses (rightly): only
this test's contexts bypass it (tests/browser/test_csp.py keeps the policy honest)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from clubs import services as club_services
from clubs.models import Role
from scoring import table_links
from scoring.models import RulePreset
from series import services as series_services
from standings.models import ResultImport
from tests.api.test_okey_games import MELDS
from tests.browser.conftest import CHROMIUM, DESKTOP, PHONE, login_cookie, shoot
from tests.browser.federation_site import federation_site
from tests.conftest import service_absent
from tests.pages.conftest import Pages
from tests.scoring.conftest import make_night
from tests.scoring.helpers import enter_deal, new_game
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.services import signup
from tournaments.services.setup import tournament_start

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "clients/typescript/node_modules/axe-core/axe.min.js"
STANDARDS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
RUN = """(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}}).then(
    (found) => found.violations.map((v) => ({
        rule: v.id, impact: v.impact,
        targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ')),
        count: v.nodes.length})))"""


@dataclass
class Site:
    every: list[str]  # every page of a member
    phone: set[str]  # the phone pages, whose main controls are 44 px tall at least
    looked_at: dict[str, str]  # pages shot in Hebrew at both widths: address -> name


def _club_pages(standing: Any) -> Site:
    """A night with a deal and its table link, a tournament under way and one taking sign-ups, a
    season series, a Rummikub game, a finished import, a federation: every page of a club."""
    club = standing.club
    club_services.club_update(
        club=club, actor=standing.owner, public_standings=True, table_entry="confirm"
    )
    pages = Pages(standing, make_night(standing))
    deal, _submission = pages.play_deal()
    game = pages.night.game
    link = table_links.table_links_ensure(
        tables=[game.table], actor=standing.organiser, mode="confirm"
    )[0]
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000)
    enter(standing, cup, roster(standing, 8))
    tournament_start(tournament=cup, actor=standing.organiser)
    play_round(standing, cup, random.Random(5))
    me = signup.entry_link_issue(
        tournament=cup, actor=standing.organiser, entry_id=cup.entries.order_by("pk")[0].pk
    )
    open_cup = new_tournament(standing, name="Open pairs")
    signup.signup_settings_set(
        tournament=open_cup, actor=standing.organiser, open=True, closes_at=None
    )
    season = series_services.series_create(
        club=club, actor=standing.organiser, name="Grand Prix", points_table=[25, 18, 15],
        tiers={"regular": "1"}, best_n=4, min_events=1, awards=[],
    )  # fmt: skip
    series_services.series_event_add(
        series=season, actor=standing.organiser, tier="regular", session_id=game.table.session_id
    )
    tiles, _ids = new_game(standing, "sabra", ["Asha", "Bilal", "Chitra", "Dev"])
    okey, okey_ids = new_game(standing, "okey", ["Asha", "Bilal", "Chitra"])
    okey_deal, _ = enter_deal(
        okey, standing.scorer, {"okey": {"indicator": "R7", "finisher": okey_ids["Asha"],
                                         "hand": MELDS}},
    )  # fmt: skip
    finished = _result_import(standing)
    c, s, t = f"/clubs/{club.slug}", game.table.session_id, f"/clubs/{club.slug}/tournaments"
    p = f"/p/{club.slug}"
    phone = table_links.link_path(link)
    me_path = f"{p}/tournaments/{cup.pk}/me/{me}/"
    every = [
        "/", "/account/", "/account/apps/", "/account/apps/registered/",
        "/account/password/",
        f"{c}/", f"{c}/players/", f"{c}/players/import/", f"{c}/results/import/",
        f"{c}/results/imports/{finished}/",
        f"{c}/sessions/", f"{c}/members/", f"{c}/players/{pages.night.pid('Asha')}/",
        f"{c}/sessions/{s}/", f"{c}/sessions/{s}/table-cards/",
        f"{c}/tables/{game.table_id}/games/new/", f"{c}/games/{game.pk}/",
        f"{c}/games/{game.pk}/deals/new/", f"{c}/deals/{deal.pk}/", f"{c}/deals/{deal.pk}/result/",
        f"{c}/games/{tiles.pk}/", f"{c}/games/{tiles.pk}/deals/new/",
        f"{c}/games/{okey.pk}/", f"{c}/games/{okey.pk}/deals/new/", f"{c}/deals/{okey_deal.pk}/",
        f"{c}/standings/", f"{c}/settings/",
        f"{t}/", f"{t}/{cup.pk}/", f"{t}/{cup.pk}/rounds/1/cards/",
        f"{t}/{open_cup.pk}/",
        f"{c}/series/", f"{c}/series/{season.pk}/",
        f"{p}/standings/", f"{p}/standings/projector/", f"{p}/tournaments/{cup.pk}/",
        f"{p}/tournaments/{cup.pk}/projector/", me_path,
        f"{p}/tournaments/{open_cup.pk}/", f"{p}/series/{season.pk}/",
        f"{p}/series/{season.pk}/projector/", phone, f"{phone}enter/",
    ]  # fmt: skip
    every += federation_site(standing).pages.values()  # the organiser is an officer there too
    looked_at = {
        f"{c}/sessions/{s}/": "night", f"{c}/games/{game.pk}/deals/new/": "entry",
        f"{phone}enter/": "table-link", f"{t}/{cup.pk}/": "desk", f"{p}/standings/": "standings",
        f"{c}/games/{tiles.pk}/deals/new/": "rummikub-entry", me_path: "player-link",
        f"{c}/games/{okey.pk}/deals/new/": "okey-entry",
    }  # fmt: skip
    return Site(every, {phone, f"{phone}enter/", me_path}, looked_at)


def _result_import(standing: Any) -> int:
    """A finished import of past results, whose page says how it went."""
    preset = RulePreset.objects.get(club=None, key="points")
    done = ResultImport.objects.create(
        club=standing.club, fingerprint="f" * 64, layout="points_deals", preset=preset,
        plan={"nights": []}, status="done",
    )  # fmt: skip
    return done.pk


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


def _audit(page: Any, width: int, phone_page: bool) -> list[str]:
    """axe's violations on the page as it is (rule, impact, how many, the first elements), its
    sideways scroll on a phone, a phone page's main controls under 44 px."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN, STANDARDS)
    problems = [f"{v['rule']} ({v['impact']}, {v['count']}x) {v['targets']}" for v in found]
    if width == PHONE["width"]:
        if (wide := _overflow(page)) > 0:
            problems.append(f"{wide} px of sideways scroll")
        if phone_page:
            small = page.evaluate(SMALL_CONTROLS, [MAIN_CONTROLS, THUMB])
            problems += [f"a main control under {THUMB} px: {control}" for control in small]
    return problems


def _check(page: Any, address: str, width: int, site: Site) -> list[str]:
    """What is wrong with the page at ``address``, and with it once acted on (``ACTING``)."""
    try:
        answer = page.goto(address)
    except Exception as error:  # an answer without a page (405, a download)
        return [f"no page: {str(error).splitlines()[0]}"]
    status = answer.status if answer is not None else 0
    phone_page = address in site.phone
    problems = [f"answered {status}"] if status >= 500 else []
    page.wait_for_load_state("networkidle")
    problems += _audit(page, width, phone_page)
    for ending, act in ACTING.items():
        if address.endswith(ending) and page.locator(".pick-btn").count():
            act(page)
            problems += [f"(acted on) {problem}" for problem in _audit(page, width, phone_page)]
    if page.locator(".tiles-input").count():
        _type_tiles(page)
        problems += [f"(tiles typed) {problem}" for problem in _audit(page, width, phone_page)]
    if page.locator("html").get_attribute("lang") == "he" and address in site.looked_at:
        shoot(page, f"axe-he-{width}-{site.looked_at[address]}")
    return problems


@pytest.mark.timeout(1500)
def test_axe_finds_no_violation_on_any_page_in_english_and_hebrew(
    browser: Any, live_server: Any, standing: Any
) -> None:
    if not AXE.exists():
        service_absent(f"needs axe-core at {AXE} (make install runs npm ci)")
    assert Path(CHROMIUM).exists()
    site = _club_pages(standing)
    _invitation, key = club_services.invitation_create(
        club=standing.club, actor=standing.owner, actor_role=Role.OWNER, role=Role.PLAYER
    )
    # Pages of someone not signed in; the last answers 404 (the site's own page for it).
    visiting = ["/login/", "/account/password/reset/", f"/invite/{key}/", "/no-such-page/"]
    failures: list[str] = []
    for viewport in (PHONE, DESKTOP):
        member = browser.new_context(viewport=viewport, base_url=live_server.url, bypass_csp=True)
        member.add_cookies([login_cookie(standing.organiser, live_server)])
        visitor = browser.new_context(viewport=viewport, base_url=live_server.url, bypass_csp=True)
        try:
            for language in ("en", "he"):
                club_services.club_update(
                    club=standing.club, actor=standing.owner, language=language
                )
                for context, seen in ((member, site.every), (visitor, visiting)):
                    context.set_default_timeout(30_000)
                    context.set_extra_http_headers({"Accept-Language": language})
                    page = context.pages[0] if context.pages else context.new_page()
                    for address in seen:
                        problems = _check(page, address, viewport["width"], site)
                        where = f"{language} {viewport['width']}px {address}"
                        failures += [f"{where}: {problem}" for problem in problems]
        finally:
            member.close()
            visitor.close()
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)
