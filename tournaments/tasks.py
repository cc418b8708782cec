"""Background work of tournaments. Tasks take ids and call one service."""

from __future__ import annotations

from config.celery import project_task
from tournaments.services.corrections import table_result_changed
from tournaments.services.tables import table_game_ended, tables_catch_up


@project_task(name="tournaments.table_game_ended", ignore_result=True)
def tournament_table_ended(game_id: int) -> str:
    """A game ended: if it is a tournament table's, settle it (idempotent)."""
    return table_game_ended(game_id=game_id)


@project_task(name="tournaments.table_result_changed", ignore_result=True)
def tournament_table_changed(game_id: int) -> str:
    """A finished table's result was corrected: its round is settled again (idempotent)."""
    return table_result_changed(game_id=game_id)


@project_task(name="tournaments.tables_catch_up", ignore_result=True)
def tournament_tables_catch_up() -> int:
    """Settle the tables whose end was never announced (run by beat)."""
    return len(tables_catch_up())
