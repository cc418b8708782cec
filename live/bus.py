"""Live screens' changes: a topic (``club:3``, ``session:12``, ``game:40``, ``deal:501``,
``tournament:7``) is announced after the commit of a change to what it names, and every screen
subscribed to it, in any web process, hears of it.

Every announcement takes the next number of one counter (the event id a screen keeps); each
topic remembers the number of its last change, so a screen that reconnects with the id it last
saw (``Last-Event-ID``) learns at once whether it missed something. With ``REDIS_URL`` the
counter, the topics' last numbers and the fan-out (pub/sub) are in Redis, shared by the web and
worker processes; without it (the embedded default: tasks in the web process) they are in this
process's memory."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings
from django.db import transaction

logger = logging.getLogger("rummyclub.live")

#: Redis connections of one stream process.
HUB_CONNECTIONS = 16
#: A topic's last change is remembered this long (a screen away longer refetches on return).
REMEMBER_SECONDS = 7 * 24 * 3600

# The counter, the topic's last number and the announcement, as one step.
_PUBLISH = """
local id = redis.call('INCR', KEYS[1])
for i, topic in ipairs(ARGV) do
  redis.call('SET', KEYS[2] .. topic, id, 'EX', tonumber(KEYS[4]))
end
redis.call('PUBLISH', KEYS[3], id .. ' ' .. table.concat(ARGV, ' '))
return id
"""


def _prefix() -> str:
    return str(settings.LIVE_PREFIX)


def _keys() -> tuple[str, str, str]:
    prefix = _prefix()
    return f"{prefix}:seq", f"{prefix}:last:", f"{prefix}:changes"


def uses_redis() -> bool:
    return bool(settings.LIVE_REDIS_URL)


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def _sync_client() -> redis.Redis:
    return _client(str(settings.LIVE_REDIS_URL))


@cache
def _publish_script(url: str) -> Any:
    """The announcement as a script Redis keeps: each call sends its digest (EVALSHA), not its
    text, and loads it again only where Redis lost it."""
    return _client(url).register_script(_PUBLISH)


# --- the embedded default: one process's memory ------------------------------------------------


@dataclass(eq=False)
class _Waiter:
    """A screen of an event loop (the room's uvicorn) waiting on this process's memory."""

    topics: frozenset[str]
    loop: asyncio.AbstractEventLoop
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def woken(self) -> None:
        """Wake it from whichever thread committed the change."""
        with contextlib.suppress(RuntimeError):  # its loop has closed: the screen is gone
            self.loop.call_soon_threadsafe(self.wake.set)


class MemoryBus:
    """The counter and the topics' last numbers of this process, a condition its threads'
    screens sleep on, and the screens of event loops to wake."""

    def __init__(self) -> None:
        self.seq = 0
        self.last: dict[str, int] = {}
        self.changed = threading.Condition()
        self.waiters: set[_Waiter] = set()

    def publish(self, topics: list[str]) -> int:
        with self.changed:
            self.seq += 1
            for topic in topics:
                self.last[topic] = self.seq
            self.changed.notify_all()
            woken = [w for w in self.waiters if not w.topics.isdisjoint(topics)]
            seq = self.seq
        for waiter in woken:
            waiter.woken()
        return seq

    def wait_here(self, waiter: _Waiter, here: bool) -> None:
        with self.changed:
            (self.waiters.add if here else self.waiters.discard)(waiter)

    def latest(self, topics: Iterable[str]) -> int:
        with self.changed:
            return max((self.last.get(topic, 0) for topic in topics), default=0)


memory = MemoryBus()


# --- announcing --------------------------------------------------------------------------------


def publish_now(topics: Iterable[str]) -> int | None:
    """Announce a change of ``topics``; its event id (``None`` when Redis could not be reached:
    the screens' polling still shows the change)."""
    names = sorted(set(topics))
    if not names:
        return None
    if not uses_redis():
        return memory.publish(names)
    seq, last, channel = _keys()
    try:
        script = _publish_script(str(settings.LIVE_REDIS_URL))
        return int(script(keys=[seq, last, channel, REMEMBER_SECONDS], args=names))
    except redis.RedisError as exc:
        logger.warning("live: %s not announced (%s)", " ".join(names), exc)
        return None


def publish(topics: Iterable[str]) -> None:
    """Announce a change of ``topics`` once the caller's transaction commits (at once outside
    one): a screen refetching on the announcement reads the committed change."""
    names = list(topics)
    transaction.on_commit(lambda: publish_now(names))


def current() -> int:
    """The newest event id, for a page about to open its stream: a change after it is news."""
    if not uses_redis():
        return memory.seq
    try:
        return int(_sync_client().get(_keys()[0]) or 0)
    except redis.RedisError:
        return 0


def latest(topics: Iterable[str]) -> int:
    """The event id of the newest change of any of ``topics`` (0 when none is remembered)."""
    names = list(topics)
    if not uses_redis():
        return memory.latest(names)
    last = _keys()[1]
    values = _sync_client().mget([last + name for name in names])
    return max((int(v) for v in values if v is not None), default=0)


# --- hearing -----------------------------------------------------------------------------------


#: What a screen that can wait waits for before it is woken (``changes``' ``after``).
After = Callable[[], Awaitable[None]]


@dataclass(eq=False)
class _Listener:
    topics: frozenset[str]
    after: After | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    newest: int = 0
    recheck: bool = False


class RedisHub:
    """One pub/sub connection per web process, whatever the number of screens: each
    announcement is matched against the screens' topics here and wakes those concerned. After a
    lost connection every screen checks its topics' last numbers, so nothing said meanwhile is
    missed."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.listeners: set[_Listener] = set()
        # A few connections shared by every screen (the pub/sub one among them), waited for
        # when all are busy: thousands of screens opening at once never open thousands.
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=HUB_CONNECTIONS, timeout=10, socket_connect_timeout=2
        )
        self.client = aioredis.Redis(connection_pool=pool)
        self.task: asyncio.Task[None] | None = None
        self.waking: set[asyncio.Task[None]] = set()  # kept until done (the loop keeps none)

    def add(self, topics: frozenset[str], after: After | None = None) -> _Listener:
        listener = _Listener(topics, after)
        self.listeners.add(listener)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._listen())
        return listener

    def remove(self, listener: _Listener) -> None:
        self.listeners.discard(listener)

    async def latest(self, topics: Iterable[str], otherwise: int) -> int:
        """The newest change of ``topics``; ``otherwise`` when Redis cannot say (the hub
        rechecks every screen once it is back)."""
        last = _keys()[1]
        try:
            values = await self.client.mget([last + name for name in topics])
        except (redis.RedisError, OSError) as exc:
            logger.warning("live: last changes not read (%s)", exc)
            return otherwise
        return max((int(v) for v in values if v is not None), default=0)

    async def _listen(self) -> None:
        channel = _keys()[2]
        while self.listeners:
            try:
                async with self.client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(channel)
                    for listener in list(self.listeners):  # what was said while away
                        listener.recheck = True
                        listener.wake.set()
                    while self.listeners:
                        message = await pubsub.get_message(timeout=5.0)
                        if message is not None:
                            self._deliver(message["data"])
            except (redis.RedisError, OSError) as exc:
                logger.warning("live: pub/sub connection lost (%s); reconnecting", exc)
                await asyncio.sleep(1.0)

    def _deliver(self, data: bytes) -> None:
        number, *topics = data.decode().split(" ")
        seq, changed = int(number), set(topics)
        later: dict[After, list[_Listener]] = {}
        for listener in self.listeners:
            if listener.topics & changed and seq > listener.newest:
                listener.newest = seq
                if listener.after is None:
                    listener.wake.set()
                else:
                    later.setdefault(listener.after, []).append(listener)
        for after, group in later.items():
            # One task for all of them: until it is their turn they cost the loop nothing.
            self.waking.add(asyncio.get_running_loop().create_task(_wake_after(after, group)))


async def _wake_after(after: After, group: list[_Listener]) -> None:
    try:
        await after()
    finally:
        for listener in group:
            listener.wake.set()
        task = asyncio.current_task()
        for hub in _hubs.values():
            hub.waking.discard(task)  # type: ignore[arg-type]


_hubs: dict[asyncio.AbstractEventLoop, RedisHub] = {}


def _hub() -> RedisHub:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        for old in [other for other in _hubs if other.is_closed()]:
            del _hubs[old]
        hub = _hubs[loop] = RedisHub(str(settings.LIVE_REDIS_URL))
    return hub


async def changes(
    topics: frozenset[str], since: int, wait: float, after: After | None = None
) -> AsyncIterator[int | None]:
    """For an asynchronous server: the event id of each change of ``topics`` after ``since``
    (a change missed before the call comes first), or ``None`` after ``wait`` seconds of
    quiet (time for a keep-alive). With ``after``, a change is told once ``after()`` is done
    (the screens that need it first have been served)."""
    if not uses_redis():
        async for seq in _memory_changes(topics, since, wait):
            if seq is not None and after is not None:
                await after()
            yield seq
        return
    hub = _hub()
    listener = hub.add(topics, after)
    try:
        listener.newest = since
        missed = await hub.latest(topics, since)
        if missed > since:
            listener.newest = since = missed
            yield missed
        while True:
            try:
                await asyncio.wait_for(listener.wake.wait(), wait)
            except TimeoutError:
                yield None
                continue
            listener.wake.clear()
            if listener.recheck:
                listener.recheck = False
                listener.newest = max(listener.newest, await hub.latest(topics, 0))
            if listener.newest > since:
                since = listener.newest
                yield since
    finally:
        hub.remove(listener)


async def _memory_changes(
    topics: frozenset[str], since: int, wait: float
) -> AsyncIterator[int | None]:
    # The embedded default under an ASGI server (the room): the screen sleeps until a change of
    # its topics wakes it. (It used to look at memory five times a second: 1,000 wake-ups a
    # second for the room's 200 screens, and up to 0.2 s more before a change was sent.)
    waiter = _Waiter(topics, asyncio.get_running_loop())
    memory.wait_here(waiter, True)
    try:
        while True:
            waiter.wake.clear()  # before looking: a change from now on wakes it again
            newest = memory.latest(topics)
            if newest > since:
                since = newest
                yield newest
                continue
            try:
                await asyncio.wait_for(waiter.wake.wait(), wait)
            except TimeoutError:
                yield None
    finally:
        memory.wait_here(waiter, False)


def changes_blocking(topics: frozenset[str], since: int, wait: float) -> Iterator[int | None]:
    """The same for a threaded server (the development server, the tests' live server): each
    stream holds a thread, asleep until a change of its topics or ``wait`` seconds of quiet."""
    if not uses_redis():
        while True:
            with memory.changed:
                newest = memory.latest(topics)
                if newest <= since:
                    memory.changed.wait(wait)
                    newest = memory.latest(topics)
            if newest > since:
                since = newest
                yield newest
            else:
                yield None
    pubsub = _sync_client().pubsub(ignore_subscribe_messages=True)
    try:
        pubsub.subscribe(_keys()[2])
        missed = latest(topics)
        if missed > since:
            since = missed
            yield missed
        deadline = time.monotonic() + wait
        while True:
            message: Any = pubsub.get_message(timeout=max(0.0, deadline - time.monotonic()))
            if message is None:
                if time.monotonic() >= deadline:
                    deadline = time.monotonic() + wait
                    yield None
                continue
            number, *changed = message["data"].decode().split(" ")
            if int(number) > since and topics & set(changed):
                since = int(number)
                yield since
    finally:
        pubsub.close()
