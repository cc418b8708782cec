from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "clubs"

    def ready(self) -> None:
        from clubs import schema  # noqa: F401  (registers the OpenAPI auth extension)
