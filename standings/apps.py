from typing import Any

from django.apps import AppConfig


def _rate(sender: Any, game_id: int, **kwargs: Any) -> None:
    """A game ended, or its result changed: bring the ratings in step, in the background."""
    from standings.tasks import rate_game  # the app registry is ready only after import

    rate_game.delay(game_id)


class StandingsConfig(AppConfig):
    name = "standings"

    def ready(self) -> None:
        # Scoring announces a game's end and a changed result; the ratings above it listen.
        from scoring.lifecycle import game_finished, game_result_changed

        game_finished.connect(_rate, dispatch_uid="standings.ratings.finished")
        game_result_changed.connect(_rate, dispatch_uid="standings.ratings.changed")
