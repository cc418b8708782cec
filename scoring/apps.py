from typing import Any

from django.apps import AppConfig


def _rate(sender: Any, game_id: int, **kwargs: Any) -> None:
    """A game ended, or its result changed: bring the ratings in step, in the background."""
    from scoring.tasks import rate_game  # the app registry is ready only after import

    rate_game.delay(game_id)


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self) -> None:
        from ledger.books import owner_register
        from scoring.lifecycle import game_finished, game_result_changed
        from scoring.models import ACCOUNT_BOOK, GAME_BOOK

        owner_register(GAME_BOOK)
        owner_register(ACCOUNT_BOOK)

        game_finished.connect(_rate, dispatch_uid="scoring.ratings.finished")
        game_result_changed.connect(_rate, dispatch_uid="scoring.ratings.changed")
