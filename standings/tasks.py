"""Background work of the standings: the ratings brought in step with the games. Tasks take ids
and call one service. Their names are older than the app ("scoring.…"): the settings route them
to the background queue by name, and a message in flight names them so."""

from __future__ import annotations

from config.celery import project_task
from standings.ratings import rating_game_update, ratings_catch_up
from standings.result_import import RUN_TASK, result_import_run

# A replay from an early game in a large club runs for seconds (100,000 rated games in about 20 s,
# docs/performance.md): on the background queue, with room for ten times that.
_REPLAY_SOFT_LIMIT = 600


@project_task(
    name="scoring.rate_game",
    ignore_result=True,
    soft_time_limit=_REPLAY_SOFT_LIMIT,
    time_limit=_REPLAY_SOFT_LIMIT + 30,
)
def rate_game(game_id: int) -> str:
    """Bring the ratings in step with a game that ended or whose result changed (idempotent)."""
    return rating_game_update(game_id=game_id)


@project_task(
    name="scoring.ratings_catch_up",
    soft_time_limit=_REPLAY_SOFT_LIMIT,
    time_limit=_REPLAY_SOFT_LIMIT + 30,
)
def ratings_catch_up_task() -> int:
    """Periodic (celery beat): rate finished games whose announcement was lost."""
    return len(ratings_catch_up())


@project_task(
    name=RUN_TASK,
    ignore_result=True,
    soft_time_limit=_REPLAY_SOFT_LIMIT,
    time_limit=_REPLAY_SOFT_LIMIT + 30,
)
def run_result_import(import_id: int) -> str:
    """Write a confirmed import of past results, all of it or nothing (a cancel rolls back)."""
    return result_import_run(import_id=import_id)
