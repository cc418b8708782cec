from django.apps import AppConfig
from django.core import checks


class WebhooksConfig(AppConfig):
    """Events out to a club's score apps and displays: signed, delivered at least once."""

    name = "webhooks"
    verbose_name = "Webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from webhooks.checks import claim_outlasts_delivery_check

        checks.register(claim_outlasts_delivery_check)
