from typing import Any

from django.apps import AppConfig


def _ended(sender: Any, game_id: int, **kwargs: Any) -> None:
    """A game ended: a tournament's table may be settled now, in the background."""
    from tournaments.tasks import tournament_table_ended  # the app registry is ready only now

    tournament_table_ended.delay(game_id)


def _changed(sender: Any, game_id: int, **kwargs: Any) -> None:
    from tournaments.tasks import tournament_table_changed  # the app registry is ready only now

    tournament_table_changed.delay(game_id)


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from scoring.lifecycle import correction_guards, game_finished, game_result_changed
        from tournaments.services.corrections import correction_guard

        game_finished.connect(_ended, dispatch_uid="tournaments.table_ended")
        game_result_changed.connect(_changed, dispatch_uid="tournaments.table_changed")
        if correction_guard not in correction_guards:
            correction_guards.append(correction_guard)
