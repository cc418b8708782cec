from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The pages that compose several apps (the club's home, a player's page, the club's
    settings): the top layer, above clubs, scoring and tournaments."""

    name = "pages"
    verbose_name = "Pages"
