from typing import Any

from django.apps import AppConfig


def _session_changed(sender: Any, session_id: int, **kwargs: Any) -> None:
    """A night's (or a tournament's session's) standings changed: its series results follow."""
    from series.tasks import series_session_changed  # the app registry is ready only now

    series_session_changed.delay(session_id)


def _places_changed(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    from series.tasks import series_tournament_changed  # the app registry is ready only now

    series_tournament_changed.delay(tournament_id)


class SeriesConfig(AppConfig):
    name = "series"

    def ready(self) -> None:
        # Scoring announces a session's changed standings, tournaments their changed places,
        # after the commit; the series above them listen.
        from scoring.standing_rows import session_standings_changed
        from tournaments.kinds.places import tournament_places_changed

        session_standings_changed.connect(_session_changed, dispatch_uid="series.session")
        tournament_places_changed.connect(_places_changed, dispatch_uid="series.tournament")
