"""Deleting a game set up by mistake takes its empty book along in the same transaction: when
the database ends the request's backend between the game's delete and its book's, neither goes,
and the organiser's retry deletes both. On PostgreSQL, the backend ended as a failover would."""

from __future__ import annotations

import threading

import pytest
from django.db import DatabaseError, connection

from ledger.models import Book
from scoring.models import Game
from scoring.undo import game_delete
from tests.live import hold_inserts, wait_until
from tests.scoring.helpers import new_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

_WAITING_DELETES = (
    "FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
    " AND query LIKE 'DELETE FROM \"ledger_book\"%%'"
)


def _deletes_waiting(end: bool = False) -> int:
    what = "count(pg_terminate_backend(pid))" if end else "count(*)"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {what} {_WAITING_DELETES}")
        return int(cursor.fetchone()[0])


def test_a_backend_ended_before_the_book_goes_keeps_the_game_and_its_book(postgres, standing):
    game, _ = new_game(standing, "points", ["Asha", "Bilal", "Chitra", "Dev"])
    book_id = game.book_id
    blocker = hold_inserts("ledger_book")  # SHARE mode: a delete from it waits too
    failed: list[BaseException] = []

    def delete() -> None:
        try:
            game_delete(game=game, actor=standing.organiser)
        except DatabaseError as exc:
            failed.append(exc)
        finally:
            connection.close()

    deleting = threading.Thread(target=delete)
    deleting.start()
    try:
        wait_until(lambda: _deletes_waiting() >= 1, 30, "the book's delete never came")
        assert _deletes_waiting(end=True) == 1  # the request's backend, mid-transaction
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
        deleting.join(timeout=60)
    assert len(failed) == 1, failed
    assert Game.objects.filter(pk=game.pk).exists()
    assert Book.objects.filter(pk=book_id).exists()

    game_delete(game=Game.objects.get(pk=game.pk), actor=standing.organiser)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Book.objects.filter(pk=book_id).exists()
