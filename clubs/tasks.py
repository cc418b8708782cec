"""Work of the clubs app done outside a request: periodic (celery beat) or sent through the
outbox."""

from __future__ import annotations

from clubs.api_kit.idempotency import idempotency_keys_prune
from clubs.signin.password_reset import SEND_TASK, password_reset_send
from config.celery import project_task


@project_task(name="clubs.prune_idempotency_keys")
def prune_idempotency_keys() -> int:
    """Hourly: forget Idempotency-Keys older than a day."""
    return idempotency_keys_prune()


@project_task(name=SEND_TASK)
def send_password_reset(
    email: str, domain: str, use_https: bool, request_id: str, language: str = ""
) -> None:
    """Sent through the outbox by a reset asked for on the page: mail the link, if any account
    has the address, in the page's language (none given: the site's default)."""
    password_reset_send(
        email=email, domain=domain, use_https=use_https, request_id=request_id, language=language
    )
