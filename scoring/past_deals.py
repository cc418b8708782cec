"""Nights and deals of the past written at once (an import of past results,
``standings.result_import``). Each night, table and game is checked as the desk's services
check one (names, seats, the preset) and audited as they audit it; each deal is checked and
scored by the game's rules and posted as a live entry is (the same handler's check and ledger
lines, a submission of version 1 accepted with its source); each night is closed as a closed
night's games end (the format's end entries, through the one writer). But the lot is written in
a few statements, whatever the number of nights, games or deals, so that thousands of deals
import in seconds. No event is sent for them: they are history, not news (the import takes the
games into the ratings itself)."""

from __future__ import annotations

import dataclasses
import zoneinfo
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from clubs.audit import audit_records
from clubs.models import Club, Player
from config.errors import InvalidInput
from config.names import require_length, visible_name
from ledger.books import books_open
from ledger.writer import Line
from scoring.formats import GameEnd, handler_for, result_moved
from scoring.formats.base import require_open_game
from scoring.games import GAME_FIELDS, players_check
from scoring.models import (
    GAME_BOOK,
    Deal,
    Game,
    RulePreset,
    Season,
    Seat,
    Session,
    Submission,
    Table,
)  # fmt: skip
from scoring.nights import require_open_session, season_for
from scoring.posting import DealResult, deal_entries_create, ledger_entry_create
from scoring.preset_rules import game_rules


@dataclass(frozen=True)
class PastTable:
    """A table of a past night: its name and its players (ids, in seat order); ``places``,
    each player's final place, when its game's result is given as such (a pool or deals game
    with no deals: no opening entries, no entry fee, its money is the caller's entry, and it ends
    played out with no end entries)."""

    name: str
    players: list[int]
    places: dict[int, int] | None = None


@dataclass(frozen=True)
class PastNight:
    name: str
    started_at: datetime
    tables: list[PastTable]


class _Seasons:
    """``season_for`` for many dates: the club's seasons read once."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.known = list(Season.objects.filter(club=club))

    def holding(self, when: datetime) -> Season:
        day = timezone.localtime(when, zoneinfo.ZoneInfo(self.club.timezone)).date()
        found = [s for s in self.known if s.starts_on <= day <= s.ends_on]
        if found:
            return max(found, key=lambda season: season.starts_on)
        season = season_for(club=self.club, when=when)
        self.known.append(season)
        return season


def _name(raw: str, model: type[Session] | type[Table], what: str) -> str:
    name = visible_name(raw)
    if not name:
        raise InvalidInput(
            "name: "
            + (
                gettext("give the table a name that shows")
                if what == "table"
                else gettext("give the session a name that shows")
            )
        )
    limit = model._meta.get_field("name").max_length
    assert isinstance(limit, int)
    require_length(name, field="name", limit=limit)
    return name


@transaction.atomic
def past_nights_open(
    *, club: Club, actor: AbstractBaseUser, preset: RulePreset, nights: list[PastNight]
) -> list[list[Game]]:
    """The nights (sessions), their tables and one game a table under ``preset`` with its
    players seated, as ``session_create``, ``table_create`` and ``game_create`` make them, all
    at once; each game's opening entries posted. Returns each night's games in table order."""
    if preset.club_id not in (None, club.pk):
        raise InvalidInput("preset: " + gettext("not a preset of this club"))
    rules = game_rules(preset)
    players = Player.objects.in_bulk({pid for n in nights for t in n.tables for pid in t.players})
    for night in nights:
        names = [_name(table.name, Table, "table") for table in night.tables]
        if len(set(names)) != len(names):
            raise InvalidInput(
                "name: "
                + gettext("%(name)s has two tables of the same name") % {"name": repr(night.name)}
            )
        for table in night.tables:
            seated = [players[pid] for pid in table.players]
            players_check(club, seated)
            if not rules.min_players <= len(seated) <= rules.max_players:
                raise InvalidInput(
                    "players: "
                    + gettext(
                        "a %(preset)s game seats %(least)s to %(most)s players, not %(given)s"
                    )
                    % {
                        "preset": preset.name,
                        "least": rules.min_players,
                        "most": rules.max_players,
                        "given": len(seated),
                    }
                )
    seasons = _Seasons(club)
    sessions = Session.objects.bulk_create(
        Session(club=club, name=_name(night.name, Session, "session"), started_at=night.started_at,
                created_by=actor, season=seasons.holding(night.started_at))
        for night in nights
    )  # fmt: skip
    tables = Table.objects.bulk_create(
        Table(session=session, name=_name(table.name, Table, "table"))
        for session, night in zip(sessions, nights, strict=True)
        for table in night.tables
    )  # fmt: skip
    books = books_open(club_id=club.pk, owner=GAME_BOOK, count=len(tables))
    points_only = club.points_only
    given = [table.places for night in nights for table in night.tables]
    games = Game.objects.bulk_create(
        Game(table=table, book=book, format=preset.format, preset=preset,
             point_value_minor=0 if points_only else rules.point_value_minor,
             entry_fee_minor=0 if points_only or places else rules.entry_fee_minor)
        for table, book, places in zip(tables, books, given, strict=True)
    )  # fmt: skip
    seats = [table.players for night in nights for table in night.tables]
    Seat.objects.bulk_create(
        Seat(game=game, player_id=pid, position=index + 1,
             place=None if places is None else places[pid])
        for game, seated, places in zip(games, seats, given, strict=True)
        for index, pid in enumerate(seated)
    )  # fmt: skip
    audit_records(actor=actor, club=club, records=[
        *(("session.create", s, None, {"name": s.name, "started_at": str(s.started_at)})
          for s in sessions),
        *(("table.create", table, None, {"name": table.name}) for table in tables),
        *(("game.create", game, None,
           {**{name: _plain(getattr(game, name)) for name in GAME_FIELDS}, "players": seated})
          for game, seated in zip(games, seats, strict=True)),
    ])  # fmt: skip
    by_session: dict[int, list[Game]] = defaultdict(list)
    for game, made, places in zip(games, tables, given, strict=True):
        by_session[made.session_id].append(game)
        if places is not None:  # a result given whole: no opening chips or fees to play from
            continue
        for entry in handler_for(game).game_opened(game=game, rules=rules):
            ledger_entry_create(game=game, kind=entry.kind, lines=entry.lines, memo=entry.memo)
    return [by_session[session.pk] for session in sessions]


def _plain(value: Any) -> Any:
    return value.pk if isinstance(value, RulePreset) else value


@transaction.atomic
def past_deals_count(
    *, actor: AbstractBaseUser, source: str, games: list[tuple[Game, list[dict[str, Any]]]]
) -> list[Deal]:
    """Each game's next deals with their results (``games``: a game and its deals' payloads),
    counted: all or none. A result the rules refuse refuses the lot, naming its place in the
    list of every payload given (``deals[i]``) and the reasons."""
    locked = (
        Game.objects.select_for_update(of=("self",))
        .select_related("preset", "table__session__club")
        .in_bulk([game.pk for game, _ in games])
    )
    last = dict(
        Deal.objects.filter(game__in=list(locked))
        .values("game").annotate(last=Max("number")).values_list("game", "last")
    )  # fmt: skip
    now = timezone.now()
    counted: list[tuple[Game, Deal, Submission, list[Line], list[DealResult]]] = []
    index = 0
    for given, payloads in games:
        game = locked[given.pk]
        require_open_session(game.table.session)
        require_open_game(game)
        rules, handler = game_rules(game.preset), handler_for(game)
        players = handler.next_deal_players(game=game, rules=rules, is_tiebreaker=False)
        first = last.get(game.pk, 0) + 1
        last[game.pk] = first + len(payloads) - 1
        for number, payload in enumerate(payloads, start=first):
            deal = Deal(game=game, number=number, status=Deal.Status.FINAL, wild="")
            submission = Submission(
                deal=deal, version=1, status=Submission.Status.ACCEPTED, source=source,
                payload=payload, submitted_by=actor, validated_at=now,
            )  # fmt: skip
            checked = handler.submission_check(submission=submission, rules=rules, players=players)
            if not checked.evaluation.ok:
                raise InvalidInput(
                    f"deals[{index}]: {checked.reasons[0]['message']}",
                    details={"index": index, "reasons": checked.reasons},
                )
            lines, extra = handler.deal_lines(game=game, rules=rules, checked=checked)
            checked = dataclasses.replace(checked, result=result_moved(checked.result, lines))
            submission.result = {**(checked.result or {}), **extra}
            winner = checked.evaluation.winner
            results: list[DealResult] = [
                (score.player, score.outcome, score.points, score.player == winner)
                for score in checked.evaluation.scores
            ]
            counted.append((game, deal, submission, lines, results))
            index += 1
    Deal.objects.bulk_create([deal for _, deal, *_ in counted])
    for _, deal, submission, *_ in counted:
        submission.deal = deal
    Submission.objects.bulk_create([submission for _, _, submission, *_ in counted])
    deal_entries_create(counted=counted)
    if games:
        club = locked[games[0][0].pk].table.session.club
        audit_records(actor=actor, club=club, records=[
            ("deals.count_past", locked[given.pk], None,
             {"deals": [last[given.pk] - len(payloads) + 1, last[given.pk]], "source": source})
            for given, payloads in games
        ])  # fmt: skip
    return [deal for _, deal, *_ in counted]


@transaction.atomic
def past_nights_close(*, actor: AbstractBaseUser, nights: list[tuple[Session, datetime]]) -> None:
    """Close the nights of the past, each at its time (``nights``: a session and when it
    ended), as ``session_close`` closes one: every open game ends the organiser's way (its
    format's end entries posted) and finishes at the night's end."""
    ended_at = {session.pk: ended for session, ended in nights}
    sessions = list(
        Session.objects.select_for_update(of=("self",)).select_related("club")
        .filter(pk__in=list(ended_at))
    )  # fmt: skip
    games = list(
        Game.objects.select_for_update(of=("self",))
        .select_related("preset", "table__session__club")
        .filter(table__session__in=list(ended_at), status=Game.Status.OPEN)
    )
    for session in sessions:
        require_open_session(session)
    placed = set(
        Seat.objects.filter(game__in=games, place__isnull=False).values_list("game_id", flat=True)
    )
    written: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for game in games:
        if game.pk in placed:  # its result was given whole, its money posted with it
            game.status, game.end = Game.Status.FINISHED, GameEnd.PLAYED_OUT
            game.finished_at = ended_at[game.table.session_id]
            continue
        rules = game_rules(game.preset)
        for entry in handler_for(game).end_entries(
            game=game, rules=rules, end=GameEnd.BY_ORGANISER, shares=None
        ):
            posted = ledger_entry_create(
                game=game, kind=entry.kind, lines=entry.lines, memo=entry.memo
            )
            written[game.pk].append({"entry": posted.pk, "kind": entry.kind})
        game.status, game.end = Game.Status.FINISHED, GameEnd.BY_ORGANISER
        game.finished_at = ended_at[game.table.session_id]
    Game.objects.bulk_update(games, ["status", "end", "finished_at"], batch_size=500)
    for session in sessions:
        session.status, session.closed_at = Session.Status.CLOSED, ended_at[session.pk]
    Session.objects.bulk_update(sessions, ["status", "closed_at"], batch_size=500)
    audit_records(actor=actor, club=sessions[0].club if sessions else None, records=[
        *(("game.finish", game, {"status": Game.Status.OPEN},
           {"status": Game.Status.FINISHED, "end": game.end, "entries": written[game.pk]})
          for game in games),
        *(("session.close", session, {"status": "open"}, {"status": "closed"})
          for session in sessions),
    ])  # fmt: skip
