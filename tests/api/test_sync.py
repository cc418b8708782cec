"""Sync that misses nothing: an app reads a whole club through the API, the club changes in 30
ways (deals, counts, seats, names, a merge, deletions, tournament entries, fees), and one
incremental sync (each list's ``updated_since``, then the tombstones) brings the app's copy to
exactly what a fresh full read answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from clubs.models import Membership, Player, Role, Tombstone
from clubs.services import membership_change_role, membership_remove, player_create, player_update
from scoring.deals import deal_create_with_result
from scoring.games import game_create, game_finish, seat_add, seat_remove, table_create
from scoring.models import Deal, Game, RulePreset, Session, Table
from scoring.nights import session_close, session_create
from scoring.undo import deal_delete, deal_void, game_delete, session_delete, table_delete
from tests.api.test_filters import db_now
from tests.conftest import Standing
from tests.scoring.helpers import correct, new_game, play, results
from tests.tournaments.helpers import enter, new_tournament
from tournaments.models import Entry, Tournament
from tournaments.services.entries import entries_check_in, entry_add, entry_withdraw
from tournaments.services.fees import entries_mark_paid, entry_unmark_paid
from tournaments.services.merge import player_merge
from tournaments.services.setup import tournament_cancel, tournament_start

C = "/api/v1/clubs/home"
FOUR = ["Asha", "Bilal", "Chitra", "Dev"]
LISTS = ["players", "members", "sessions", "games", "deals", "submissions", "tournaments"]
#: A tombstone's resource: the list of the app's copy it leaves.
LIST_OF = {
    "player": "players", "member": "members", "session": "sessions", "game": "games",
    "deal": "deals", "submission": "submissions", "tournament": "tournaments", "entry": "entries",
}  # fmt: skip
PAGE = 7  # small, so that each list is read in several pages

Copy = dict[str, dict[int, dict[str, Any]]]


def _pages(client: APIClient, path: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    url: str | None = f"{path}?limit={PAGE}"
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.content
        rows += response.json()["results"]
        url = response.json()["next"]
    return rows


def full_read(client: APIClient) -> Copy:
    copy = {name: {row["id"]: row for row in _pages(client, f"{C}/{name}/")} for name in LISTS}
    copy["entries"] = {
        row["id"]: row
        for tournament in copy["tournaments"]
        for row in _pages(client, f"{C}/tournaments/{tournament}/entries/")
    }
    return copy


def _changed(client: APIClient, path: str, since: str) -> list[dict[str, Any]]:
    """The docs' way: while a page is full, ask again from its last row's ``updated_at``."""
    rows: list[dict[str, Any]] = []
    for _ in range(100):
        response = client.get(path, {"updated_since": since, "limit": PAGE})
        assert response.status_code == 200, response.content
        page = response.json()["results"]
        rows += page
        if len(page) < PAGE:
            return rows
        assert page[-1]["updated_at"] != since, "a full page of rows sharing one time"
        since = page[-1]["updated_at"]
    raise AssertionError("the list never ended")


def incremental_sync(client: APIClient, copy: Copy, since: str) -> int:
    """Bring ``copy`` up to date from ``since``; the number of rows and tombstones read."""
    read = 0
    for name in LISTS:
        for row in _changed(client, f"{C}/{name}/", since):
            copy[name][row["id"]] = row
            read += 1
    for tournament in copy["tournaments"]:
        for row in _changed(client, f"{C}/tournaments/{tournament}/entries/", since):
            copy["entries"][row["id"]] = row
            read += 1
    for stone in _changed(client, f"{C}/tombstones/", since):
        copy[LIST_OF[stone["resource"]]].pop(stone["resource_id"], None)
        read += 1
    return read


class Club:
    """A club with two nights played and three empty ones, spare tables, games and a deal
    opened by mistake, a duplicate player, and two tournaments taking entries."""

    def __init__(self, standing: Standing) -> None:
        s = self.s = standing
        self.points, self.pids = new_game(s, "points", FOUR)
        self.pool, _ = new_game(s, "pool-101", FOUR, entry_fee_minor=100)
        first = results(self.pids, Asha="winner", Bilal=20, Chitra=3, Dev=5)
        second = results(self.pids, Dev="winner", Asha=7, Bilal=2, Chitra=30)
        self.first, self.second = play(s, self.points, first), play(s, self.points, second)
        play(s, self.pool, results(self.pids, Dev="winner", Asha=10, Bilal=10, Chitra=10))
        self.night = self.points.table.session
        self.mistaken, _ = deal_create_with_result(
            game=self.pool, actor=s.organiser, wild="", dealer=None, number=None,
            is_tiebreaker=False, source="api", payload=None,
        )  # fmt: skip
        self.spare_table = table_create(session=self.night, actor=s.organiser, name="Spare")
        self.side_table = table_create(session=self.night, actor=s.organiser, name="Side")
        self.esha = player_create(club=s.club, actor=s.organiser, name="Esha")
        self.farah = player_create(club=s.club, actor=s.organiser, name="Farah")
        self.dup = player_create(club=s.club, actor=s.organiser, name="Asha (again)")
        self.side = self._game(self.side_table, ["Esha", "Farah"])
        self.empty = self._game(self.spare_table, ["Esha", "Farah"])
        self.to_delete = session_create(club=s.club, actor=s.organiser, name="By mistake")
        self.to_close = session_create(club=s.club, actor=s.organiser, name="Quiet night")
        self.cup = new_tournament(s)
        self.called_off = new_tournament(s, name="Autumn cup")
        players = Player.objects.filter(pk__in=[self.pids[n] for n in FOUR])
        enter(s, self.cup, list(players), paid=False)
        enter(s, self.called_off, list(players)[:2])

    def _game(self, table: Table, names: list[str]) -> Game:
        return game_create(
            table=table, actor=self.s.organiser, preset=RulePreset.objects.get(club=None,
            key="points"), players=list(Player.objects.filter(name__in=names).order_by("name")),
        )  # fmt: skip

    def entry(self, tournament: Tournament, name: str) -> Entry:
        return Entry.objects.get(tournament=tournament, player__name=name)

    # The 30 changes, each by the service that makes it (a rename of an account by its model).
    def changes(self) -> list[Callable[[], Any]]:
        s, org, pids = self.s, self.s.organiser, self.pids
        member = Membership.objects.get(club=s.club, user=s.player)
        third = results(pids, Chitra="winner", Asha=2, Bilal=3, Dev=4)
        fixed = results(pids, Bilal="winner", Asha=9, Chitra=4, Dev=1)
        return [
            lambda: play(s, self.points, third),
            lambda: deal_void(deal=self.second.deal, actor=org),
            lambda: correct(s, self.first.deal, fixed),
            lambda: deal_delete(deal=self.mistaken, actor=org),
            lambda: table_create(session=self.night, actor=org, name="Late table"),
            lambda: game_delete(game=Game.objects.get(pk=self.empty.pk), actor=org),
            lambda: self._game(Table.objects.get(name="Late table"), ["Asha", "Esha"]),
            lambda: seat_add(game=self.side, actor=org, player=Player.objects.get(name="Dev")),
            lambda: seat_remove(game=self.side, actor=org, player=self.farah),
            lambda: table_delete(table=self.spare_table, actor=org),
            lambda: game_finish(game=self.pool, actor=org, end="abandoned"),
            lambda: player_update(
                player=Player.objects.get(pk=pids["Bilal"]), actor=org, actor_role="organiser",
                name="Bilal R",
            ),  # his name is in his seats and his entries
            lambda: player_update(
                player=self.farah, actor=org, actor_role="organiser", active=False
            ),
            lambda: player_update(
                player=Player.objects.get(pk=pids["Dev"]), actor=org, actor_role="organiser",
                upi_id="dev@okhdfc",
            ),
            lambda: player_create(club=s.club, actor=org, name="Gita"),
            lambda: player_merge(source=self.dup, target=Player.objects.get(name="Asha"),
                                 actor=org),
            # The scorer's account renamed: the name of a member and of who submitted.
            lambda: _rename(s.scorer, "scorer2"),
            lambda: membership_change_role(
                membership=member, actor=s.owner, actor_role=Role.OWNER, role="scorer"
            ),
            lambda: membership_remove(
                membership=Membership.objects.get(club=s.club, user=s.organiser),
                actor=s.owner, actor_role=Role.OWNER,
            ),
            lambda: session_create(club=s.club, actor=s.owner, name="Next Friday"),
            lambda: session_close(session=self.to_close, actor=s.owner),
            lambda: session_delete(session=self.to_delete, actor=s.owner),
            lambda: new_tournament(s, name="Winter cup"),
            lambda: entry_add(tournament=self.cup, actor=s.owner, player=self.esha),
            lambda: entry_withdraw(
                tournament=self.cup, actor=s.owner, entry_id=self.entry(self.cup, "Dev").pk
            ),
            lambda: entries_mark_paid(
                tournament=self.cup, actor=s.owner,
                entry_ids=[self.entry(self.cup, n).pk for n in ("Asha", "Chitra", "Esha")],
            ),
            lambda: entry_unmark_paid(
                tournament=self.cup, actor=s.owner, entry_id=self.entry(self.cup, "Chitra").pk
            ),
            lambda: entries_check_in(
                tournament=self.cup, actor=s.owner,
                entry_ids=[self.entry(self.cup, n).pk for n in ("Asha", "Esha")],
            ),
            lambda: tournament_start(tournament=self.cup, actor=s.owner),
            lambda: tournament_cancel(tournament=self.called_off, actor=s.owner),
        ]  # fmt: skip


def _rename(user: Any, username: str) -> None:
    user.username = username
    user.save(update_fields=["username"])


@pytest.fixture
def club(standing: Standing) -> Club:
    return Club(standing)


def test_one_incremental_sync_brings_the_app_to_the_servers_state(club: Club) -> None:
    client = club.s.client("owner")
    copy = full_read(client)
    since = db_now().isoformat()
    changes = club.changes()
    assert len(changes) == 30
    for change in changes:
        change()

    read = incremental_sync(client, copy, since)
    fresh = full_read(client)
    assert copy == fresh
    # It read what changed, not the whole club again.
    assert read < sum(len(rows) for rows in fresh.values())
    # The changes that show only in a count, a seat or a name are among them.
    night = fresh["sessions"][club.night.pk]
    assert (night["table_count"], night["deal_count"]) == (
        Table.objects.filter(session=club.night).count(),
        Deal.objects.filter(game__table__session=club.night).count(),
    )
    assert "Bilal R" in [seat["name"] for seat in fresh["games"][club.points.pk]["seats"]]
    gone = {(t.resource, t.resource_id, t.kind) for t in Tombstone.objects.all()}
    assert ("player", club.dup.pk, "merged") in gone
    assert ("deal", club.mistaken.pk, "deleted") in gone
    assert ("session", club.to_delete.pk, "deleted") in gone
    assert ("game", club.empty.pk, "deleted") in gone


def test_a_count_a_seat_or_a_name_moves_the_row_that_shows_it(club: Club) -> None:
    s, org = club.s, club.s.organiser
    client = s.client("owner")

    def since(moment: Any, path: str) -> list[int]:
        return [row["id"] for row in _changed(client, f"{C}/{path}", moment.isoformat())]

    moment = db_now()
    table_create(session=club.night, actor=org)
    assert since(moment, "sessions/") == [club.night.pk]
    moment = db_now()
    play(s, club.points, results(club.pids, Chitra="winner", Asha=2, Bilal=3, Dev=4))
    assert since(moment, "sessions/") == [club.night.pk]
    moment = db_now()
    seat_add(game=club.side, actor=org, player=club.dup)
    assert since(moment, "games/") == [club.side.pk]
    moment = db_now()
    chitra = Player.objects.get(pk=club.pids["Chitra"])
    player_update(player=chitra, actor=org, actor_role="organiser", name="Chitra V")
    assert since(moment, "games/") == sorted([club.points.pk, club.pool.pk])
    assert since(moment, f"tournaments/{club.cup.pk}/entries/") == [
        club.entry(club.cup, "Chitra V").pk
    ]
    moment = db_now()
    _rename(s.player, "player2")
    assert since(moment, "members/") == [Membership.objects.get(user=s.player).pk]


def test_tombstones_are_written_with_the_delete_and_listed_since_a_time(club: Club) -> None:
    s = club.s
    client = s.client("player")
    moment = db_now()
    deal_delete(deal=club.mistaken, actor=s.organiser)
    session_delete(session=club.to_delete, actor=s.owner)
    player_merge(source=club.dup, target=Player.objects.get(name="Asha"), actor=s.organiser)
    rows = _changed(client, f"{C}/tombstones/", moment.isoformat())
    assert [(r["resource"], r["resource_id"], r["kind"], r["merged_into"]) for r in rows] == [
        ("deal", club.mistaken.pk, "deleted", None),
        ("session", club.to_delete.pk, "deleted", None),
        ("player", club.dup.pk, "merged", club.pids["Asha"]),
    ]
    assert rows[0]["updated_at"] <= rows[1]["updated_at"] <= rows[2]["updated_at"]
    response = client.get(f"{C}/tombstones/", {"resource": "deal"})
    assert [r["resource_id"] for r in response.json()["results"]] == [club.mistaken.pk]
    # Another club's reader sees none of them.
    assert s.client("outsider").get(f"{C}/tombstones/").status_code == 404
    assert Session.objects.filter(pk=club.to_delete.pk).count() == 0
    assert get_user_model().objects.filter(username="player").exists()
