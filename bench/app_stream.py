"""Push for score apps: ``python -m bench app_stream`` (``--quick``: 10 apps).

On production settings over PostgreSQL (a fresh database of its own,
``rummyclub_bench_app_stream``: ``make bench`` runs ``live`` after it in one process) and Redis,
the Procfile's ``web`` and ``live`` run on this machine, as in ``bench live``. 50 apps
(``BENCH_APPS``; ``--quick``: 10), each with a token of its own, hold the club's stream
(``GET /api/v1/clubs/<club>/stream/`` on the live process, as nginx routes it) and, on each
``change`` event, read the game's deals through the API (the web process), as an app syncing
would (changes told while a read is on its way are taken by one more read after it). Deals are
counted one after another in this process (tasks in-process: the commit announces the change).
Change to app is from the deal's submission to the moment the app's read holds it, for every
app and every deal (p50, p95, max); a deal no app read in 10 s is missed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.live import (
    REPO,
    _deal,
    _environment,
    _free_port,
    _procfile,
    _setup,
    _wait_for,
    stream_events,
)
from bench.scoring import _fresh_database, _percentile


async def _request(port: int, path: str, key: str, stream: bool = False) -> Any:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    close = "" if stream else "Connection: close\r\n"
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
        f"Accept: {'text/event-stream' if stream else 'application/json'}\r\n{close}\r\n".encode()
    )
    await writer.drain()
    if stream:
        return reader, writer
    raw = await reader.read()
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    if b"chunked" in head.lower():
        body = _unchunked(body)
    return int(head.split(b" ", 2)[1]), body


def _unchunked(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, body = body.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            break
        out, body = out + body[:size], body[size + 2 :]
    return out


@dataclass
class App:
    key: str
    seen: dict[int, float] = field(default_factory=dict)  # deal number -> when read
    errors: int = 0
    events: int = 0
    heard: list[float] = field(default_factory=list)  # when each change event came
    due: asyncio.Event = field(default_factory=asyncio.Event)

    async def read_deals(self, web_port: int, deals_path: str) -> None:
        try:
            status, body = await _request(web_port, deals_path, self.key)
        except OSError:
            self.errors += 1
            return
        if status != 200:
            self.errors += 1
            return
        now, count = time.monotonic(), json.loads(body)["count"]
        for number in range(1, count + 1):
            self.seen.setdefault(number, now)

    async def listen(self, live_port: int, slug: str, ready: Any) -> None:
        reader, _ = await _request(live_port, f"/api/v1/clubs/{slug}/stream/", self.key, True)
        async for event in stream_events(reader, ready):
            if b"event: change" in event:
                self.events += 1
                self.heard.append(time.monotonic())
                self.due.set()

    async def sync(self, web_port: int, deals_path: str) -> None:
        """Read what changed when told, as an app would: changes told while a read is on its way
        are taken by one more read after it, not one each."""
        while True:
            await self.due.wait()
            self.due.clear()
            await self.read_deals(web_port, deals_path)


async def _run(ctx: dict[str, Any], ports: tuple[int, int], keys: list[str], changes: int,
               gap: float) -> tuple[list[float], list[float], int, int, int]:  # fmt: skip
    slug, game = ctx["club"].slug, ctx["game"].pk
    deals_path = f"/api/v1/clubs/{slug}/games/{game}/deals/?limit=500"
    apps = [App(key) for key in keys]
    connected = 0

    def ready() -> None:
        nonlocal connected
        connected += 1

    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(app.listen(ports[1], slug, ready)) for app in apps]
    tasks += [loop.create_task(app.sync(ports[0], deals_path)) for app in apps]
    while connected < len(apps):
        await asyncio.sleep(0.1)
    await asyncio.sleep(2.0)
    submitted: dict[int, float] = {}
    for number in range(2, changes + 2):  # deal 1 was the warm-up
        submitted[number] = time.monotonic()
        await asyncio.to_thread(_deal, ctx, number)
        await asyncio.sleep(gap)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(len(a.seen) < changes + 1 for a in apps):
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    told = sorted(
        min((t for t in a.heard if t >= submitted[n]), default=float("inf")) - submitted[n]
        for a in apps
        for n in submitted
    )  # fmt: skip
    delays = sorted(a.seen[n] - submitted[n] for a in apps for n in submitted if n in a.seen)
    missed = len(apps) * changes - len(delays)
    return delays, told, missed, sum(a.errors for a in apps), sum(a.events for a in apps)


def _tokens(ctx: dict[str, Any], count: int) -> list[str]:
    from clubs.signin.services import api_token_create

    return [
        api_token_create(
            user=ctx["user"], name=f"App {n}", scopes=["read"], club_slugs=[ctx["club"].slug]
        )[1]
        for n in range(count)
    ]


def run(quick: bool) -> None:
    if os.environ.get("BENCH_APP_STREAM_CHILD") != "1":
        # Its own process: Django is set up once per process, on one database, and the
        # benchmarks run beside it in ``make bench`` set up theirs.
        command = [sys.executable, "-m", "bench.app_stream", *(["--quick"] if quick else [])]
        env = {**os.environ, "BENCH_APP_STREAM_CHILD": "1"}
        subprocess.run(command, cwd=REPO, env=env, check=True)
        return
    db_url = os.environ.get(
        "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_bench_app_stream"
    )
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    count = int(os.environ.get("BENCH_APPS", "10" if quick else "50"))
    changes, gap = (3, 1.0) if quick else (10, 2.0)
    _fresh_database(db_url)
    ports = (_free_port(), _free_port())
    env = _environment(db_url, redis_url, *ports)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"  # the changes validated here, on commit
    ctx = _setup()
    _deal(ctx, 1)  # the first deal of this process, before the clock: its imports and caches
    keys = _tokens(ctx, count)
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
        print(f"   {count} apps on the club's stream; {changes} deals {gap:g} s apart")
        delays, told, missed, errors, events = asyncio.run(_run(ctx, ports, keys, changes, gap))
        shown = delays or [float("nan")]
        print(
            f"   change to the app's stream: p50 {_percentile(told, 0.5):.3f} s,"
            f" p95 {_percentile(told, 0.95):.3f} s, max {max(told):.3f} s",
        )
        print(
            f"   change to app (stream, then the app's read): p50 {_percentile(shown, 0.5):.3f} s,"
            f" p95 {_percentile(shown, 0.95):.3f} s, max {max(shown):.3f} s;"
            f" {missed} missed, {errors} errors, {events} events heard",
            flush=True,
        )
    finally:
        for server in servers:
            try:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(server.pid, signal.SIGKILL)


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
