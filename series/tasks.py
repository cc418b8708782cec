"""Background work of the series: an event's kept results brought in step with its places after
a change. Tasks take ids and call one service; they are idempotent (a refresh recomputes)."""

from __future__ import annotations

from config.celery import project_task
from series.services import series_session_refresh, series_tournament_refresh


@project_task(name="series.session_changed", ignore_result=True)
def series_session_changed(session_id: int) -> int:
    """A night's standings changed: the series events of that night follow."""
    return series_session_refresh(session_id=session_id)


@project_task(name="series.tournament_changed", ignore_result=True)
def series_tournament_changed(tournament_id: int) -> int:
    """A tournament's places changed: the series events of that tournament follow."""
    return series_tournament_refresh(tournament_id=tournament_id)
