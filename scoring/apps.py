from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self) -> None:
        from config.errors import rule_words_register
        from ledger.books import owner_register
        from scoring.formats.reason_words import reason_words
        from scoring.models import ACCOUNT_BOOK, GAME_BOOK

        owner_register(GAME_BOOK)
        owner_register(ACCOUNT_BOOK)
        # The API answers a rules engine refusal in the request's language, by its code.
        rule_words_register(reason_words)
