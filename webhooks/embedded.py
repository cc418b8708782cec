"""Webhooks under the embedded default (tasks in-process: no worker, no beat).

Nothing is sent inside a request: the deliveries a request's changes made are handed, once its
answer has gone (``request_finished``), to one daemon thread of the process. That thread does for
webhooks what the worker and beat do otherwise: it sends what is due, flushes the debounced
``standings.changed`` events when their window ends and makes the retries, then stops once no
delivery is pending and no standings change waits. Outside a request (a management command, a
shell) a delivery is sent at once: there is no answer to hold up.

The work the thread does is handed in at setup (``work_set``, by the app's ``ready``): the
services below hand deliveries to this module, so it cannot import them back."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.db import connections

logger = logging.getLogger("rummyclub.webhooks")

# The longest the thread sleeps while work is left; it is woken at once when more is handed.
LONGEST_NAP = 5.0

_request = threading.local()  # .open: this thread is serving a request; .handed: work waits
_wake = threading.Event()
_lock = threading.Lock()
_thread: threading.Thread | None = None
# One round of due work: sends what is due and answers how long until more is (None: nothing left).
_due_work: Callable[[], float | None] | None = None


def work_set(due_work: Callable[[], float | None]) -> None:
    """The round of work the thread runs (``webhooks.services.due_work_send``)."""
    global _due_work
    _due_work = due_work


def request_opened(**kwargs: Any) -> None:
    _request.open, _request.handed = True, False


def request_closed(**kwargs: Any) -> None:
    """The answer has been sent: the work the request handed over starts now."""
    handed = getattr(_request, "handed", False)
    _request.open, _request.handed = False, False
    if handed:
        wake()


def hand_off(send_now: Callable[[], None] | None) -> None:
    """Webhook work a transaction committed (tasks in-process): after the answer when a request
    is being served, else ``send_now`` at once (``None``: nothing to send yet, only a debounce
    to keep)."""
    if getattr(_request, "open", False):
        _request.handed = True
    elif send_now is not None:
        send_now()


def wake() -> None:
    """Have the thread look for due work now, starting it if it is not running."""
    global _thread
    with _lock:
        _wake.set()
        if _thread is None:
            _thread = threading.Thread(target=_run, name="webhooks-embedded", daemon=True)
            _thread.start()


def running() -> bool:
    with _lock:
        return _thread is not None


def _run() -> None:
    global _thread
    if _due_work is None:
        raise RuntimeError("webhooks.embedded: no work set (WebhooksConfig.ready sets it)")
    while True:
        _wake.clear()
        try:
            nap = _due_work()
        except Exception:  # the next round tries again; a delivery is never lost (its row stays)
            logger.exception("webhooks: in-process sending failed")
            nap = LONGEST_NAP
        finally:
            connections.close_all()
        with _lock:
            if nap is None and not _wake.is_set():
                _thread = None
                return
        _wake.wait(timeout=min(nap if nap is not None else 0.0, LONGEST_NAP))
