"""The one place a game ends. Its last deal, the organiser finishing it, an agreed split, a pot
refunded, the night closing: each calls :func:`game_end`, which writes what the game's format
pays at its end (a prize, a split, a settlement, a refund) to the ledger, marks the game finished
with how it ended, audits it and, once the transaction commits, announces it on
:data:`game_finished` (tournaments and ratings subscribe to it)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from config.errors import Conflict
from scoring.events import game_finished_event
from scoring.formats import EndEntry, GameEnd, handler_for
from scoring.models import Game
from scoring.posting import ledger_entry_create
from scoring.preset_rules import game_rules

logger = logging.getLogger(__name__)

#: Sent after the commit of a game's end, with ``game_id`` and ``end`` (a ``GameEnd``). Receivers
#: take ids and enqueue their work; one that fails is logged and does not stop the others.
game_finished = Signal()


#: Sent after the commit of a change to a finished game's result (a corrected deal of a closed
#: points table), with ``game_id``: its finishing order may have changed.
game_result_changed = Signal()


#: Checks run before a new version of a deal of a finished game is taken: each may refuse
#: (``Conflict``) a change others depend on (a tournament round already played on it).
correction_guards: list[Callable[[Game], None]] = []


def correction_check(*, game: Game) -> None:
    """Refuse a correction of a finished game when something built on its result says so."""
    if game.status == Game.Status.FINISHED:
        for guard in correction_guards:
            guard(game)


def _announce(signal: Signal, game_id: int, **kwargs: Any) -> None:
    for receiver, outcome in signal.send_robust(sender=Game, game_id=game_id, **kwargs):
        if isinstance(outcome, BaseException):
            logger.error("game %s: %r failed on it", game_id, receiver, exc_info=outcome)


def result_changed(*, game: Game) -> None:
    """A finished game's result changed: announced after the commit."""
    game_id = game.pk
    transaction.on_commit(lambda: _announce(game_result_changed, game_id))


def _lock_open(game: Game) -> Game:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("game_end runs inside the transaction of what ends the game")
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("preset", "table__session__club")
        .get(pk=game.pk)
    )
    if game.status != Game.Status.OPEN:
        raise Conflict(_("this game has finished"), code="game_finished")
    return game


def game_end(
    *,
    game: Game,
    actor: AbstractBaseUser | None,
    end: GameEnd,
    shares: dict[int, int] | None = None,
) -> Game:
    """End an open game ``end``'s way (``shares``: the prize of an agreed split). Runs inside
    the caller's transaction; locks the game's row. Refused (``Conflict``) when the game has
    already ended or its format does not allow that end now."""
    game = _lock_open(game)
    handler = handler_for(game)
    entries = handler.end_entries(game=game, rules=game_rules(game.preset), end=end, shares=shares)
    _close(game, actor, end, entries)
    game_id = game.pk
    transaction.on_commit(lambda: _announce(game_finished, game_id, end=end))
    return game


def _close(
    game: Game, actor: AbstractBaseUser | None, end: GameEnd, entries: list[EndEntry]
) -> None:
    written: list[dict[str, Any]] = []
    for entry in entries:
        posted = ledger_entry_create(game=game, kind=entry.kind, lines=entry.lines, memo=entry.memo)
        written.append({"entry": posted.pk, "kind": entry.kind})
    game.status, game.finished_at, game.end = Game.Status.FINISHED, timezone.now(), end
    Game.objects.filter(pk=game.pk).update(
        status=game.status, finished_at=game.finished_at, end=end
    )
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="game.finish",
        obj=game,
        before={"status": Game.Status.OPEN},
        after={"status": Game.Status.FINISHED, "end": end, "entries": written},
    )
    game_finished_event(game=game)


def game_finishing_order(*, game: Game) -> dict[int, int] | None:
    """The places of a finished game's players (1 best; equal results share a place), from its
    format or as its imported result gave them; ``None`` while it is open or when it was
    abandoned (no result)."""
    if game.status != Game.Status.FINISHED or game.end == GameEnd.ABANDONED:
        return None
    given = game.seats.filter(place__isnull=False).values_list("player_id", "place")
    if given:  # an imported result's places: the game holds no deals to rank by
        return {player_id: place for player_id, place in given if place is not None}
    return handler_for(game).finishing_order(game=game, rules=game_rules(game.preset))
