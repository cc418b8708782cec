"""Logging helpers: a refusal answered on purpose is one line in the log, not a traceback."""

from __future__ import annotations

import logging


class ClientErrorsWithoutTraceback(logging.Filter):
    """A 4xx (a 403 for a missing role, a 404 for an outsider) is the service doing its job:
    keep the line, drop the traceback Django attaches to it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
