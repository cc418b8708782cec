"""Live screens, push against polling: ``python -m bench live`` (``--quick``: 30 screens).

On production settings over PostgreSQL (a fresh database ``rummyclub_bench_live``) and Redis,
the Procfile's ``web`` (gunicorn, 2 processes of 4 threads) and ``live`` (gunicorn with one
uvicorn worker) run on this machine; 300 screens (``BENCH_LIVE_SCREENS``; ``--quick``: 30) watch
a club's public standings, each an asyncio client of this process, in two phases:

1. push: each screen holds the standings' stream (``/live/stream/``) and shows the fragment
   (``/p/<club>/standings/live/``) that comes in it when a change is announced, as
   ``static/js/live.js`` does (it is rendered once per change by the live process);
2. polling, as before: each screen fetches the fragment every 15 s (the page's
   ``data-live-every``), the screens spread evenly over the period.

Each phase is quiet for a while (the server CPU at rest: both server processes' user and system
time, from /proc, per second), then deals are counted one after another through the services in
this process (tasks in-process: the validation's commit announces the change, as a worker's
would), a few seconds apart. A screen has the change when its refetched fragment holds it:
change to screen is from the deal's submission to that moment, for every screen and every deal
(p50, p95, max), and the server CPU per change is the CPU of the changes' period less the rest
rate, divided by the changes.

3. capacity: ``LIVE_MAX_STREAMS`` (``BENCH_LIVE_MAX_STREAMS``, 5,000; ``--quick``: 500) and 500
   more streams are asked of the one live process, 200 at a time: how many it held, how the
   others were answered (503 with Retry-After; any reset is a failure), and whether each held
   stream then hears of a change (``--capacity``: this phase alone).

``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL`` choose the servers."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.scoring import _fresh_database, _percentile

REPO = Path(__file__).resolve().parent.parent
POLL_EVERY = 15.0  # the public standings' data-live-every
#: Streams asked for past the live process's maximum (LIVE_MAX_STREAMS).
CAPACITY_PAST = 500
SECRET_KEY = "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"


def _environment(db_url: str, redis_url: str, web_port: int, live_port: int) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DATABASE_URL=db_url,
        REDIS_URL=redis_url,
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        LOG_LEVEL="WARNING",
        WEB_BIND=f"127.0.0.1:{web_port}",
        LIVE_BIND=f"127.0.0.1:{live_port}",
        WEB_CONCURRENCY="2",
        LIVE_CONCURRENCY="1",
        LIVE_PREFIX=os.environ.get("LIVE_PREFIX", "rummyclub-bench:live"),
    )
    return env


def _procfile(name: str) -> str:
    lines = (REPO / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())[name]


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cpu_seconds(group: int) -> float:
    """User and system time of every process of the session ``group`` (a server and its
    workers), in seconds."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == group:  # the process group (field 5 of stat)
            total += int(fields[11]) + int(fields[12])
    return total / ticks


# --- the screens -------------------------------------------------------------------------------


async def _get(port: int, path: str) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


async def stream_events(reader: asyncio.StreamReader, ready: Any) -> AsyncIterator[bytes]:
    """A stream's events (a comment too), read off its open connection: its head must say 200,
    then ``ready()`` is called, then the chunked body (a size line, the bytes, CRLF) is read
    until it ends."""
    head = await reader.readuntil(b"\r\n\r\n")
    assert b" 200 " in head.split(b"\r\n", 1)[0], head
    ready()
    buffer = b""
    while True:
        size = int((await reader.readline()).strip(), 16)
        if size == 0:
            return
        buffer += await reader.readexactly(size)
        await reader.readexactly(2)
        while b"\n\n" in buffer:
            event, buffer = buffer.split(b"\n\n", 1)
            yield event


@dataclass
class Screen:
    fragment: str
    seen: dict[int, float] = field(default_factory=dict)  # deal number -> when shown
    errors: int = 0
    heard: dict[str, int] = field(default_factory=dict)  # event type -> how many

    async def refetch(self, web_port: int, marks: dict[int, bytes]) -> None:
        try:
            status, body = await _get(web_port, self.fragment)
        except OSError:
            self.errors += 1
            return
        if status != 200:
            self.errors += 1
            return
        self.look(body, marks)

    def look(self, body: bytes, marks: dict[int, bytes]) -> None:
        """The deals a screen showing ``body`` has: the newest it shows and all before it."""
        now = time.monotonic()
        shown = [number for number, mark in marks.items() if mark in body]
        for number in marks:
            if shown and number <= max(shown) and number not in self.seen:
                self.seen[number] = now

    async def poll(self, web_port: int, marks: dict[int, bytes], offset: float) -> None:
        await asyncio.sleep(offset)
        while True:
            await self.refetch(web_port, marks)
            await asyncio.sleep(POLL_EVERY)

    async def listen(
        self, live_port: int, web_port: int, stream: str, marks: dict[int, bytes], ready: Any
    ) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", live_port)
        writer.write(f"GET {stream} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        async for event in stream_events(reader, ready):
            kind = next(
                (line[7:].decode() for line in event.split(b"\n") if line.startswith(b"event: ")),
                "comment" if event.startswith(b":") else "other",
            )
            self.heard[kind] = self.heard.get(kind, 0) + 1
            if b"event: fragment" in event:  # the new HTML itself
                self.look(event, marks)
            elif b"event: change" in event:  # told to refetch
                asyncio.get_running_loop().create_task(self.refetch(web_port, marks))


# --- the live process's capacity ---------------------------------------------------------------


async def _hold(port: int, path: str, held: list[Any], counts: dict[str, int]) -> None:
    """One stream asked for: held when answered 200, else its answer (503) or error counted."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
    except (ConnectionResetError, asyncio.IncompleteReadError):
        counts["reset"] = counts.get("reset", 0) + 1
        return
    except (OSError, TimeoutError) as exc:
        counts[type(exc).__name__] = counts.get(type(exc).__name__, 0) + 1
        return
    status = head.split(b" ", 2)[1].decode()
    counts[status] = counts.get(status, 0) + 1
    if status == "200":
        held.append((reader, writer))
    else:
        writer.close()


async def _told(reader: asyncio.StreamReader, within: float) -> bool:
    """Whether a held stream hears of a change within ``within`` seconds."""
    deadline = time.monotonic() + within
    seen = b""
    while b"event: change" not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            chunk = await asyncio.wait_for(reader.read(4096), left)
        except (TimeoutError, OSError):
            return False
        if not chunk:
            return False
        seen += chunk
    return True


async def _capacity(live_port: int, club_pk: int, asked: int) -> dict[str, Any]:
    """``asked`` streams opened against one live process (200 at a time): how many it held,
    how the others were answered, and whether every held stream hears of a change."""
    import json

    from live import bus
    from live.views import stream_url

    path = await asyncio.to_thread(stream_url, [f"club:{club_pk}"])
    held: list[Any] = []
    counts: dict[str, int] = {}
    started = time.monotonic()
    for first in range(0, asked, 200):
        batch = range(first, min(asked, first + 200))
        await asyncio.gather(*(_hold(live_port, path, held, counts) for _ in batch))
    opened = time.monotonic() - started
    status, body = await _get(live_port, "/live/health/")
    health = json.loads(body) if status == 200 else {}
    changed = time.monotonic()
    await asyncio.to_thread(bus.publish_now, [f"club:{club_pk}"])
    told = await asyncio.gather(*(_told(reader, 20.0) for reader, _ in held))
    spread = time.monotonic() - changed
    for _, writer in held:
        writer.close()
    return {"counts": counts, "health": health, "told": sum(told), "held": len(held),
            "opened": opened, "spread": spread}  # fmt: skip


def _report_capacity(asked: int, result: dict[str, Any]) -> None:
    counts, health = result["counts"], result["health"]
    others = {k: v for k, v in sorted(counts.items()) if k not in ("200", "503")}
    print(
        f"   capacity: {asked} streams asked of one live process in {result['opened']:.1f} s:"
        f" {counts.get('200', 0)} held (its maximum {health.get('max_streams')}, open file"
        f" limit {health.get('file_limit')}), {counts.get('503', 0)} answered 503 with"
        f" Retry-After, other failures {others or 'none'}; a change reached"
        f" {result['told']}/{result['held']} held streams within {result['spread']:.1f} s",
        flush=True,
    )


# --- a run -------------------------------------------------------------------------------------


def _setup() -> dict[str, Any]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from clubs import services as club_services
    from clubs.models import Player
    from scoring.games import game_create, table_create
    from scoring.models import RulePreset
    from scoring.nights import session_create

    user = get_user_model().objects.create(username="bench-live")
    club = club_services.club_create(owner=user, name="Bench live", slug="bench-live")
    club_services.club_update(club=club, actor=user, public_standings=True)
    session = session_create(club=club, actor=user, name="Live night")
    players = [Player.objects.create(club=club, name=f"Screen player {n}") for n in range(4)]
    table = table_create(session=session, actor=user)
    points = RulePreset.objects.get(club=None, key="points")
    game = game_create(table=table, actor=user, preset=points, players=players)
    return {"club": club, "user": user, "game": game, "players": players}


def _deal(ctx: dict[str, Any], number: int) -> None:
    """The ``number``-th deal: the winner's season total becomes ``number`` x 150, a figure
    no earlier fragment held."""
    from scoring.deals import deal_create_with_result

    players = ctx["players"]
    lines = [{"player": p.pk, "outcome": "loser", "against": 50} for p in players[1:]]
    deal_create_with_result(
        game=ctx["game"], actor=ctx["user"], wild="", dealer=None, number=None,
        is_tiebreaker=False, source="import",
        payload={"results": [{"player": players[0].pk, "outcome": "winner"}, *lines]},
    )  # fmt: skip


async def _phase(
    name: str, ctx: dict[str, Any], ports: tuple[int, int], groups: list[int], screens: int,
    rest: float, changes: int, gap: float, first: int,
) -> dict[str, Any]:  # fmt: skip
    from live.views import stream_url

    web_port, live_port = ports
    slug = ctx["club"].slug
    fragment = f"/p/{slug}/standings/live/"
    marks: dict[int, bytes] = {}
    views = [Screen(fragment) for _ in range(screens)]
    tasks = []
    connected = 0

    def ready() -> None:
        nonlocal connected
        connected += 1

    for index, screen in enumerate(views):
        if name == "push":
            topics = [f"club:{ctx['club'].pk}"]
            stream = await asyncio.to_thread(stream_url, topics) + f"&fragment={fragment}"
            task = screen.listen(live_port, web_port, stream, marks, ready)
        else:
            task = screen.poll(web_port, marks, POLL_EVERY * index / screens)
            ready()
        tasks.append(asyncio.get_running_loop().create_task(task))
    while connected < screens:
        await asyncio.sleep(0.1)
    await asyncio.sleep(min(rest, POLL_EVERY if name == "poll" else 2.0))  # settled

    cpu = lambda: sum(_cpu_seconds(g) for g in groups)  # noqa: E731
    started, cpu_started = time.monotonic(), cpu()
    await asyncio.sleep(rest)
    rest_rate = (cpu() - cpu_started) / (time.monotonic() - started)

    submitted: dict[int, float] = {}
    started, cpu_started = time.monotonic(), cpu()
    for number in range(first, first + changes):
        marks[number] = f">+{number * 150}<".encode()
        submitted[number] = time.monotonic()
        await asyncio.to_thread(_deal, ctx, number)
        await asyncio.sleep(gap)
    deadline = time.monotonic() + (POLL_EVERY + 5 if name == "poll" else 10)
    while time.monotonic() < deadline and any(len(s.seen) < changes for s in views):
        await asyncio.sleep(0.2)
    spent = time.monotonic() - started
    cpu_changes = cpu() - cpu_started
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    delays = sorted(
        s.seen[n] - submitted[n] for s in views for n in submitted if n in s.seen
    )  # fmt: skip
    missing = screens * changes - len(delays)
    heard: dict[str, int] = {}
    for screen in views:
        for kind, count in screen.heard.items():
            heard[kind] = heard.get(kind, 0) + count
    print(
        f"   {name}: events heard {heard}; screens that saw no deal:"
        f" {sum(1 for s in views if not s.seen)}"
    )
    return {
        "name": name,
        "delays": delays,
        "missing": missing,
        "errors": sum(s.errors for s in views),
        "rest_rate": rest_rate,
        "per_change": (cpu_changes - rest_rate * spent) / changes,
    }


def _report(result: dict[str, Any], screens: int) -> None:
    delays = result["delays"] or [float("nan")]
    print(
        f"   {result['name']:<5} {screens} screens: change to screen p50"
        f" {_percentile(delays, 0.5):.3f} s, p95 {_percentile(delays, 0.95):.3f} s,"
        f" max {max(delays):.3f} s ({result['missing']} not shown, {result['errors']} errors);"
        f" server CPU at rest {result['rest_rate'] * 1000:.0f} ms/s,"
        f" per change {result['per_change'] * 1000:.0f} ms",
        flush=True,
    )


def _compare(
    ctx: dict[str, Any], ports: tuple[int, int], groups: list[int], screens: int,
    timing: tuple[float, int, float],
) -> None:  # fmt: skip
    rest, changes, gap = timing
    print(f"   {screens} screens on the public standings; {changes} deals {gap:g} s apart")
    push = asyncio.run(_phase("push", ctx, ports, groups, screens, rest, changes, gap, 1))
    _report(push, screens)
    poll = asyncio.run(_phase("poll", ctx, ports, groups, screens, rest, changes, gap, 1 + changes))
    _report(poll, screens)


def run(quick: bool, extra: list[str] | None = None) -> None:
    capacity_only = "--capacity" in (extra or [])
    db_url = os.environ.get(
        "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_live"
    )
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    screens = int(os.environ.get("BENCH_LIVE_SCREENS", "30" if quick else "300"))
    rest, changes, gap = (5.0, 3, 1.0) if quick else (30.0, 10, 2.0)
    _fresh_database(db_url)
    ports = (_free_port(), _free_port())
    env = _environment(db_url, redis_url, *ports)
    env["LIVE_MAX_STREAMS"] = os.environ.get("BENCH_LIVE_MAX_STREAMS", "500" if quick else "5000")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"  # the changes validated here, on commit
    ctx = _setup()
    servers = []
    path = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    try:
        for name in ("web", "live"):
            server = subprocess.Popen(
                ["bash", "-c", f"exec {_procfile(name)}"], cwd=REPO,
                env={**env, "PATH": path}, start_new_session=True,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            servers.append(server)
        _wait_for(ports)
        groups = [server.pid for server in servers]
        if not capacity_only:
            _compare(ctx, ports, groups, screens, (rest, changes, gap))
        asked = int(env["LIVE_MAX_STREAMS"]) + CAPACITY_PAST
        _report_capacity(asked, asyncio.run(_capacity(ports[1], ctx["club"].pk, asked)))
    finally:
        for server in servers:
            try:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(server.pid, signal.SIGKILL)


def _wait_for(ports: tuple[int, int]) -> None:
    import http.client

    deadline = time.monotonic() + 60
    for port, path in zip(ports, ("/health/", "/live/stream/?t=x"), strict=True):
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", path)
                if conn.getresponse().status in (200, 400):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server on port {port} did not come up")
            time.sleep(0.2)


if __name__ == "__main__":
    random.seed(1)
    run(quick="--quick" in sys.argv, extra=sys.argv[1:])
