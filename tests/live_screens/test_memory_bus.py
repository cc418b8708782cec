"""The embedded default's live screens under an ASGI server (the room: one uvicorn process, the
changes in its memory): a screen waiting on its stream is woken by the change itself, from the
thread that committed it, not by looking at memory on a timer."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from live import bus

# A screen woken by a timer of 0.2 s heard a change made 0.02 s into its wait some 0.18 s
# later; woken by the change, it hears it within a few milliseconds (a busy machine allowed).
HEARD_WITHIN = 0.1


async def _heard(topics: frozenset[str], publish_topics: list[str], wait: float) -> list[Any]:
    since = bus.memory.latest(topics)
    changes = bus.changes(topics, since, wait)
    heard: list[tuple[int | None, float]] = []
    published: list[float] = []

    def from_a_request_thread() -> None:
        time.sleep(0.02)
        published.append(time.monotonic())
        bus.publish_now(publish_topics)

    thread = threading.Thread(target=from_a_request_thread)
    thread.start()
    try:
        seq = await asyncio.wait_for(changes.__anext__(), 5)
        heard.append((seq, time.monotonic()))
    finally:
        await changes.aclose()
        thread.join()
    return [heard[0][0], heard[0][1] - published[0]]


def test_a_screen_hears_a_change_at_once_from_the_thread_that_made_it(settings):
    settings.LIVE_REDIS_URL = ""
    for _ in range(5):
        seq, after = asyncio.run(_heard(frozenset({"game:901"}), ["game:901", "club:9"], 10))
        assert seq == bus.memory.latest(["game:901"])
        assert after < HEARD_WITHIN, f"heard {after:.3f} s after the change"
    assert not bus.memory.waiters  # a screen gone leaves nothing behind


def test_a_change_of_other_topics_wakes_no_screen_and_quiet_brings_a_keep_alive(settings):
    settings.LIVE_REDIS_URL = ""
    started = time.monotonic()
    seq, _ = asyncio.run(_heard(frozenset({"game:902"}), ["game:903"], 0.5))
    assert seq is None  # the keep-alive after 0.5 s of quiet, not the other game's change
    assert 0.45 < time.monotonic() - started < 3
