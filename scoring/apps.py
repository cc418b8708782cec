from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self) -> None:
        from ledger.books import owner_register
        from scoring.models import ACCOUNT_BOOK, GAME_BOOK

        owner_register(GAME_BOOK)
        owner_register(ACCOUNT_BOOK)
