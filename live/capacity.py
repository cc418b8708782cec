"""How many streams one process holds: its open file limit raised as far as the system lets it
at start, the streams it holds counted, and those past its maximum refused with 503 and
Retry-After (the screen polls meanwhile) instead of the connection being reset.

Every stream is one open connection, so one file descriptor: a process whose soft limit is
1,024 (a common default) resets connections past about a thousand streams, whatever
``LIVE_MAX_STREAMS`` says. The soft limit is raised to the hard one at start
(``config.startup.raise_file_limit``), and the maximum held is the
smaller of ``LIVE_MAX_STREAMS`` and what the file limit leaves after ``SPARE_FILES`` for the
process's own files (its database and Redis connections, its modules, its logs)."""

from __future__ import annotations

import resource
import threading

from django.conf import settings

#: Files a live process keeps for itself besides its streams.
SPARE_FILES = 200
#: The wait a refused screen is told before trying its stream again, in seconds.
RETRY_AFTER_SECONDS = 30


def file_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def max_streams() -> int:
    """The streams this process holds at most."""
    room = file_limit() - SPARE_FILES
    return max(1, min(int(settings.LIVE_MAX_STREAMS), room))


class Streams:
    """The streams open in this process (asynchronous ones and threaded ones alike)."""

    def __init__(self) -> None:
        self.open = 0
        self.refused = 0
        self.renders = 0  # public parts rendered for the streams (once per part and change)
        self._lock = threading.Lock()

    def admit(self) -> Place | None:
        """A place for a new stream; None (counted as refused) when the process is full."""
        with self._lock:
            if self.open >= max_streams():
                self.refused += 1
                return None
            self.open += 1
        return Place(self)

    def _release(self) -> None:
        with self._lock:
            self.open -= 1

    def figures(self) -> dict[str, int]:
        return {
            "streams": self.open,
            "renders": self.renders,
            "max_streams": max_streams(),
            "refused": self.refused,
            "file_limit": file_limit(),
        }


streams = Streams()


class Place:
    """One stream's place, given back once whichever way the stream ends (ended, cut off, or
    never started)."""

    def __init__(self, owner: Streams) -> None:
        self.owner: Streams | None = owner

    def release(self) -> None:
        owner, self.owner = self.owner, None
        if owner is not None:
            owner._release()
