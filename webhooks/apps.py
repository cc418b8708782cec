from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Events out to a club's score apps and displays: signed, delivered at least once."""

    name = "webhooks"
    verbose_name = "Webhooks"
    default_auto_field = "django.db.models.BigAutoField"
