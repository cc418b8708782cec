"""A refusal is one line in the log: no traceback for a 4xx, and no second copy of it."""

from __future__ import annotations

import logging
import sys

from config.logs import ClientErrorsWithoutTraceback


def _record(status: int) -> logging.LogRecord:
    try:
        raise PermissionError("no role")
    except PermissionError:
        record = logging.LogRecord(
            "django.request", logging.WARNING, __file__, 1, "Forbidden", (), sys.exc_info()
        )
    record.status_code = status
    return record


def test_a_4xx_keeps_its_line_and_loses_its_traceback_a_5xx_keeps_both():
    refusal, failure = _record(403), _record(500)
    keep = ClientErrorsWithoutTraceback()
    assert keep.filter(refusal) and keep.filter(failure)
    assert refusal.exc_info is None and failure.exc_info is not None


def test_django_s_records_are_printed_once_through_the_root_console():
    from config.settings import base

    config = base.LOGGING
    assert config["loggers"]["django"] == {"handlers": [], "propagate": True}
    assert config["root"]["handlers"] == ["console"]
    assert "client_errors" in config["handlers"]["console"]["filters"]
