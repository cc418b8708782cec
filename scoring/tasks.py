"""Background work of the scoring app. Tasks take ids and call one service."""

from __future__ import annotations

from config.celery import project_task
from scoring.ratings import rating_game_update, ratings_catch_up
from scoring.submissions import submission_validate, submissions_requeue_stale


@project_task(name="scoring.validate_submission", ignore_result=True)
def validate_submission(submission_id: int) -> str:
    """Validate a pending submission; a no-op for one already decided (safe to run twice)."""
    return submission_validate(submission_id=submission_id).status


@project_task(name="scoring.requeue_stale_submissions")
def requeue_stale_submissions() -> int:
    """Periodic (celery beat): re-send validations that never ran."""
    return len(submissions_requeue_stale())


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
