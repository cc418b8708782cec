"""A forgotten password, asked for on the reset page: throttled per address asked for and per
client address, and the mail sent by a task through the outbox. The request does the same work
whether or not an account has the address (two counters, one outbox row): neither its answer nor
its time says which addresses exist, and the mail goes out while the page has already answered."""

from __future__ import annotations

import hashlib
import uuid

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import cache
from django.utils import translation

from config.counters import window_count
from outbox.services import outbox_enqueue

SEND_TASK = "clubs.send_password_reset"
WINDOW_SECONDS = 3600
# How long a sent reset is remembered, so that a message published twice mails once.
SENT_MEMORY_SECONDS = 24 * 3600


def _counted(kind: str, value: str) -> int:
    """One more request for ``value`` in its window (an hour from the first); the count so far."""
    digest = hashlib.sha256(value.encode()).hexdigest()
    return window_count(f"password-reset:{kind}:{digest}", WINDOW_SECONDS)


def password_reset_allowed(*, email: str, client_address: str) -> bool:
    """Count a reset asked for ``email`` from ``client_address``; False once either has asked for
    more than its limit within the hour. Both are counted every time, refused or not."""
    per_email = _counted("email", email.strip().lower())
    per_address = _counted("ip", client_address)
    return (
        per_email <= settings.PASSWORD_RESET_LIMIT
        and per_address <= settings.PASSWORD_RESET_IP_LIMIT
    )


def password_reset_request(*, email: str, domain: str, use_https: bool) -> None:
    """Send the reset mail for ``email`` through the outbox, whether or not an account has it:
    the task looks the accounts up. The link points at ``domain`` (the site the page was asked
    on). The mail is written in the language of the page it was asked on."""
    language = translation.get_language() or ""
    outbox_enqueue(
        task=SEND_TASK,
        args=[email, domain, use_https, uuid.uuid4().hex, language],
        key="password-reset",
    )


def password_reset_send(
    *, email: str, domain: str, use_https: bool, request_id: str, language: str = ""
) -> None:
    """Mail the reset link (Django's form, token and templates) to every active account with a
    usable password and this address; none: nothing is sent. ``request_id`` sends it once."""
    sent_key = f"password-reset:sent:{request_id}"
    if cache.get(sent_key):
        return
    form = PasswordResetForm(data={"email": email})
    if form.is_valid():
        with translation.override(language or None):
            form.save(domain_override=domain, use_https=use_https)
    cache.set(sent_key, True, timeout=SENT_MEMORY_SECONDS)
