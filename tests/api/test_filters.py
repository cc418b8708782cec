"""The lists' filters (django-filter, one FilterSet per list) and ``updated_since``: each filter
narrows its list to what it names and nothing else; ``updated_since`` answers the rows changed
at or after a time, oldest change first, whichever way a service wrote them (a correction, a
void, a status change, bulk updates); a value a filter cannot read is a 400 naming it; the
schema declares exactly the parameters the FilterSet reads."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from rest_framework.test import APIClient

from clubs.models import Membership, Player, Role
from clubs.services import membership_change_role, player_update
from config.filters import ListFilterSet
from scoring.games import game_finish
from scoring.models import Deal, Game, RulePreset, Season, Session, Submission, Table
from scoring.nights import session_close, session_create
from scoring.undo import deal_void
from tests.api.test_errors import assert_error
from tests.conftest import Standing
from tests.scoring.helpers import correct, new_game, play, results
from tests.tournaments.helpers import enter, new_tournament
from tournaments.models import Entry, Tournament
from tournaments.services.setup import tournament_cancel, tournament_start
from webhooks.models import Attempt, Delivery, Endpoint, Event

C = "/api/v1/clubs/home"
FOUR = ["Asha", "Bilal", "Chitra", "Dev"]


def db_now() -> datetime:
    """The database's clock, the one ``updated_at`` is kept by."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT clock_timestamp()" if connection.vendor == "postgresql" else
                       "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')")  # fmt: skip
        value = cursor.fetchone()[0]
    if isinstance(value, str):  # SQLite's text, in UTC
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    return value


def ids(client: APIClient, path: str, **query: Any) -> list[int]:
    response = client.get(path, {"limit": 500, **query})
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


class Club:
    """A club with two nights (one closed, in a season), games of two formats, deals counted,
    corrected, voided and open, members of several roles, tournaments and webhook attempts."""

    def __init__(self, standing: Standing) -> None:
        s = self.standing = standing
        self.points, self.pids = new_game(standing, "points", FOUR)
        self.pool, _ = new_game(standing, "pool-101", FOUR, entry_fee_minor=100)
        self.done, _ = new_game(standing, "points", ["Bilal", "Chitra", "Dev", "Esha"])
        game_finish(game=self.done, actor=standing.organiser)
        first = play(s, self.points, results(self.pids, Asha="winner", Bilal=20, Chitra=30, Dev=5))
        self.corrected = correct(
            s, first.deal, results(self.pids, Bilal="winner", Asha=20, Chitra=30, Dev=5)
        )
        second = play(s, self.points, results(self.pids, Chitra="winner", Asha=2, Bilal=3, Dev=4))
        self.voided = deal_void(deal=second.deal, actor=s.organiser)
        play(s, self.pool, results(self.pids, Dev="winner", Asha=10, Bilal=10, Chitra=10))
        self.season = Season.objects.create(
            club=s.club, name="Spring", starts_on="2020-01-01", ends_on="2020-12-31"
        )
        old = session_create(club=s.club, actor=s.organiser, name="Old night")
        Session.objects.filter(pk=old.pk).update(season=self.season)
        self.closed = session_close(session=old, actor=s.organiser)
        self.cup = new_tournament(standing)
        self.called_off = new_tournament(
            standing, name="Autumn cup", kind="rounds", rounds=2,
            preset=RulePreset.objects.get(club=None, key="pool-101"),
        )  # fmt: skip
        enter(standing, self.cup, list(Player.objects.filter(pk__in=self.pids.values())))
        tournament_cancel(tournament=self.called_off, actor=s.organiser)
        self.retired = player_update(
            player=Player.objects.get(pk=self.pids["Dev"]), actor=s.organiser,
            actor_role="organiser", active=False,
        )  # fmt: skip
        hook = Endpoint.objects.create(club=s.club, url="http://127.0.0.1:9/h", secret="s" * 32)
        self.hook = hook
        for status in ("delivered", "abandoned", "delivered"):
            event = Event.objects.create(club=s.club, name="ping")
            delivery = Delivery.objects.create(endpoint=hook, event=event, status=status)
            Attempt.objects.create(endpoint=hook, delivery=delivery, status_code=200)


@pytest.fixture
def club(standing: Standing) -> Club:
    return Club(standing)


def _in(model: Any, **lookup: Any) -> Callable[[int], bool]:
    chosen = set(model.objects.filter(**lookup).values_list("pk", flat=True))
    return lambda pk: pk in chosen


# (list path, query, which rows of the unfiltered list it keeps)
NARROWING: list[tuple[str, dict[str, str], Callable[[Club], Callable[[int], bool]]]] = [
    ("sessions/", {"status": "closed"}, lambda c: _in(Session, status="closed")),
    ("sessions/", {"status": "open"}, lambda c: _in(Session, status="open")),
    ("sessions/", {"season": "{season}"}, lambda c: _in(Session, season=c.season)),
    ("games/", {"game_format": "pool"}, lambda c: _in(Game, format="pool")),
    ("games/", {"status": "finished"}, lambda c: _in(Game, status="finished")),
    ("games/", {"session": "{points_session}"},
     lambda c: _in(Game, table__session=c.points.table.session)),
    ("games/", {"table": "{pool_table}"}, lambda c: _in(Game, table=c.pool.table)),
    ("games/", {"player": "{asha}"}, lambda c: _in(Game, seats__player_id=c.pids["Asha"],
                                                  format__in=["points", "pool"])),
    ("games/{points}/deals/", {"status": "void"}, lambda c: _in(Deal, status="void")),
    ("games/{points}/deals/", {"status": "final"}, lambda c: _in(Deal, status="final")),
    ("deals/", {"game": "{pool}"}, lambda c: _in(Deal, game=c.pool)),
    ("deals/", {"session": "{points_session}"},
     lambda c: _in(Deal, game__table__session=c.points.table.session)),
    ("deals/", {"status": "final"}, lambda c: _in(Deal, status="final")),
    ("deals/{corrected_deal}/submissions/", {"status": "superseded"},
     lambda c: _in(Submission, status="superseded")),
    ("submissions/", {"status": "voided"}, lambda c: _in(Submission, status="voided")),
    ("submissions/", {"deal": "{corrected_deal}"},
     lambda c: _in(Submission, deal=c.corrected.deal)),
    ("submissions/", {"game": "{pool}"}, lambda c: _in(Submission, deal__game=c.pool)),
    ("players/", {"active": "false"}, lambda c: _in(Player, active=False)),
    ("players/", {"search": "ch"}, lambda c: _in(Player, name__istartswith="ch")),
    ("members/", {"role": "scorer"}, lambda c: _in(Membership, role=Role.SCORER)),
    ("tournaments/", {"status": "cancelled"}, lambda c: _in(Tournament, status="cancelled")),
    ("tournaments/", {"kind": "knockout"}, lambda c: _in(Tournament, kind="knockout")),
    ("tournaments/", {"game_format": "points"}, lambda c: _in(Tournament, preset__format="points")),
    ("tournaments/", {"player": "{asha}"}, lambda c: _in(Tournament, entries__player_id=c.pids[
        "Asha"])),
    ("tournaments/{cup}/entries/", {"player": "{asha}"},
     lambda c: _in(Entry, tournament=c.cup, player_id=c.pids["Asha"])),
    ("webhooks/{hook}/deliveries/", {"delivery_status": "abandoned"},
     lambda c: _in(Attempt, delivery__status="abandoned")),
]  # fmt: skip


def _fill(text: str, c: Club) -> str:
    return text.format(
        season=c.season.pk, points=c.points.pk, pool=c.pool.pk, asha=c.pids["Asha"],
        points_session=c.points.table.session_id, pool_table=c.pool.table_id,
        corrected_deal=c.corrected.deal_id, hook=c.hook.pk, cup=c.cup.pk,
    )  # fmt: skip


@pytest.mark.parametrize(("path", "query", "keeps"), NARROWING)
def test_each_filter_keeps_what_it_names_and_only_that(club, path, query, keeps):
    client = club.standing.client("organiser")
    path = f"{C}/{_fill(path, club)}"
    everything = ids(client, path)
    kept = keeps(club)
    found = ids(client, path, **{k: _fill(v, club) for k, v in query.items()})
    assert found == [pk for pk in everything if kept(pk)]
    assert found, "the filter keeps something"
    assert len(found) < len(everything), "and leaves something out"


def _since(client: APIClient, path: str, moment: datetime) -> list[int]:
    return ids(client, path, updated_since=moment.isoformat())


def test_updated_since_answers_what_each_write_path_changed_oldest_change_first(club):
    s = club.standing
    client = s.client("organiser")
    deal = club.corrected.deal
    before = db_now()
    assert _since(client, f"{C}/deals/", before) == []
    assert _since(client, f"{C}/submissions/", before) == []

    # A correction: a new version, the one it supersedes updated in bulk (QuerySet.update).
    counted = Submission.objects.get(deal=deal, status="accepted")
    again = correct(s, deal, results(club.pids, Chitra="winner", Asha=1, Bilal=2, Dev=3))
    assert again.status == "accepted"
    assert _since(client, f"{C}/submissions/", before) == [counted.pk, again.pk]
    assert _since(client, f"{C}/deals/{deal.pk}/submissions/", before) == [counted.pk, again.pk]

    # A void: the deal's status and its counted version's, both by QuerySet.update().
    third = play(s, club.points, results(club.pids, Bilal="winner", Asha=4, Chitra=5, Dev=6))
    after_play = db_now()
    deal_void(deal=third.deal, actor=s.organiser)
    assert _since(client, f"{C}/deals/", after_play) == [third.deal_id]
    assert _since(client, f"{C}/submissions/", after_play) == [third.pk]
    assert Submission.objects.get(pk=third.pk).status == "voided"

    # Status changes: a game finished, a night closed, a role, a player retired, a tournament.
    moment = db_now()
    game_finish(game=club.points, actor=s.organiser)
    assert _since(client, f"{C}/games/", moment) == [club.points.pk]
    moment = db_now()
    night = club.pool.table.session
    game_finish(game=club.pool, actor=s.organiser, end="abandoned")
    session_close(session=night, actor=s.organiser)
    assert _since(client, f"{C}/sessions/", moment) == [night.pk]
    moment = db_now()
    member = Membership.objects.get(club=s.club, user=s.player)
    membership_change_role(membership=member, actor=s.owner, actor_role=Role.OWNER, role="scorer")
    assert _since(client, f"{C}/members/", moment) == [member.pk]
    moment = db_now()
    asha = Player.objects.get(pk=club.pids["Asha"])
    player_update(player=asha, actor=s.organiser, actor_role="organiser", name="Asha K")
    assert _since(client, f"{C}/players/", moment) == [asha.pk]
    moment = db_now()
    tournament_start(tournament=club.cup, actor=s.organiser)  # seeds the entries (bulk_update)
    assert _since(client, f"{C}/tournaments/", moment) == [club.cup.pk]
    assert Entry.objects.filter(tournament=club.cup, updated_at__gte=moment).count() == 4
    assert len(_since(client, f"{C}/tournaments/{club.cup.pk}/entries/", moment)) == 4

    # Oldest change first, by the database's clock, whatever the list's own order.
    rows = client.get(f"{C}/games/", {"updated_since": before.isoformat()}).json()["results"]
    assert [r["id"] for r in rows] == [club.points.pk, club.pool.pk]
    assert rows[0]["updated_at"] <= rows[1]["updated_at"]


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite's trigger stamps every update of a row"
)
def test_a_write_that_changes_nothing_is_no_change(club):
    s = club.standing
    moment = db_now()
    Session.objects.filter(pk=club.closed.pk).update(name=club.closed.name)
    assert _since(s.client("player"), f"{C}/sessions/", moment) == []


def test_updated_since_is_inclusive_and_read_in_any_offset(club):
    client = club.standing.client("player")
    row = Session.objects.get(pk=club.closed.pk)
    at = row.updated_at
    assert club.closed.pk in _since(client, f"{C}/sessions/", at)
    elsewhere = at.astimezone(ZoneInfo("Asia/Kolkata"))  # the same time, another offset
    assert _since(client, f"{C}/sessions/", elsewhere) == _since(client, f"{C}/sessions/", at)
    response = client.get(f"{C}/sessions/?updated_since={at.isoformat().replace('+00:00', 'Z')}")
    assert club.closed.pk in [r["id"] for r in response.json()["results"]]


@pytest.mark.parametrize(
    ("path", "name", "value", "message"),
    [
        ("sessions/", "updated_since", "yesterday", "give a time with its offset"),
        ("sessions/", "updated_since", "2026-11-26T10:00:00", "give a time with its offset"),
        ("sessions/", "updated_since", "2026-02-30T10:00:00Z", "give a time with its offset"),
        # A '+' left unencoded in a URL arrives as a space.
        ("players/", "updated_since", "2026-11-26T10:00:00 05:30", "give a time with its offset"),
        ("sessions/", "status", "AAA", "use open, closed, not 'AAA'"),
        ("sessions/", "season", "-1", "must be a whole number from 1"),
        ("games/", "player", "1.5", "must be a whole number from 1"),
        ("games/", "player", "99999999999999999999", "must be a whole number from 1"),
        ("games/", "game_format", "purse", "use points, pool, deals, rummikub, okey, not 'purse'"),
        ("deals/", "game", "abc", "must be a whole number from 1"),
        ("players/", "active", "yes", "use true or false, not 'yes'"),
        ("members/", "role", "king", "use owner, organiser, scorer, player, not 'king'"),
        ("tournaments/", "status", "over", "use draft, registration"),
        ("tournaments/{cup}/entries/", "status", "gone", "use registered, "),
        ("webhooks/{hook}/deliveries/", "updated_since", "now", "give a time with its offset"),
    ],
)
def test_a_value_a_filter_cannot_read_is_a_400_naming_it(club, path, name, value, message):
    client = club.standing.client("organiser")
    response = client.get(f"{C}/{_fill(path, club)}", {name: value})
    error = assert_error(response, 400, "invalid")
    assert list(error["details"]) == [name]
    assert error["message"].startswith(f"{name}: ")
    assert message in error["message"]


def test_a_time_at_the_calendars_edges_is_read_whatever_its_offset(club):
    client = club.standing.client("player")
    everything = ids(client, f"{C}/games/")
    assert sorted(ids(client, f"{C}/games/", updated_since="0001-01-01T00:00:00+23:59")) == sorted(
        everything
    )
    assert ids(client, f"{C}/games/", updated_since="9999-12-31T23:59:59.5-23:59") == []


def test_a_blank_filter_is_one_left_out(club):
    client = club.standing.client("player")
    everything = ids(client, f"{C}/games/")
    blank = {"session": "", "table": "", "format": "", "status": "", "player": ""}
    assert ids(client, f"{C}/games/", **blank, updated_since="") == everything


def test_the_schema_declares_each_lists_filters_from_its_filterset(db):
    from django.urls import get_resolver

    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    declared = {
        operation["operationId"]: {p["name"] for p in operation.get("parameters", [])
                                   if p["in"] == "query"}
        for operations in schema["paths"].values() for operation in operations.values()
        if isinstance(operation, dict) and "operationId" in operation
    }  # fmt: skip
    filtered: dict[str, type[ListFilterSet]] = {}

    def walk(patterns: list[Any]) -> None:
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns)
                continue
            view = getattr(pattern.callback, "cls", None)
            handler = getattr(view, "get", None)
            filterset = getattr(handler, "filterset", None)
            if filterset is not None:
                filtered[handler.__qualname__] = filterset
                taken = handler.query_parameters
                assert set(filterset.base_filters) <= taken
                assert any(taken == names for names in declared.values())

    walk(get_resolver().url_patterns)
    assert len(filtered) >= 10
    for filterset in filtered.values():
        assert "updated_since" in filterset.base_filters


@pytest.mark.parametrize("query", [{}, {"updated_since": "2000-01-01T00:00:00Z"}])
def test_the_night_list_counts_each_night_of_its_page_in_the_order_it_lists(
    club: Club, query: dict[str, str]
) -> None:
    """The counts are read for the page only, after it is cut: each row still has its own
    night's tables and deals, in the list's order (its own, or the order of change)."""
    client = club.standing.client("organiser")
    rows = []
    for offset in range(Session.objects.count()):
        response = client.get(f"{C}/sessions/", {"limit": 1, "offset": offset, **query})
        assert response.status_code == 200, response.content
        rows += response.json()["results"]
    assert [row["id"] for row in rows] == ids(client, f"{C}/sessions/", **query)
    for row in rows:
        assert row["table_count"] == Table.objects.filter(session_id=row["id"]).count()
        assert row["deal_count"] == Deal.objects.filter(game__table__session_id=row["id"]).count()
    assert sorted(row["deal_count"] for row in rows)[-2:] == [1, 2]  # the two nights played
