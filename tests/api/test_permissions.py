"""Table-driven permissions: every club route, every standing user, the status they get.

Outsiders get 404 (never 403) so a club's existence is not leaked; anonymous callers get 401.
``test_every_club_route_is_in_the_table`` fails when a route is added without a row here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import TestCase

from clubs.models import Player, Role
from scoring.models import RulePreset, Submission
from tests.conftest import Standing
from tests.factories import MembershipFactory
from tests.scoring.conftest import make_night
from tests.scoring.helpers import enter_deal
from tests.tournaments.helpers import enter, new_tournament, roster
from tournaments.services.setup import tournament_start

WHO = ["owner", "organiser", "scorer", "player", "outsider", "anonymous"]


@dataclass
class World:
    """The standing club with a night in play: a session, a table, a points game of six, a deal
    with an accepted result, and a second deal whose result waits for confirmation."""

    s: Standing
    session: int
    table: int
    game: int
    deal: int
    submission: int
    awaiting: int
    spare_player: int
    preset: int
    open_tournament: int
    open_entry: int
    drawn_tournament: int
    drawn_pair: tuple[int, int]

    @property
    def club(self) -> Any:
        return self.s.club


@pytest.fixture
def world(standing: Standing) -> World:
    night = make_night(standing)
    results = {
        "results": night.results(
            Asha={"outcome": "loser", "points": 10},
            Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "loser", "points": 30},
            Dev={"outcome": "first_drop"},
            Esther={"outcome": "middle_drop"},
            Farid={"outcome": "winner"},
        )
    }
    deal, accepted = enter_deal(night.game, standing.organiser, results, wild="QH")
    standing.club.requires_confirmation = True
    standing.club.save()
    other_scorer = MembershipFactory(club=standing.club, role=Role.SCORER).user
    _, awaiting = enter_deal(night.game, other_scorer, results)
    standing.club.requires_confirmation = False
    standing.club.save()
    assert accepted is not None and awaiting is not None
    assert Submission.objects.get(pk=awaiting.pk).status == "awaiting_confirmation"
    spare = Player.objects.create(club=standing.club, name="Gauri")
    entrants = roster(standing, 4)
    open_tournament = new_tournament(standing, table_max=2, advance_per_table=1)
    enter(standing, open_tournament, entrants)
    drawn = new_tournament(standing, name="Drawn", table_max=2, advance_per_table=1)
    enter(standing, drawn, entrants)
    tournament_start(tournament=drawn, actor=standing.organiser)
    first_table = drawn.round_set.get().draw["tables"]
    player_of = dict(drawn.entries.values_list("pk", "player_id"))
    return World(
        s=standing,
        session=night.session.pk,
        table=night.game.table_id,
        game=night.game.pk,
        deal=deal.pk,
        submission=accepted.pk,
        awaiting=awaiting.pk,
        spare_player=spare.pk,
        preset=RulePreset.objects.get(club=None, key="points").pk,
        open_tournament=open_tournament.pk,
        open_entry=open_tournament.entries.order_by("pk").first().pk,  # type: ignore[union-attr]
        drawn_tournament=drawn.pk,
        drawn_pair=(player_of[first_table[0][0]], player_of[first_table[1][0]]),
    )


@dataclass(frozen=True)
class Route:
    name: str
    url_name: str
    method: str
    path: Callable[[World], str]
    body: Callable[[World], dict[str, Any]] | None
    expect: dict[str, int]


def _by_role(owner: int, organiser: int, scorer: int, player: int) -> dict[str, int]:
    return {
        "owner": owner,
        "organiser": organiser,
        "scorer": scorer,
        "player": player,
        "outsider": 404,
        "anonymous": 401,
    }


READ = _by_role(200, 200, 200, 200)
RUN = _by_role(200, 200, 403, 403)
C = "/api/v1/clubs/home"
T = f"{C}/tournaments"


def _asha(w: World) -> int:
    return w.club.players.get(name="Asha").pk


def _member(w: World, username: str = "player") -> int:
    return w.club.memberships.get(user__username=username).pk


def _results(w: World) -> dict[str, Any]:
    seats = list(w.club.players.filter(seats__game_id=w.game).order_by("seats__position"))
    lines = [{"player": p.pk, "outcome": "loser", "points": 5} for p in seats]
    lines[0] = {"player": seats[0].pk, "outcome": "winner"}
    return {"results": lines}


def _past_results(w: World) -> dict[str, Any]:
    text = "date,deal,player,outcome,points\n2026-01-02,1,Asha,winner,\n2026-01-02,1,Zed,loser,5\n"
    return {"layout": "points_deals", "text": text}


def _result_import(w: World) -> int:
    """A finished import of past results (a cancel of it is refused: 409)."""
    from scoring.models import RulePreset
    from standings.models import ResultImport

    done, _ = ResultImport.objects.get_or_create(
        club=w.club, fingerprint="f" * 64,
        defaults={"layout": "points_deals", "plan": {"nights": []}, "status": "done",
                  "preset": RulePreset.objects.get(club=None, key="points")},
    )  # fmt: skip
    return done.pk


def _hook(w: World) -> int:
    from webhooks.models import Endpoint

    hook, _ = Endpoint.objects.get_or_create(
        club=w.club, url="http://127.0.0.1:9/hook", defaults={"events": ["deal.scored"],
                                                            "secret": "s" * 32},
    )  # fmt: skip
    return hook.pk


def _delivery(w: World) -> str:
    from webhooks.models import Delivery, Event

    event = Event.objects.create(club=w.club, name="ping")
    return str(Delivery.objects.create(endpoint_id=_hook(w), event=event, status="delivered")
               .delivery_id)  # fmt: skip


def _table_link(w: World) -> int:
    from scoring.models import Table
    from scoring.table_links import table_links_ensure

    table = Table.objects.get(pk=w.table)
    return table_links_ensure(tables=[table], actor=w.s.organiser, mode="confirm")[0].pk


def _an_hour_ago(w: World) -> dict[str, str]:
    from datetime import timedelta

    from django.utils import timezone

    return {"since": (timezone.now() - timedelta(hours=1)).isoformat()}


W = f"{C}/webhooks"
HOOKS = _by_role(200, 200, 403, 403)


def _first_transfer(w: World) -> dict[str, Any]:
    from scoring.figures import session_settlement
    from scoring.models import Session

    first = session_settlement(session=Session.objects.get(pk=w.session))[0]
    return {"payer": first.payer_key, "payee": first.payee_key}


ROUTES = [
    # clubs
    Route("club read", "clubs:club-detail", "get", lambda w: f"{C}/", None, READ),
    Route("club stream", "clubs:club-stream", "get", lambda w: f"{C}/stream/", None, READ),
    Route("club update", "clubs:club-detail", "patch", lambda w: f"{C}/",
          lambda w: {"name": "Renamed"}, _by_role(200, 403, 403, 403)),
    Route("members list", "clubs:member-list", "get", lambda w: f"{C}/members/", None, READ),
    Route("member add (player role)", "clubs:member-list", "post", lambda w: f"{C}/members/",
          lambda w: {"username": "newbie", "role": "player"}, _by_role(202, 202, 403, 403)),
    Route("member add (organiser role)", "clubs:member-list", "post", lambda w: f"{C}/members/",
          lambda w: {"username": "newbie", "role": "organiser"}, _by_role(202, 403, 403, 403)),
    Route("member read", "clubs:member-detail", "get",
          lambda w: f"{C}/members/{_member(w)}/", None, READ),
    Route("member change role", "clubs:member-detail", "patch",
          lambda w: f"{C}/members/{_member(w)}/", lambda w: {"role": "scorer"},
          _by_role(200, 200, 403, 403)),
    Route("member remove", "clubs:member-detail", "delete",
          lambda w: f"{C}/members/{_member(w)}/", None, _by_role(204, 204, 403, 403)),
    Route("players list", "clubs:player-list", "get", lambda w: f"{C}/players/", None, READ),
    Route("tombstones list", "clubs:tombstone-list", "get", lambda w: f"{C}/tombstones/", None,
          READ),
    Route("player create", "clubs:player-list", "post", lambda w: f"{C}/players/",
          lambda w: {"name": "Hari"}, _by_role(201, 201, 403, 403)),
    Route("player import preview", "clubs:player-import-preview", "post",
          lambda w: f"{C}/players/import/preview/", lambda w: {"text": "Hari, Indu"},
          _by_role(200, 200, 403, 403)),
    Route("player import", "clubs:player-import", "post", lambda w: f"{C}/players/import/",
          lambda w: {"rows": [{"row": 1, "name": "Hari", "choice": "new"}]},
          _by_role(200, 200, 403, 403)),
    Route("player read", "clubs:player-detail", "get",
          lambda w: f"{C}/players/{_asha(w)}/", None, READ),
    Route("player update", "clubs:player-detail", "patch", lambda w: f"{C}/players/{_asha(w)}/",
          lambda w: {"name": "Asha K"}, _by_role(200, 200, 403, 403)),
    # webhooks: organisers only, reads included
    Route("webhooks list", "webhooks:webhook-list", "get", lambda w: f"{W}/", None, HOOKS),
    Route("webhook create", "webhooks:webhook-list", "post", lambda w: f"{W}/",
          lambda w: {"url": "http://127.0.0.1:9/new", "events": ["game.finished"]},
          _by_role(201, 201, 403, 403)),
    Route("webhook read", "webhooks:webhook-detail", "get", lambda w: f"{W}/{_hook(w)}/", None,
          HOOKS),
    Route("webhook update", "webhooks:webhook-detail", "patch", lambda w: f"{W}/{_hook(w)}/",
          lambda w: {"enabled": False}, HOOKS),
    Route("webhook delete", "webhooks:webhook-detail", "delete", lambda w: f"{W}/{_hook(w)}/",
          None, _by_role(204, 204, 403, 403)),
    Route("webhook secret", "webhooks:webhook-secret", "post",
          lambda w: f"{W}/{_hook(w)}/secret/", lambda w: {"enable": False}, HOOKS),
    Route("webhook ping", "webhooks:webhook-ping", "post", lambda w: f"{W}/{_hook(w)}/test/",
          None, _by_role(202, 202, 403, 403)),
    Route("webhook deliveries", "webhooks:webhook-deliveries", "get",
          lambda w: f"{W}/{_hook(w)}/deliveries/", None, HOOKS),
    Route("webhook redeliver", "webhooks:webhook-redeliver", "post",
          lambda w: f"{W}/{_hook(w)}/deliveries/{_delivery(w)}/redeliver/", None,
          _by_role(202, 202, 403, 403)),
    Route("webhook replay", "webhooks:webhook-replay", "post",
          lambda w: f"{W}/{_hook(w)}/replay/", _an_hour_ago, _by_role(202, 202, 403, 403)),
    Route("player merge", "tournaments:player-merge", "post",
          lambda w: f"{C}/players/{w.spare_player}/merge/", lambda w: {"into": _asha(w)},
          _by_role(200, 200, 403, 403)),
    # scoring: set-up by organisers
    Route("presets list", "scoring:preset-list", "get", lambda w: f"{C}/presets/", None, READ),
    Route("preset create", "scoring:preset-list", "post", lambda w: f"{C}/presets/",
          lambda w: {"key": "house", "name": "House", "format": "points", "params": {}},
          _by_role(201, 201, 403, 403)),
    Route("sessions list", "scoring:session-list", "get", lambda w: f"{C}/sessions/", None, READ),
    Route("games list", "scoring:club-game-list", "get", lambda w: f"{C}/games/", None, READ),
    Route("club deals list", "scoring:club-deal-list", "get", lambda w: f"{C}/deals/", None, READ),
    Route("club submissions list", "scoring:club-submission-list", "get",
          lambda w: f"{C}/submissions/", None, READ),
    Route("session create", "scoring:session-list", "post", lambda w: f"{C}/sessions/",
          lambda w: {"name": "Saturday"}, _by_role(201, 201, 403, 403)),
    Route("session read", "scoring:session-detail", "get",
          lambda w: f"{C}/sessions/{w.session}/", None, READ),
    Route("session close", "scoring:session-close", "post",
          lambda w: f"{C}/sessions/{w.session}/close/", None, _by_role(409, 409, 403, 403)),
    Route("tables list", "scoring:table-list", "get",
          lambda w: f"{C}/sessions/{w.session}/tables/", None, READ),
    Route("table create", "scoring:table-list", "post",
          lambda w: f"{C}/sessions/{w.session}/tables/", lambda w: {"name": "Table 9"},
          _by_role(201, 201, 403, 403)),
    Route("scoreboard", "scoring:session-scoreboard", "get",
          lambda w: f"{C}/sessions/{w.session}/scoreboard/", None, READ),
    Route("settlement", "scoring:session-settlement", "get",
          lambda w: f"{C}/sessions/{w.session}/settlement/", None, READ),
    # reports: whoever may read the night or the tournament
    Route("session report", "reports:session-report", "get",
          lambda w: f"{C}/sessions/{w.session}/report.pdf", None, READ),
    Route("tournament report", "reports:tournament-report", "get",
          lambda w: f"{T}/{w.drawn_tournament}/report.pdf", None, READ),
    Route("game score sheet", "reports:game-sheet", "get",
          lambda w: f"{C}/games/{w.game}/sheet.pdf", None, _by_role(200, 200, 200, 403)),
    Route("session share text", "reports:session-share", "get",
          lambda w: f"{C}/sessions/{w.session}/share/", None, READ),
    Route("session standings image", "reports:session-image", "get",
          lambda w: f"{C}/sessions/{w.session}/standings.png", None, READ),
    Route("tournament share text", "reports:tournament-share", "get",
          lambda w: f"{T}/{w.drawn_tournament}/share/", None, READ),
    Route("tournament standings image", "reports:tournament-image", "get",
          lambda w: f"{T}/{w.drawn_tournament}/standings.png", None, READ),
    Route("game create", "scoring:game-list", "post", lambda w: f"{C}/tables/{w.table}/games/",
          lambda w: {"preset": w.preset, "players": [_asha(w), w.spare_player]},
          _by_role(201, 201, 403, 403)),
    Route("game read", "scoring:game-detail", "get", lambda w: f"{C}/games/{w.game}/", None, READ),
    Route("seat add", "scoring:seat-list", "post", lambda w: f"{C}/games/{w.game}/seats/",
          lambda w: {"player": w.spare_player}, _by_role(409, 409, 403, 403)),
    Route("game state", "scoring:game-state", "get", lambda w: f"{C}/games/{w.game}/state/",
          None, READ),
    Route("game finish", "scoring:game-finish", "post", lambda w: f"{C}/games/{w.game}/finish/",
          None, _by_role(409, 409, 403, 403)),
    Route("pool rejoin", "scoring:pool-rejoin", "post", lambda w: f"{C}/games/{w.game}/rejoin/",
          lambda w: {"player": _asha(w)}, _by_role(409, 409, 403, 403)),
    Route("split offer", "scoring:pool-split", "get", lambda w: f"{C}/games/{w.game}/split/",
          None, READ),
    Route("split accept", "scoring:pool-split", "post", lambda w: f"{C}/games/{w.game}/split/",
          lambda w: {"kind": "drops", "agreed": [_asha(w)]}, _by_role(409, 409, 403, 403)),
    Route("seasons list", "scoring:season-list", "get", lambda w: f"{C}/seasons/", None, READ),
    Route("standings", "scoring:standings", "get", lambda w: f"{C}/standings/", None, READ),
    Route("results import preview", "scoring:results-import-preview", "post",
          lambda w: f"{C}/results/import/preview/", _past_results, RUN),
    # The sheet names a player the roster lacks: the confirm refuses it, storing nothing.
    Route("results import", "scoring:results-import", "post", lambda w: f"{C}/results/import/",
          _past_results, _by_role(400, 400, 403, 403)),
    Route("results import status", "scoring:results-import-status", "get",
          lambda w: f"{C}/results/imports/{_result_import(w)}/", None, READ),
    Route("results import cancel", "scoring:results-import-cancel", "post",
          lambda w: f"{C}/results/imports/{_result_import(w)}/cancel/", None,
          _by_role(409, 409, 403, 403)),
    Route("player history", "scoring:player-history", "get",
          lambda w: f"{C}/players/{_asha(w)}/history/", None, READ),
    Route("ratings", "scoring:ratings", "get", lambda w: f"{C}/ratings/", None, READ),
    Route("rated games", "scoring:rated-games", "get", lambda w: f"{C}/ratings/games/", None,
          READ),
    Route("player ratings", "scoring:player-ratings", "get",
          lambda w: f"{C}/players/{_asha(w)}/ratings/", None, READ),
    Route("player rating changes", "scoring:player-rating-changes", "get",
          lambda w: f"{C}/players/{_asha(w)}/ratings/changes/", None, READ),
    Route("standings metrics", "scoring:standings-metrics", "get",
          lambda w: f"{C}/standings/metrics/", None, READ),
    Route("standings metrics set", "scoring:standings-metrics", "put",
          lambda w: f"{C}/standings/metrics/", lambda w: {"order": ["money", "points"]},
          _by_role(200, 200, 403, 403)),
    # scoring: results by scorers
    Route("deals list", "scoring:deal-list", "get", lambda w: f"{C}/games/{w.game}/deals/",
          None, READ),
    Route("deal create", "scoring:deal-list", "post", lambda w: f"{C}/games/{w.game}/deals/",
          lambda w: {"wild": "7C"}, _by_role(201, 201, 201, 403)),
    Route("deals batch", "scoring:deal-batch", "post",
          lambda w: f"{C}/games/{w.game}/deals/batch/", lambda w: {"deals": [{"wild": "7C"}]},
          _by_role(201, 201, 201, 403)),
    Route("deal read", "scoring:deal-detail", "get", lambda w: f"{C}/deals/{w.deal}/", None, READ),
    # a counted deal of a points table: its result is reversed
    Route("deal void", "scoring:deal-void", "post", lambda w: f"{C}/deals/{w.deal}/void/",
          None, _by_role(200, 200, 403, 403)),
    Route("submissions list", "scoring:submission-list", "get",
          lambda w: f"{C}/deals/{w.deal}/submissions/", None, READ),
    Route("submission create", "scoring:submission-list", "post",
          lambda w: f"{C}/deals/{w.deal}/submissions/", _results, _by_role(202, 202, 202, 403)),
    Route("submission read", "scoring:submission-detail", "get",
          lambda w: f"{C}/submissions/{w.submission}/", None, READ),
    Route("table links list", "scoring:table-links", "get",
          lambda w: f"{C}/tables/{w.table}/links/", None, _by_role(200, 200, 200, 403)),
    Route("table link create", "scoring:table-links", "post",
          lambda w: f"{C}/tables/{w.table}/links/", lambda w: {"mode": "confirm"},
          _by_role(201, 201, 201, 403)),
    Route("table link revoke", "scoring:table-link-revoke", "post",
          lambda w: f"{C}/table-links/{_table_link(w)}/revoke/", None,
          _by_role(200, 200, 200, 403)),
    Route("submission confirm", "scoring:submission-confirm", "post",
          lambda w: f"{C}/submissions/{w.awaiting}/confirm/", None, _by_role(200, 200, 200, 403)),
    # undo and the settle-up: organisers (the world's night has deals: what needs it empty
    # says so to those who may ask)
    Route("session delete", "scoring:session-detail", "delete",
          lambda w: f"{C}/sessions/{w.session}/", None, _by_role(409, 409, 403, 403)),
    Route("session reopen", "scoring:session-reopen", "post",
          lambda w: f"{C}/sessions/{w.session}/reopen/", None, _by_role(409, 409, 403, 403)),
    Route("transfer paid", "scoring:session-transfer-paid", "post",
          lambda w: f"{C}/sessions/{w.session}/transfers/paid/", _first_transfer, RUN),
    Route("game delete", "scoring:game-detail", "delete", lambda w: f"{C}/games/{w.game}/", None,
          _by_role(409, 409, 403, 403)),
    Route("seat remove", "scoring:seat-detail", "delete",
          lambda w: f"{C}/games/{w.game}/seats/{_asha(w)}/", None, _by_role(409, 409, 403, 403)),
    Route("deal delete", "scoring:deal-detail", "delete", lambda w: f"{C}/deals/{w.deal}/",
          None, _by_role(409, 409, 403, 403)),
    # tournaments: organisers run them, members read
    Route("tournaments list", "tournaments:tournament-list", "get", lambda w: f"{T}/", None, READ),
    Route("tournament create", "tournaments:tournament-list", "post", lambda w: f"{T}/",
          lambda w: {"name": "Cup", "preset": w.preset}, _by_role(201, 201, 403, 403)),
    Route("tournament read", "tournaments:tournament-detail", "get",
          lambda w: f"{T}/{w.open_tournament}/", None, READ),
    Route("entries list", "tournaments:entry-list", "get",
          lambda w: f"{T}/{w.open_tournament}/entries/", None, READ),
    Route("entry add", "tournaments:entry-list", "post",
          lambda w: f"{T}/{w.open_tournament}/entries/", lambda w: {"player": w.spare_player},
          _by_role(201, 201, 403, 403)),
    Route("entry check-in", "tournaments:entry-check-in", "post",
          lambda w: f"{T}/{w.open_tournament}/entries/{w.open_entry}/check-in/", None, RUN),
    Route("entry paid", "tournaments:entry-paid", "post",
          lambda w: f"{T}/{w.open_tournament}/entries/{w.open_entry}/paid/", None, RUN),
    Route("entry unpaid", "tournaments:entry-unpaid", "post",
          lambda w: f"{T}/{w.open_tournament}/entries/{w.open_entry}/unpaid/", None, RUN),
    Route("sign-up settings", "tournaments:tournament-signup-settings", "post",
          lambda w: f"{T}/{w.open_tournament}/signup/", lambda w: {"signup_open": False}, RUN),
    Route("entry withdraw", "tournaments:entry-withdraw", "post",
          lambda w: f"{T}/{w.open_tournament}/entries/{w.open_entry}/withdraw/", None, RUN),
    # the entry is in the field: a member who may run it hears it is not withdrawn
    Route("entry reinstate", "tournaments:entry-reinstate", "post",
          lambda w: f"{T}/{w.open_tournament}/entries/{w.open_entry}/reinstate/", None,
          _by_role(409, 409, 403, 403)),
    Route("entry disqualify", "tournaments:entry-disqualify", "post",
          lambda w: f"{T}/{w.open_tournament}/entries/{w.open_entry}/disqualify/", None, RUN),
    # a knock-out takes no rebuys: a member who may run it hears why
    Route("entry rebuy", "tournaments:entry-rebuy", "post",
          lambda w: f"{T}/{w.open_tournament}/entries/{w.open_entry}/rebuy/", None,
          _by_role(409, 409, 403, 403)),
    Route("tournament start", "tournaments:tournament-start", "post",
          lambda w: f"{T}/{w.open_tournament}/start/", None, RUN),
    Route("tournament cancel", "tournaments:tournament-cancel", "post",
          lambda w: f"{T}/{w.open_tournament}/cancel/", None, RUN),
    Route("round swap", "tournaments:round-swap", "post",
          lambda w: f"{T}/{w.drawn_tournament}/rounds/1/swap/",
          lambda w: {"first": w.drawn_pair[0], "second": w.drawn_pair[1]}, RUN),
    # round 1 of the drawn tournament is not released yet: no tables to link
    Route("round links", "tournaments:round-links", "post",
          lambda w: f"{T}/{w.drawn_tournament}/rounds/1/links/", None,
          _by_role(409, 409, 403, 403)),
    Route("round release", "tournaments:round-release", "post",
          lambda w: f"{T}/{w.drawn_tournament}/rounds/1/release/", None, RUN),
    # round 1 of the drawn tournament is not complete: a member who may run it hears why
    Route("round unwind", "tournaments:round-unwind", "post",
          lambda w: f"{T}/{w.drawn_tournament}/rounds/1/unwind/", lambda w: {"confirm": True},
          _by_role(409, 409, 403, 403)),
    # series
    Route("series list", "series:series-list", "get", lambda w: f"{C}/series/", None, READ),
    Route("series create", "series:series-list", "post", lambda w: f"{C}/series/",
          lambda w: {"name": "Spring", "points_table": [10, 5]}, _by_role(201, 201, 403, 403)),
    Route("series read", "series:series-detail", "get",
          lambda w: f"{C}/series/{_series(w)}/", None, READ),
    Route("series update", "series:series-detail", "patch",
          lambda w: f"{C}/series/{_series(w)}/", lambda w: {"best_n": 3}, RUN),
    Route("series events", "series:series-events", "get",
          lambda w: f"{C}/series/{_series(w)}/events/", None, READ),
    Route("series event add", "series:series-events", "post",
          lambda w: f"{C}/series/{_series(w)}/events/",
          lambda w: {"session": w.session, "tier": "regular"}, _by_role(201, 201, 403, 403)),
    Route("series event remove", "series:series-event", "delete",
          lambda w: f"{C}/series/{_series(w)}/events/{_series_event(w)}/", None,
          _by_role(204, 204, 403, 403)),
    Route("series table", "series:series-table", "get",
          lambda w: f"{C}/series/{_series(w)}/table/", None, READ),
    # a federation, from the member club's side (its officers' routes: tests/federation)
    Route("federation invitation answer", "federation:club-answer", "post",
          lambda w: f"{C}/federations/{_federation(w, member=False)}/answer/",
          lambda w: {"accept": True}, _by_role(200, 403, 403, 403)),
    Route("federation link propose", "federation:club-players", "post",
          lambda w: f"{C}/federations/{_federation(w)}/players/",
          lambda w: {"player": _asha(w)}, _by_role(201, 201, 403, 403)),
    Route("federation sanction request", "federation:club-events", "post",
          lambda w: f"{C}/federations/{_federation(w)}/events/",
          lambda w: {"tier": "club", "session_id": _empty_night(w)}, _by_role(201, 201, 403, 403)),
    # The night has a game in play: a member may submit, and is told it is not finished.
    Route("federation event submit", "federation:club-submit", "post",
          lambda w: f"{C}/federations/{_federation(w)}/events/{_sanctioned(w)}/submit/", None,
          _by_role(409, 409, 403, 403)),
    # The event exchange: a key for the owner; an import is checked (an empty one is no export);
    # an export needs the key its federation gave (none is installed here).
    Route("federation export key", "federation:club-export-key", "post",
          lambda w: f"{C}/federations/{_federation(w)}/export-key/", None,
          _by_role(201, 403, 403, 403)),
    Route("federation event import", "federation:club-import", "post",
          lambda w: f"{C}/federations/{_federation(w)}/events/{_sanctioned(w)}/import/",
          lambda w: {}, _by_role(400, 400, 403, 403)),
    Route("federation event export", "federation:club-export", "get",
          lambda w: f"{C}/federation-export/?federation=rf&event=1&tier=club&session_id="
                    f"{w.session}",
          None, _by_role(404, 404, 403, 403)),
]  # fmt: skip


def _federation(w: World, member: bool = True) -> str:
    """A federation the club belongs to (``rf``), or one that only invited it (``rf-invite``)."""
    from datetime import date

    from django.contrib.auth.models import User

    from federation import services
    from federation.models import Federation
    from scoring.models import RulePreset

    slug = "rf" if member else "rf-invite"
    if Federation.objects.filter(slug=slug).exists():
        return slug
    officer, _ = User.objects.get_or_create(username=f"officer-{slug}")
    federation = services.federation_create(
        actor=officer, name=slug, slug=slug, starts_on=date(2026, 1, 1),
        preset=RulePreset.objects.get(club=None, key="points"),
    )  # fmt: skip
    services.club_invite(actor=officer, federation=federation, club=w.club)
    if member:
        services.club_answer(actor=w.s.owner, federation=federation, club=w.club, accept=True)
    return slug


def _empty_night(w: World) -> int:
    from scoring.models import Session
    from scoring.nights import session_create

    found = Session.objects.filter(club=w.club, name="Sanctioned night").first()
    return (found or session_create(club=w.club, actor=w.s.owner, name="Sanctioned night")).pk


def _sanctioned(w: World) -> int:
    """The night in play, sanctioned (as if asked before it started)."""
    from federation.models import Federation, SanctionedEvent

    found, _ = SanctionedEvent.objects.get_or_create(
        federation=Federation.objects.get(slug=_federation(w)), club=w.club, session_id=w.session,
        defaults={"name": "Night", "tier": "club", "status": "sanctioned"},
    )  # fmt: skip
    return found.pk


def _series(w: World) -> int:
    """The club's series (made on first use)."""
    from series.models import Series

    found, _ = Series.objects.get_or_create(
        club=w.club,
        name="Grand Prix",
        defaults={"points_table": [10, 7], "tiers": {"regular": "1"}},
    )
    return found.pk


def _series_event(w: World) -> int:
    """A tournament of the series (made on first use)."""
    from series.models import SeriesEvent

    found, _ = SeriesEvent.objects.get_or_create(
        series_id=_series(w), tournament_id=w.open_tournament, defaults={"tier": "regular"}
    )
    return found.pk


# Tokens: what each route needs (reads need ``read``, webhooks ``manage`` even to read; these
# writes need ``score``; every other write ``manage``), then the club binding.
SCORE_ROUTES = {
    "deal create", "deals batch", "deal void", "deal delete", "submission create",
    "submission confirm", "pool rejoin", "split accept",
}  # fmt: skip


def needed_scope(route: Route) -> str:
    if route.url_name.startswith("webhooks:"):
        return "manage"
    if route.method == "get":
        return "read"
    return "score" if route.name in SCORE_ROUTES else "manage"


@dataclass(frozen=True)
class TokenCaller:
    """The organiser calling with a token: an OAuth2 app's (``app``) or a personal one, with
    ``scopes``, bound to the home club or to another of the organiser's clubs."""

    name: str
    scopes: tuple[str, ...]
    app: bool = True
    other_club: bool = False
    revoked: bool = False

    def expect(self, route: Route) -> int:
        if self.revoked:
            return 401
        if needed_scope(route) not in self.scopes:
            return 403
        return 404 if self.other_club else route.expect["organiser"]


TOKENS = [
    TokenCaller("read app", ("read",)),
    TokenCaller("score app", ("read", "score")),
    TokenCaller("manage app", ("read", "manage")),
    TokenCaller("full token", ("read", "score", "manage"), app=False),
    TokenCaller("club B token", ("read", "score", "manage"), app=False, other_club=True),
    TokenCaller("revoked token", ("read", "score", "manage"), app=False, revoked=True),
]


def _token_key(world: World, caller: TokenCaller) -> str:
    from datetime import timedelta

    from django.utils import timezone
    from oauth2_provider.models import AccessToken, Application

    from clubs.signin import services
    from tests.factories import ClubFactory

    organiser = world.s.organiser
    club = world.club
    if caller.other_club:
        club = ClubFactory(name="Club B", slug="club-b")
        MembershipFactory(user=organiser, club=club, role=Role.OWNER)
    if not caller.app:
        token, key = services.api_token_create(
            user=organiser, name=caller.name, scopes=caller.scopes, club_slugs=[club.slug]
        )
        if caller.revoked:
            services.api_token_revoke(token=token, actor=organiser)
        return key
    application = Application.objects.create(
        name=caller.name, client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1:9/cb", algorithm="",
    )  # fmt: skip
    key = f"app-{caller.name.replace(' ', '-')}-key"
    AccessToken.objects.create(
        user=organiser, application=application, token=key,
        expires=timezone.now() + timedelta(hours=1),
        scope=" ".join([*caller.scopes, f"club:{club.pk}"]),
    )  # fmt: skip
    return key


CASES = [(route, who) for route in ROUTES for who in WHO]
TOKEN_CASES = [(route, caller) for route in ROUTES for caller in TOKENS]


def _call(world: World, client: Any, route: Route) -> Any:
    body = route.body(world) if route.body else None
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = getattr(client, route.method)(route.path(world), body, format="json")
    if response.status_code >= 400:
        assert set(response.json()["error"]) == {"code", "message", "details"}
    return response


@pytest.mark.parametrize(
    ("route", "who"), CASES, ids=[f"{route.name}-{who}" for route, who in CASES]
)
def test_route_permissions(world, django_user_model, route: Route, who: str):
    django_user_model.objects.create(username="newbie")
    response = _call(world, world.s.client(who), route)
    assert response.status_code == route.expect[who], response.content


@pytest.mark.parametrize(
    ("route", "caller"),
    TOKEN_CASES,
    ids=[f"{route.name}-{caller.name}" for route, caller in TOKEN_CASES],
)
def test_route_scopes_and_club_binding(world, django_user_model, route: Route, caller: TokenCaller):
    """A read token cannot write, a score token enters results but manages nothing, a token for
    club B sees nothing of the home club (404, as an outsider), a revoked token is refused."""
    from rest_framework.test import APIClient

    django_user_model.objects.create(username="newbie")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {_token_key(world, caller)}")
    response = _call(world, client, route)
    assert response.status_code == caller.expect(route), response.content
    if response.status_code == 403 and needed_scope(route) not in caller.scopes:
        assert response.json()["error"]["code"] == "insufficient_scope"


def _club_scoped_endpoints() -> set[tuple[str, str]]:
    """(url name, method) of every API route under a club, from the URL configuration itself."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found: set[tuple[str, str]] = set()

    def walk(patterns: list, prefix: str, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                ns = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, prefix + str(pattern.pattern), ns)
            elif isinstance(pattern, URLPattern) and "club_slug" in prefix + str(pattern.pattern):
                view = getattr(pattern.callback, "view_class", None)
                if view is None or not (prefix + str(pattern.pattern)).startswith("api/"):
                    continue
                for method in ("get", "post", "put", "patch", "delete"):
                    if hasattr(view, method):
                        found.add((f"{namespace}{pattern.name}", method))

    walk(get_resolver().url_patterns, "", "")
    return found


def test_every_club_route_is_in_the_table():
    endpoints = _club_scoped_endpoints()
    assert ("clubs:club-detail", "patch") in endpoints
    tabled = {(route.url_name, route.method) for route in ROUTES}
    assert endpoints - tabled == set(), "routes missing from the permission table"
