"""No English left on the tournament desk, its public page and a table link, in each language:
every visible string (and every label a screen reader reads) is read against the English
catalogue, the marked strings' own words; a word of English that the language's translations
never use is English left on the page."""

from __future__ import annotations

import random
import re
from functools import cache
from html.parser import HTMLParser

import pytest
from babel.messages.pofile import read_po
from django.test import Client

from clubs.models import Player
from clubs.services import club_update
from config.catalogs import LOCALE_DIR, TRANSLATED
from scoring import table_links
from scoring.models import RulePreset
from tests.scoring.conftest import make_night
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.models import Round, Tournament
from tournaments.services.draws import round_release
from tournaments.services.setup import tournament_start

# Words both English and the language's own, or names: never English left. Checked by hand.
SHARED = {"pool", "joker", "link", "rummyclub", "pdf", "png", "upi", "show", "set", "pot",
          "rebuy", "entrant", "knock", "out", "cut", "score"}  # fmt: skip
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
# Code is typed as it is (a sheet's column names, a scope's name): never words to translate.
_SKIPPED = {"script", "style", "template", "noscript", "svg", "code"}
_READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "data-live-gone")


class _Visible(HTMLParser):
    """The strings a person sees or hears: text outside scripts and hidden parts, and the
    attributes read aloud."""

    def __init__(self) -> None:
        super().__init__()
        self.strings: list[str] = []
        self._skipping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in _SKIPPED or "hidden" in values:
            if tag not in {"input", "br", "img", "meta", "link"}:
                self._skipping.append(tag)
            return
        self.strings += [str(values[a]) for a in _READ_ATTRIBUTES if values.get(a)]

    def handle_endtag(self, tag: str) -> None:
        if self._skipping and self._skipping[-1] == tag:
            self._skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self._skipping and data.strip():
            self.strings.append(data.strip())


@cache  # the catalogues do not change during a run; a browser test reads many pages
def english_words(language: str) -> frozenset[str]:
    """The English catalogue's words that the language's translations never use."""
    english: set[str] = set()
    theirs: set[str] = set()
    for domain in ("django", "djangojs"):
        with (LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
            for message in read_po(po):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                for text in ids:
                    english |= {
                        w.lower() for w in _WORD.findall(re.sub(r"%\(\w+\)s|<[^>]+>", " ", text))
                    }
                for text in strings:
                    theirs |= {w.lower() for w in _WORD.findall(text or "")}
    return frozenset(w for w in english - theirs - SHARED if len(w) > 2)


def english_left(page: str, language: str, names: list[str]) -> list[str]:
    """The visible strings of ``page`` holding English, the names of people and things taken
    out first."""
    parser = _Visible()
    parser.feed(page)
    words = english_words(language)
    found = []
    for text in parser.strings:
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        if any(w.lower() in words for w in _WORD.findall(text)):
            found.append(text)
    return found


@pytest.fixture
def running_cup(standing):
    """A knock-out with its first round played and its second released, tables entering their
    own results (a link each)."""
    club = standing.club
    club.public_standings = True
    club.table_entry = "confirm"
    club.save()
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000)
    enter(standing, cup, roster(standing, 8))
    tournament_start(tournament=cup, actor=standing.organiser)
    play_round(standing, cup, random.Random(3))
    cup.refresh_from_db()
    current = cup.round_set.order_by("-number").first()
    if current is not None and current.status == Round.Status.DRAFT:
        round_release(tournament=cup, actor=standing.organiser, number=current.number)
    assert cup.status == Tournament.Status.RUNNING
    return cup


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_left_on_the_desk_the_public_page_and_a_table_link(
    standing, running_cup, language
):
    club_update(club=standing.club, actor=standing.owner, language=language)
    cup = running_cup
    night = make_night(standing)
    link = table_links.table_links_ensure(
        tables=[night.game.table], actor=standing.organiser, mode="confirm"
    )[0]
    names = [standing.club.name, cup.name, cup.preset.name, night.game.table.name, "Entrant"]
    names.append(night.game.table.session.name)
    names += list(RulePreset.objects.values_list("name", flat=True))
    names += list(Player.objects.filter(club=standing.club).values_list("name", flat=True))
    names += [u.get_username() for u in (standing.owner, standing.organiser, standing.scorer)]
    director = Client()
    director.force_login(standing.organiser)
    pages = {
        "desk": director.get(f"/clubs/{standing.club.slug}/tournaments/{cup.pk}/"),
        "public": Client().get(f"/p/{standing.club.slug}/tournaments/{cup.pk}/"),
        "table link": Client().get(table_links.link_path(link)),
    }
    left = {}
    for what, answer in pages.items():
        assert answer.status_code == 200, (what, answer.status_code)
        page = answer.content.decode()
        assert f'<html lang="{language}"' in page, what
        left[what] = english_left(page, language, names)
    assert left == {what: [] for what in pages}


@pytest.fixture
def series_world(standing):
    """A series with a night in it, the club's public pages on, and an app to sign in."""
    from oauth2_provider.models import Application

    from series.services import series_create, series_event_add

    club = standing.club
    club.public_standings = True
    club.save()
    night = make_night(standing)
    series = series_create(
        club=club, actor=standing.organiser, name="Summer Series", points_table=[10, 6, 3],
        best_n=3, min_events=2, awards=[{"kind": "most_wins", "name": "Top Winner"}],
    )  # fmt: skip
    series_event_add(
        series=series, actor=standing.organiser, tier="regular", session_id=night.session.pk
    )
    app = Application.objects.create(
        name="Score Phone", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1:8765/callback", client_secret="", algorithm="",
    )  # fmt: skip
    return series, night, app


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_left_on_the_series_import_members_and_sign_in_pages(
    standing, series_world, language
):
    from django.conf import settings

    series, night, app = series_world
    slug = standing.club.slug
    names = [standing.club.name, series.name, "Top Winner", "Score Phone", night.session.name]
    # The example a redirect URI's box shows is an address, not words.
    names += [night.game.table.name, "regular", "https://scores.example/signed-in"]
    names += list(Player.objects.filter(club=standing.club).values_list("name", flat=True))
    names += [u.get_username() for u in (standing.owner, standing.organiser, standing.scorer)]
    names += [standing.player.get_username()]
    names += list(RulePreset.objects.values_list("name", flat=True))
    owner, visitor = Client(), Client()
    owner.force_login(standing.owner)
    for client in (owner, visitor):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    authorize = "/oauth/authorize/?" + "&".join(
        f"{k}={v}" for k, v in {
            "response_type": "code", "client_id": app.client_id, "scope": "read",
            "redirect_uri": "http://127.0.0.1:8765/callback", "state": "s",
            "code_challenge": "x" * 43, "code_challenge_method": "S256",
        }.items()
    )  # fmt: skip
    pages = {
        "series list": owner.get(f"/clubs/{slug}/series/"),
        "series": owner.get(f"/clubs/{slug}/series/{series.pk}/"),
        "public series": visitor.get(f"/p/{slug}/series/{series.pk}/"),
        "series projector": visitor.get(f"/p/{slug}/series/{series.pk}/projector/"),
        "result import": owner.get(f"/clubs/{slug}/results/import/"),
        "player import": owner.get(f"/clubs/{slug}/players/import/"),
        "members": owner.get(f"/clubs/{slug}/members/"),
        "consent": owner.get(authorize),
        "device code": owner.get("/oauth/device/"),
        "your apps": owner.get("/account/apps/"),
        "apps registered": owner.get("/account/apps/registered/"),
    }
    left = {}
    for what, answer in pages.items():
        assert answer.status_code == 200, (what, answer.status_code)
        page = answer.content.decode()
        assert f'<html lang="{language}"' in page, what
        left[what] = english_left(page, language, names)
    assert left == {what: [] for what in pages}


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_left_on_the_club_settings_standings_lists_invitation_and_error_pages(
    standing, language
):
    from django.conf import settings
    from django.test import RequestFactory
    from django.utils import translation

    from clubs.services import invitation_create
    from config.views import server_error
    from webhooks.models import Endpoint

    club = standing.club
    club.public_standings = True
    club.save()
    night = make_night(standing)
    Endpoint.objects.create(
        club=club, url="https://hooks.example/rummy", events=["deal.scored"], secret="s" * 32
    )
    _invitation, key = invitation_create(
        club=club, actor=standing.owner, actor_role="owner", role="scorer"
    )
    _used, used_key = invitation_create(
        club=club, actor=standing.owner, actor_role="owner", role="player"
    )
    Client().post(f"/invite/{used_key}/", {"username": "newcomer", "password": "x" * 20})
    names = [club.name, night.session.name, night.game.table.name, "https://hooks.example/rummy"]
    names += list(RulePreset.objects.values_list("name", flat=True))
    names += list(Player.objects.filter(club=club).values_list("name", flat=True))
    names += [u.get_username() for u in (standing.owner, standing.organiser, standing.scorer)]
    names += [standing.player.get_username(), "newcomer"]
    owner, player, visitor = Client(), Client(), Client()
    owner.force_login(standing.owner)
    player.force_login(standing.player)
    for client in (owner, player, visitor):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    slug = club.slug
    pages = {
        "club home": (owner.get(f"/clubs/{slug}/"), 200),
        "settings": (owner.get(f"/clubs/{slug}/settings/"), 200),
        "standings": (owner.get(f"/clubs/{slug}/standings/"), 200),
        "players": (owner.get(f"/clubs/{slug}/players/"), 200),
        "players found": (owner.get(f"/clubs/{slug}/players/?q=zz"), 200),
        "nights": (owner.get(f"/clubs/{slug}/sessions/"), 200),
        "no night fits": (owner.get(f"/clubs/{slug}/sessions/?q=zz"), 200),
        "public standings": (visitor.get(f"/p/{slug}/standings/"), 200),
        "projector": (visitor.get(f"/p/{slug}/standings/projector/"), 200),
        "invitation": (visitor.get(f"/invite/{key}/"), 200),
        "invitation taken": (player.get(f"/invite/{key}/"), 200),
        "invitation used": (visitor.get(f"/invite/{used_key}/"), 409),
        "not allowed": (player.get(f"/clubs/{slug}/settings/"), 403),
        "not found": (owner.get("/clubs/no-such-club/"), 404),
    }
    with translation.override(language):
        failed = server_error(RequestFactory().get("/"))
    left = {}
    for what, (answer, status) in pages.items():
        assert answer.status_code == status, (what, answer.status_code)
        page = answer.content.decode()
        assert f'<html lang="{language}"' in page, what
        left[what] = english_left(page, language, names)
    assert failed.status_code == 500
    left["server error"] = english_left(failed.content.decode(), language, names)
    assert left == {what: [] for what in [*pages, "server error"]}


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_server_down_is_said_in_the_pages_language(language):
    from django.db import OperationalError
    from django.test import RequestFactory
    from django.utils import translation

    from config.views import server_error

    try:
        raise OperationalError("the database server is down")
    except OperationalError:
        with translation.override(language):
            answer = server_error(RequestFactory().get("/clubs/"))
            said = translation.gettext(
                "The database is unavailable; please try again in a few seconds."
            )
    assert answer.status_code == 503 and answer["Retry-After"]
    assert answer.content.decode() == said
    assert english_left(f"<p>{said}</p>", language, []) == []
