from django.apps import AppConfig
from django.core import checks


class ClubsConfig(AppConfig):
    name = "clubs"

    def ready(self) -> None:
        from clubs import schema  # noqa: F401  (registers the OpenAPI auth extension)
        from config.database_role import superuser_check

        checks.register(superuser_check, checks.Tags.security, deploy=True)
