"""Background work of the scoring app. Tasks take ids and call one service."""

from __future__ import annotations

from config.celery import project_task
from scoring.submissions import submission_validate, submissions_requeue_stale


@project_task(name="scoring.validate_submission", ignore_result=True)
def validate_submission(submission_id: int) -> str:
    """Validate a pending submission; a no-op for one already decided (safe to run twice)."""
    return submission_validate(submission_id=submission_id).status


@project_task(name="scoring.requeue_stale_submissions")
def requeue_stale_submissions() -> int:
    """Periodic (celery beat): re-send validations that never ran."""
    return len(submissions_requeue_stale())
