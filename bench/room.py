"""The room on a laptop: ``python -m bench room [--minutes 3] [--minute-seconds 60] [--stack S]``
(``--quick``: 12 players, 2 projectors, 2 deals 8 s apart).

A points night of 200 players (``--players``) at 34 tables: 6 a table, the last tables fewer.
Each minute every table's phone enters a deal through its table link (``POST
/api/v1/table/<token>/deals/`` with an ``Idempotency-Key``; the first and every third after it
are sent again with the same key at once, as a phone that lost the answer does) and another
phone of the table confirms it once it is checked. Every player's phone holds its table page's
live stream and refetches the page's live part when told (as ``static/js/live.js`` does), and
6 projectors (``--projectors``) hold the public standings projector's stream, whose new HTML
comes in it.

Change to screen: from the moment the phone sent the change (its commit is inside that
request) to the moment a screen shows it: a table's phones the entry waiting ("Deal n: check
and confirm") and then the deal counted ("Deal n: counted"), every projector the deal in its
"Just now" band, or a later one (a change whose confirmation was answered before the one shown
was sent is in it too). Deals submitted, stored (counted in the database), lost (confirmed but
not counted) and doubled (more deals than entered), server errors (5xx) and the server's CPU
(user and system time) and peak RSS (VmHWM) from /proc are printed.

Two stacks, each in a process of its own (``--stack`` for one):

- ``embedded``: the room as ``make room`` starts it (``python -m config.room``, on a free port,
  reached through this machine's network address) on a fresh SQLite file in a temp folder;
- ``production``: the Procfile's ``web``, ``live`` and ``worker`` on PostgreSQL
  (``BENCH_ROOM_DATABASE_URL``, default ``rummyclub_room_bench``, made afresh) and Redis
  (``BENCH_ROOM_REDIS_URL``, default database 11, emptied first)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import django
import httpx

from bench.live import SECRET_KEY, _environment, _free_port, _procfile
from bench.scoring import _fresh_database, _percentile
from config.room import lan_address, room_url

REPO = Path(__file__).resolve().parent.parent
STACKS = ("embedded", "production")
SEATS = 6
STREAM = re.compile(r'data-live-stream="([^"]+)"')
LIVE_URL = re.compile(r'data-live-url="([^"]+)"')


@dataclass
class Change:
    kind: str  # "entry" or "confirm"
    table: int  # index of the table
    number: int  # the deal's number
    sent: float
    answered: float | None = None


@dataclass
class Tally:
    changes: list[Change] = field(default_factory=list)
    seen: dict[tuple[int, int], float] = field(default_factory=dict)  # (screen, change) -> when
    requests: int = 0
    server_errors: int = 0
    other_errors: list[str] = field(default_factory=list)
    entered: dict[int, int] = field(default_factory=dict)  # table -> deals entered (202)
    confirmed: dict[int, int] = field(default_factory=dict)  # table -> deals confirmed (200)
    retries: int = 0
    replayed: int = 0
    resent: int = 0  # sent again on a new connection: the server had closed the kept-alive one
    reconnected: int = 0  # streams opened again after they broke
    answer_times: list[float] = field(default_factory=list)

    def answered(self, response: httpx.Response) -> httpx.Response:
        self.requests += 1
        if response.status_code >= 500:
            self.server_errors += 1
        return response

    async def request(self, client: httpx.AsyncClient, method: str, url: str, **kw: Any) -> Any:
        """A phone's request. A connection kept alive that the server closed meanwhile (uvicorn
        closes idle ones after 5 s) fails before any answer: a browser sends the request again
        on a new connection, and so does this (a write with the same Idempotency-Key)."""
        try:
            return self.answered(await client.request(method, url, **kw))
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError):
            self.resent += 1
            return self.answered(await client.request(method, url, **kw))


def table_sizes(players: int) -> list[int]:
    """Tables of 6, the last ones a player fewer each until everyone is seated once."""
    count = -(-players // SEATS)
    sizes = [SEATS] * count
    for index in range(SEATS * count - players):
        sizes[-1 - index % count] -= 1
    return sizes


# --- the servers -------------------------------------------------------------------------------


def _server(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command, cwd=REPO, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _start_embedded(folder: Path) -> tuple[dict[str, str], list[subprocess.Popen[bytes]], str, str]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{folder / 'room.sqlite3'}", SECRET_KEY=SECRET_KEY)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    server = _server([sys.executable, "-m", "config.room", "--port", str(port)], env)
    url = room_url(lan_address({}), port)
    return {**env, "DJANGO_SETTINGS_MODULE": "config.settings.local"}, [server], url, url


def _start_production() -> tuple[dict[str, str], list[subprocess.Popen[bytes]], str, str]:
    import redis

    db_url = os.environ.get(
        "BENCH_ROOM_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/rummyclub_room_bench"
    )
    redis_url = os.environ.get("BENCH_ROOM_REDIS_URL", "redis://127.0.0.1:6379/11")
    _fresh_database(db_url)
    redis.Redis.from_url(redis_url).flushdb()
    ports = (_free_port(), _free_port())
    env = _environment(db_url, redis_url, *ports)
    env["LIVE_PREFIX"] = "rummyclub-bench-room:live"
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    path = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    servers = [
        _server(["bash", "-c", f"exec {_procfile(name)}"], {**env, "PATH": path})
        for name in ("web", "live", "worker")
    ]
    return env, servers, f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[1]}"


def _wait_serving(url: str, servers: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + 180
    while True:
        try:
            if httpx.get(f"{url}/health/", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or any(s.poll() is not None for s in servers):
            raise RuntimeError(f"the server at {url} did not come up")
        time.sleep(0.5)


def _group_processes(groups: list[int]) -> list[Path]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) in groups:
                found.append(entry)
    return found


def _usage(groups: list[int]) -> tuple[float, int]:
    """The servers' CPU seconds (user and system) and peak RSS (VmHWM, summed), from /proc."""
    ticks, cpu, peak = os.sysconf("SC_CLK_TCK"), 0, 0
    for proc in _group_processes(groups):
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            status = (proc / "status").read_text()
        except OSError:
            continue
        cpu += int(fields[11]) + int(fields[12])
        found = re.search(r"VmHWM:\s+(\d+) kB", status)
        peak += int(found.group(1)) * 1024 if found else 0
    return cpu / ticks, peak


# --- the night ---------------------------------------------------------------------------------


def _night(players: int) -> dict[str, Any]:
    """The club, its night, the tables with their games and live links (through the services)."""
    from django.contrib.auth import get_user_model

    from clubs import services as club_services
    from clubs.models import Player
    from scoring.games import game_create, table_create
    from scoring.models import RulePreset
    from scoring.nights import session_create
    from scoring.table_links import link_token, table_links_ensure

    user = get_user_model().objects.create(username="bench-room")
    club = club_services.club_create(owner=user, name="Bench room", slug="bench-room")
    club_services.club_update(club=club, actor=user, public_standings=True)
    night = session_create(club=club, actor=user, name="The room's night")
    points = RulePreset.objects.get(club=None, key="points")
    tables = []
    for index, size in enumerate(table_sizes(players)):
        seated = [
            Player.objects.create(club=club, name=f"Player {index + 1}-{seat + 1}")
            for seat in range(size)
        ]
        table = table_create(session=night, actor=user)
        game_create(table=table, actor=user, preset=points, players=seated)
        (link,) = table_links_ensure(tables=[table], actor=user, mode="confirm")
        tables.append({"token": link_token(link), "players": [p.pk for p in seated]})
    return {"club": club.slug, "session": night.pk, "tables": tables}


def _stored(session: int) -> tuple[dict[int, int], dict[int, int]]:
    """Per table (in order): deals stored, and those counted."""
    from scoring.models import Deal, Table

    tables = list(Table.objects.filter(session_id=session).order_by("pk"))
    stored, counted = {}, {}
    for index, table in enumerate(tables):
        deals = Deal.objects.filter(game__table=table, is_tiebreaker=False)
        stored[index] = deals.count()
        counted[index] = deals.filter(status="final").count()
    return stored, counted


# --- the screens -------------------------------------------------------------------------------


def _events(lines: list[str]) -> tuple[str, str]:
    kind = next((line[7:] for line in lines if line.startswith("event: ")), "comment")
    return kind, "\n".join(line[6:] for line in lines if line.startswith("data: "))


class Screen:
    """A phone at a table (``table`` its index) or a projector (``table`` None)."""

    def __init__(self, number: int, table: int | None, page: str, tally: Tally) -> None:
        self.number, self.table, self.page, self.tally = number, table, page, tally
        self.connected = False

    def look(self, body: str) -> None:
        now, tally = time.monotonic(), self.tally
        for index, change in enumerate(tally.changes):
            if (self.number, index) in tally.seen:
                continue
            if self.table is not None and change.table == self.table:
                counted = f"Deal {change.number}: counted" in body
                if counted or (
                    change.kind == "entry" and f"Deal {change.number}: check and confirm" in body
                ):
                    tally.seen[self.number, index] = now
            elif self.table is None and change.kind == "confirm":
                band = f"Table {change.table + 1}, deal {change.number}</h2>"
                if band in body:
                    tally.seen[self.number, index] = now
                    self._before(change.sent, now)

    def _before(self, sent: float, now: float) -> None:
        """Every confirmation answered before the one shown was sent is in what is shown."""
        for index, change in enumerate(self.tally.changes):
            if change.kind == "confirm" and change.answered and change.answered <= sent:
                self.tally.seen.setdefault((self.number, index), now)

    async def watch(self, web: httpx.AsyncClient, live: httpx.AsyncClient, ready: Any) -> None:
        html = (await self.tally.request(web, "GET", self.page)).text
        fragment = LIVE_URL.search(html).group(1).replace("&amp;", "&")  # type: ignore[union-attr]
        stream = STREAM.search(html).group(1).replace("&amp;", "&")  # type: ignore[union-attr]
        stream += "&fragment=" + httpx.QueryParams({"f": fragment})["f"]
        last: str | None = None
        while True:
            try:
                last = await self._listen(web, live, stream, fragment, last, ready)
            except httpx.TransportError as exc:
                self.tally.reconnected += 1
                self.tally.other_errors.append(f"stream {self.number}: {exc!r}")
            await asyncio.sleep(2.0)  # LIVE_RETRY_MS: the browser's wait before reconnecting

    async def _listen(
        self, web: httpx.AsyncClient, live: httpx.AsyncClient, stream: str, fragment: str,
        last: str | None, ready: Any,
    ) -> str | None:  # fmt: skip
        headers = {"Last-Event-ID": last} if last else {}
        async with live.stream("GET", stream, headers=headers) as response:
            self.tally.answered(response)
            if not self.connected:
                self.connected = True
                ready()
            lines: list[str] = []
            async for line in response.aiter_lines():
                if line:
                    lines.append(line)
                    continue
                kind, data = _events(lines)
                last = next((x[4:] for x in lines if x.startswith("id: ")), last)
                lines = []
                if kind == "fragment":
                    self.look(data)
                elif kind == "change":
                    asyncio.get_running_loop().create_task(self.refetch(web, fragment))
        return last

    async def refetch(self, web: httpx.AsyncClient, fragment: str) -> None:
        try:
            response = await self.tally.request(web, "GET", fragment)
        except httpx.HTTPError as exc:
            self.tally.other_errors.append(f"{fragment}: {exc!r}")
            return
        if response.status_code == 200:
            self.look(response.text)


# --- the tables' phones that enter and confirm -------------------------------------------------


def _deal_body(players: list[int], seat: int, number: int) -> dict[str, Any]:
    winner = number % len(players)
    results = [
        {"player": pk, "outcome": "winner"}
        if i == winner
        else {"player": pk, "outcome": "loser", "points": 5 + (number * 7 + i * 11) % 70}
        for i, pk in enumerate(players)
    ]
    return {"seat": seat, "wild": "QH", "results": results}


async def _send(web: httpx.AsyncClient, tally: Tally, url: str, body: Any, key: str) -> Any:
    """A phone's write, sent again with the same key while the answer says to (409 with
    Retry-After: the first is still running, or a 503)."""
    for _ in range(20):
        # The phones share one client here, but not a device: a write carries no device cookie
        # (a new device each time), so the phone that confirms is never the one that entered.
        web.cookies.clear()
        response = await tally.request(
            web, "POST", url, json=body, headers={"Idempotency-Key": key}
        )
        if response.status_code in (200, 201, 202):
            return response
        if response.status_code not in (409, 503) or "Retry-After" not in response.headers:
            tally.other_errors.append(f"{url}: {response.status_code} {response.text[:200]}")
            return response
        await asyncio.sleep(0.2)
    return response


async def _checked(web: httpx.AsyncClient, tally: Tally, api: str, entry: int) -> bool:
    for _ in range(300):
        response = await tally.request(web, "GET", f"{api}entries/{entry}/")
        status = response.json().get("status") if response.status_code == 200 else None
        if status == "awaiting_confirmation":
            return True
        if status not in (None, "pending", "validating", "submitted"):
            tally.other_errors.append(f"entry {entry}: {status}")
            return False
        await asyncio.sleep(0.1)
    return False


async def _enter_and_confirm(
    web: httpx.AsyncClient, tally: Tally, index: int, table: dict[str, Any], number: int
) -> None:
    api, players = f"/api/v1/table/{table['token']}/", table["players"]
    seat = 1 + number % len(players)
    key, body = f"room-{index}-{number}", _deal_body(players, seat, number)
    entry = Change("entry", index, number, time.monotonic())
    tally.changes.append(entry)
    sending = asyncio.ensure_future(_send(web, tally, f"{api}deals/", body, key))
    if number % 3 == 1:  # the answer "lost": the phone sends it again with the same key
        await asyncio.sleep(0.05)
        tally.retries += 1
        again = await _send(web, tally, f"{api}deals/", body, key)
        tally.replayed += again.headers.get("Idempotent-Replayed") == "true"
    first = await sending
    entry.answered = time.monotonic()
    tally.answer_times.append(entry.answered - entry.sent)
    if first.status_code != 202:
        return
    tally.entered[index] = tally.entered.get(index, 0) + 1
    if not await _checked(web, tally, api, first.json()["id"]):
        return
    await asyncio.sleep(1.0)  # another player reads it on their phone
    confirm = Change("confirm", index, number, time.monotonic())
    tally.changes.append(confirm)
    url = f"{api}entries/{first.json()['id']}/confirm/"
    done = await _send(web, tally, url, {"seat": 1 + seat % len(players)}, f"{key}-ok")
    confirm.answered = time.monotonic()
    tally.answer_times.append(confirm.answered - confirm.sent)
    if done.status_code == 200:
        tally.confirmed[index] = tally.confirmed.get(index, 0) + 1


async def _table(
    web: httpx.AsyncClient, tally: Tally, index: int, table: dict[str, Any],
    plan: argparse.Namespace, start: float,
) -> None:  # fmt: skip
    offset = plan.minute_seconds * index / len(plan.tables)  # the tables spread over the minute
    for minute in range(plan.minutes):
        await asyncio.sleep(
            max(0.0, start + offset + minute * plan.minute_seconds - time.monotonic())
        )
        try:
            await _enter_and_confirm(web, tally, index, table, minute + 1)
        except httpx.HTTPError as exc:
            tally.other_errors.append(f"table {index + 1}: {exc!r}")


# --- a run -------------------------------------------------------------------------------------


async def _night_played(
    plan: argparse.Namespace, web_url: str, live_url: str, tally: Tally
) -> float:
    """Every screen connected, then the tables' deals; answers the seconds it took."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=400)
    async with (
        httpx.AsyncClient(base_url=web_url, limits=limits, timeout=60) as web,
        httpx.AsyncClient(base_url=live_url, limits=limits, timeout=None) as live,
    ):
        connected = 0

        def ready() -> None:
            nonlocal connected
            connected += 1

        pages = [
            (index, f"/t/{table['token']}/")
            for index, table in enumerate(plan.tables)
            for _ in table["players"]
        ]
        screens = [Screen(n, index, page, tally) for n, (index, page) in enumerate(pages)]
        projector = f"/p/{plan.club}/standings/projector/"
        screens += [
            Screen(len(screens) + n, None, projector, tally) for n in range(plan.projectors)
        ]
        watching = []
        for screen in screens:  # connected one after another, as a room fills
            watching.append(asyncio.ensure_future(screen.watch(web, live, ready)))
            await asyncio.sleep(0.01)
        while connected < len(screens):
            if any(task.done() for task in watching):
                failed = next(task for task in watching if task.done())
                raise RuntimeError(f"a screen could not connect: {failed.exception()!r}")
            await asyncio.sleep(0.1)
        print(f"   {len(screens)} screens connected", flush=True)
        started = time.monotonic()
        await asyncio.gather(
            *(_table(web, tally, i, t, plan, started) for i, t in enumerate(plan.tables))
        )
        deadline = time.monotonic() + 15  # the last changes reach the screens
        while time.monotonic() < deadline and len(tally.seen) < _expected(tally, plan):
            await asyncio.sleep(0.2)
        spent = time.monotonic() - started
        for task in watching:
            task.cancel()
        await asyncio.gather(*watching, return_exceptions=True)
        return spent


def _expected(tally: Tally, plan: argparse.Namespace) -> int:
    """(screen, change) pairs to be seen: a table's changes on its phones, confirmations on
    every projector."""
    sizes = [len(t["players"]) for t in plan.tables]
    return sum(
        sizes[c.table] + (plan.projectors if c.kind == "confirm" else 0) for c in tally.changes
    )


def _child(plan: argparse.Namespace) -> int:
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request
    folder = Path(tempfile.mkdtemp(prefix="bench-room-"))
    if plan.stack == "embedded":
        env, servers, web_url, live_url = _start_embedded(folder)
    else:
        env, servers, web_url, live_url = _start_production()
    try:
        _wait_serving(web_url, servers)
        os.environ.update(env)
        django.setup()
        night = _night(plan.players)
        plan.tables, plan.club = night["tables"], night["club"]
        groups = [server.pid for server in servers]
        cpu_before, _ = _usage(groups)
        tally = Tally()
        spent = asyncio.run(_night_played(plan, web_url, live_url, tally))
        cpu_after, peak = _usage(groups)
        stored, counted = _stored(night["session"])
    finally:
        for server in servers:
            try:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(server.pid, signal.SIGKILL)
    _report(plan, tally, spent, cpu_after - cpu_before, peak, stored, counted)
    return 0


def _report(
    plan: argparse.Namespace, tally: Tally, spent: float, cpu: float, peak: int,
    stored: dict[int, int], counted: dict[int, int],
) -> None:  # fmt: skip
    delays = sorted(
        seen - tally.changes[change].sent for (_, change), seen in tally.seen.items()
    ) or [float("nan")]
    answers = sorted(tally.answer_times) or [float("nan")]
    expected = _expected(tally, plan)
    entered = sum(1 for c in tally.changes if c.kind == "entry")
    confirmed = sum(tally.confirmed.values())
    lost = sum(max(0, tally.confirmed.get(i, 0) - counted.get(i, 0)) for i in stored)
    doubled = sum(max(0, stored[i] - tally.entered.get(i, 0)) for i in stored)
    sizes = [len(t["players"]) for t in plan.tables]
    print(
        f"   {plan.stack}: {sum(sizes)} players at {len(sizes)} tables, {plan.projectors}"
        f" projectors; {plan.minutes} deals a table, {plan.minute_seconds:g} s apart\n"
        f"   change to screen: p50 {_percentile(delays, 0.5):.3f} s, p95"
        f" {_percentile(delays, 0.95):.3f} s, max {max(delays):.3f} s"
        f" ({len(tally.seen)} of {expected} arrivals; {expected - len(tally.seen)} not shown)\n"
        f"   a phone's write answered: p50 {_percentile(answers, 0.5):.3f} s, p95"
        f" {_percentile(answers, 0.95):.3f} s\n"
        f"   deals submitted {entered}, entered {sum(tally.entered.values())}, confirmed"
        f" {confirmed}, stored {sum(stored.values())}, counted {sum(counted.values())},"
        f" lost {lost}, doubled {doubled} ({tally.retries} sent again with their key,"
        f" {tally.replayed} answered as replays)\n"
        f"   requests {tally.requests}, server errors (5xx) {tally.server_errors}, other"
        f" failures {len(tally.other_errors)}; {tally.resent} sent again on a new connection,"
        f" {tally.reconnected} streams reconnected\n"
        f"   server CPU {cpu:.1f} s user+sys over {spent:.0f} s ({100 * cpu / spent:.0f}% of a"
        f" core); peak RSS {peak / 2**20:.0f} MiB",
        flush=True,
    )
    for error in tally.other_errors[:5]:
        print(f"   ! {error}")
    _by_screen(plan, tally)


def _by_screen(plan: argparse.Namespace, tally: Tally) -> None:
    """The same delays apart: the phones' entries and confirmations, the projectors'."""
    phones = sum(len(t["players"]) for t in plan.tables)
    parts: dict[str, list[float]] = {}
    for (screen, change), seen in tally.seen.items():
        kind = tally.changes[change].kind if screen < phones else "projector"
        parts.setdefault(kind, []).append(seen - tally.changes[change].sent)
    for kind, delays in sorted(parts.items()):
        delays.sort()
        print(
            f"   {kind:>9}: p50 {_percentile(delays, 0.5):.3f} s, p95"
            f" {_percentile(delays, 0.95):.3f} s, max {delays[-1]:.3f} s ({len(delays)})"
        )


def _options(argv: list[str], quick: bool) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench room")
    parser.add_argument("--stack", choices=STACKS, help="one stack only (default both)")
    parser.add_argument("--minutes", type=int, help="deals a table (default 3; quick 2)")
    parser.add_argument("--minute-seconds", type=float, help="seconds a minute lasts (60; 8)")
    parser.add_argument("--players", type=int, help="players (200; quick 12)")
    parser.add_argument("--projectors", type=int, help="projectors (6; quick 2)")
    plan = parser.parse_args(argv)
    for name, full, small in (
        ("minutes", 3, 2), ("minute_seconds", 60.0, 8.0), ("players", 200, 12),
        ("projectors", 6, 2),
    ):  # fmt: skip
        if getattr(plan, name) is None:
            setattr(plan, name, small if quick else full)
    return plan


def run(quick: bool, extra: list[str] | None = None) -> None:
    plan = _options(extra or [], quick)
    for stack in [plan.stack] if plan.stack else STACKS:
        command = [sys.executable, "-m", "bench.room", "--stack", stack]
        for name in ("minutes", "minute_seconds", "players", "projectors"):
            command += [f"--{name.replace('_', '-')}", str(getattr(plan, name))]
        subprocess.run(command, cwd=REPO, check=True)


if __name__ == "__main__":
    sys.exit(_child(_options(sys.argv[1:], quick=False)))
