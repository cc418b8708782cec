"""An event as the club that held it keeps it: a night or a tournament, refused while it is
not finished, its places and its games' finishing orders (what a federation's lists read) and
each game's ledger balances (what a signed export carries, checked to sum to zero). Read the
same way for a submission on the federation's own instance and for an export from the club's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from config.errors import Conflict, InvalidInput
from ledger.models import AccountKind
from ledger.selectors import book_balances
from scoring.lifecycle import game_finishing_order
from scoring.models import Game, RulePreset, Session, StandingScope
from standings.tables import standings_facts, standings_table
from tournaments.models import Tournament


@dataclass(frozen=True)
class HeldEvent:
    """A club's night (``session_id``) or tournament (``tournament_id``)."""

    club: Club
    session_id: int | None = None
    tournament_id: int | None = None

    @property
    def kind(self) -> str:
        return "tournament" if self.tournament_id is not None else "night"


def session_id_of(held: HeldEvent) -> int:
    if held.tournament_id is not None:
        session_id = Tournament.objects.filter(pk=held.tournament_id).values_list(
            "session_id", flat=True
        )[0]
        assert session_id is not None
        return int(session_id)
    assert held.session_id is not None
    return held.session_id


def places(held: HeldEvent) -> dict[int, int]:
    """Club player id -> place: a finished tournament's places, a night's standings ranks."""
    if held.tournament_id is not None:
        placed = Tournament.objects.get(pk=held.tournament_id).entries.filter(place__isnull=False)
        return {pid: place for pid, place in placed.values_list("player_id", "place") if place}
    assert held.session_id is not None
    session = StandingScope.SESSION
    facts = standings_facts(club=held.club, scope=session, scope_id=held.session_id)
    if not facts.count:
        return {}
    table = standings_table(
        club=held.club, scope=session, scope_id=held.session_id, limit=facts.count, facts=facts
    )
    return {line.player_id: line.rank for line in table.lines}


def finished_games(*, session_id: int) -> QuerySet[Game]:
    return (
        Game.objects.filter(table__session_id=session_id, status=Game.Status.FINISHED)
        .select_related("preset")
        .order_by("finished_at", "id")
    )


def rated_order(game: Game) -> dict[int, int] | None:
    """A game's finishing order as the ratings take it: none for a tie-breaker."""
    return None if game.breaks_tie else game_finishing_order(game=game)


def results(held: HeldEvent) -> dict[str, Any]:
    """Its places and its rated games' finishing orders (the ratings' exact input: finished
    games in the order they finished, tie-breakers left out)."""
    games = []
    for game in finished_games(session_id=session_id_of(held)):
        order = rated_order(game)
        if order:
            games.append({str(pid): rank for pid, rank in sorted(order.items())})
    placed = {str(pid): place for pid, place in sorted(places(held).items())}
    return {"places": placed, "games": games}


def game_ledger(game: Game) -> dict[str, dict[str, int]]:
    """Quantity -> account -> balance in the game's book: ``player:<id>``, ``game`` (its pot)
    and ``club``. Each quantity sums to zero, as every entry does."""
    out: dict[str, dict[str, int]] = {}
    for quantity, account, player_id, total in book_balances(book_id=game.book_id):
        name = f"player:{player_id}" if account == AccountKind.PLAYER else str(account)
        out.setdefault(str(quantity), {})[name] = int(total)
    return out


def started_at(held: HeldEvent) -> datetime:
    started: datetime = Session.objects.filter(pk=session_id_of(held)).values_list(
        "started_at", flat=True
    )[0]
    return started


def finished(held: HeldEvent, preset: RulePreset | None) -> tuple[dict[str, Any], date]:
    """Its results and the day it was played, refused while it is not finished, fewer than two
    players are placed, or a game was played under another preset than ``preset`` (or, when
    none is named, under more than one)."""
    games = Game.objects.filter(table__session_id=session_id_of(held))
    if held.tournament_id is not None:
        if Tournament.objects.get(pk=held.tournament_id).status != Tournament.Status.FINISHED:
            raise Conflict(
                "tournament: " + _("submit it once it has finished"), code="session_not_finished"
            )
    elif games.filter(status=Game.Status.OPEN).exists():
        raise Conflict("session: " + _("a game is still being played"), code="session_not_finished")
    if preset is not None and games.exclude(preset_id=preset.pk).exists():
        words = _("every game is played under %(preset)s") % {"preset": preset.shown_name}
        raise InvalidInput("event: " + words, code="bad_preset")
    if preset is None and games.values("preset_id").distinct().count() > 1:
        raise InvalidInput(
            "event: " + _("its games are played under different presets"), code="bad_preset"
        )
    found = results(held)
    if len(found["places"]) < 2:
        raise Conflict(
            "event: " + _("submit it once two players or more are placed"),
            code="session_not_finished",
        )
    return found, timezone.localdate(started_at(held))
