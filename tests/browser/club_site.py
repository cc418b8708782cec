"""One club with every page a club uses, built once for a browser test that walks them all (the
axe audit in every language): a night with a deal and its table link, a tournament under way and
one taking sign-ups, a season series, a Rummikub game, an Okey game, a finished import, an
invitation, a federation."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from clubs import services as club_services
from clubs.models import Role
from scoring import table_links
from scoring.models import RulePreset
from series import services as series_services
from standings.models import ResultImport
from tests.api.test_okey_games import MELDS
from tests.browser.federation_site import federation_site
from tests.pages.conftest import Pages
from tests.scoring.conftest import make_night
from tests.scoring.helpers import enter_deal, new_game
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.services import signup
from tournaments.services.setup import tournament_start


@dataclass
class Site:
    every: list[str]  # every page of a member
    visiting: list[str]  # pages of someone not signed in; the last answers 404
    phone: set[str]  # the phone pages, whose main controls are 44 px tall at least
    looked_at: dict[str, str]  # the main pages, to be shot and looked at: address -> name
    named: dict[str, str]  # name -> address: looked_at's pages and the others a test names
    night: Pages  # the night, its players and its counted deal


def club_site(standing: Any) -> Site:
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
    _invitation, key = club_services.invitation_create(
        club=club, actor=standing.owner, actor_role=Role.OWNER, role=Role.PLAYER
    )
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
    visiting = ["/login/", "/account/password/reset/", f"/invite/{key}/", "/no-such-page/"]
    looked_at = {
        "/": "home", f"{c}/": "club", f"{c}/sessions/{s}/": "night",
        f"{c}/games/{game.pk}/": "game", f"{c}/games/{game.pk}/deals/new/": "entry",
        f"{c}/deals/{deal.pk}/": "deal", f"{phone}enter/": "table-link", f"{t}/{cup.pk}/": "desk",
        f"{p}/standings/": "standings", f"{c}/games/{tiles.pk}/deals/new/": "rummikub-entry",
        me_path: "player-link", f"{p}/tournaments/{cup.pk}/projector/": "projector",
        f"{c}/games/{okey.pk}/deals/new/": "okey-entry",
    }  # fmt: skip
    named = {name: address for address, name in looked_at.items()} | {
        "table-home": phone, "standings-projector": f"{p}/standings/projector/",
        "open-desk": f"{t}/{open_cup.pk}/", "public-cup": f"{p}/tournaments/{cup.pk}/",
        "public-open-cup": f"{p}/tournaments/{open_cup.pk}/",
    }  # fmt: skip
    return Site(every, visiting, {phone, f"{phone}enter/", me_path}, looked_at, named, pages)


def _result_import(standing: Any) -> int:
    """A finished import of past results, whose page says how it went."""
    preset = RulePreset.objects.get(club=None, key="points")
    done = ResultImport.objects.create(
        club=standing.club, fingerprint="f" * 64, layout="points_deals", preset=preset,
        plan={"nights": []}, status="done",
    )  # fmt: skip
    return done.pk
