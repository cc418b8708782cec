from django.apps import AppConfig
from django.core import checks
from django.core.signals import request_finished, request_started


class WebhooksConfig(AppConfig):
    """Events out to a club's score apps and displays: signed, delivered at least once."""

    name = "webhooks"
    verbose_name = "Webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from webhooks import embedded
        from webhooks.checks import claim_outlasts_delivery_check
        from webhooks.services import due_work_send

        checks.register(claim_outlasts_delivery_check)
        embedded.work_set(due_work_send)
        # Tasks in-process: what a request's changes send goes after its answer.
        request_started.connect(embedded.request_opened, dispatch_uid="webhooks-request-opened")
        request_finished.connect(embedded.request_closed, dispatch_uid="webhooks-request-closed")
