"""The live process (the Procfile's live line: gunicorn with a uvicorn worker) under many
streams: a public part is rendered once per change whatever query strings its anonymous
screens add (any other query is refetched by the screen itself; a URL that is no page here is
refused), and past its maximum the process answers 503 with Retry-After instead of resetting
connections, its open file limit raised at start and its count on ``/live/health/``."""

from __future__ import annotations

import http.client
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core import signing

from clubs import services as club_services
from clubs.models import Role
from live import bus as live_bus
from live import views as live_views
from scoring.games import game_create, table_create
from scoring.models import RulePreset
from scoring.nights import session_create
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.live import (
    SECRET_KEY,
    database_url,
    end_other_connections,
    free_port,
    production_environment,
    stop,
    wait_until,
)
from tests.scoring.helpers import enter_deal

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]

ROUNDS = 15
CROWD = 300


def _procfile(name: str) -> str:
    lines = (REPO / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())[name]


def _start_live(redis_url: str, extra: dict[str, str], files: int | None = None) -> Any:
    """The Procfile's live line on a port of its own; ``files``: the soft open file limit it
    starts with (its hard limit kept)."""
    port = free_port()
    env = {
        **production_environment(database_url(), redis_url),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "LIVE_BIND": f"127.0.0.1:{port}",
        **extra,
    }

    def limit() -> None:
        if files is not None:
            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))

    log = Path(tempfile.mkdtemp(prefix="rc-live-")) / "live.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["bash", "-c", f"exec {_procfile('live')}"], cwd=REPO, env=env,
            start_new_session=True, stdout=out, stderr=subprocess.STDOUT, preexec_fn=limit,
        )  # fmt: skip
    process.port = port  # type: ignore[attr-defined]
    wait_until(lambda: _status(port, "/live/health/") == 200, 60, "the live server")
    return process


@pytest.fixture
def live_process(postgres_tx: None, redis_url: str) -> Iterator[Callable[..., Any]]:
    started: list[Any] = []

    def run(extra: dict[str, str] | None = None, files: int | None = None) -> Any:
        started.append(_start_live(redis_url, extra or {}, files))
        return started[-1]

    yield run
    for process in started:
        stop(process)
    end_other_connections()


def _status(port: int, path: str) -> int | None:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", path)
        return conn.getresponse().status
    except OSError:
        return None


def _health(port: int) -> dict[str, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/live/health/")
    return dict(json.loads(conn.getresponse().read()))


def _stream_path(topics: list[str], fragment: str | None = None) -> str:
    token = signing.dumps(sorted(topics), salt=live_views.SALT, key=SECRET_KEY)
    path = f"/live/stream/?t={token}&since={live_bus.current()}"
    return path + (f"&fragment={fragment}" if fragment else "")


def _open(port: int, path: str) -> tuple[socket.socket, bytes]:
    """A stream asked for on a raw connection: the connection and its answer's head."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


def _read_until(sock: socket.socket, marker: bytes, seen: bytes = b"") -> bytes:
    while marker not in seen:
        chunk = sock.recv(65536)
        assert chunk, "the stream ended"
        seen += chunk
    return seen


def _public_club() -> Any:
    club = ClubFactory(slug="crowd")
    organiser = MembershipFactory(club=club, role=Role.OWNER).user
    club_services.club_update(club=club, actor=organiser, public_standings=True)
    players = [PlayerFactory(club=club) for _ in range(3)]
    session = session_create(club=club, actor=organiser, name="Crowd night")
    game = game_create(
        table=table_create(session=session, actor=organiser), actor=organiser,
        preset=RulePreset.objects.get(club=None, key="points"), players=players,
    )  # fmt: skip
    results = [{"player": players[0].pk, "outcome": "winner"}] + [
        {"player": p.pk, "outcome": "loser", "points": 20} for p in players[1:]
    ]
    enter_deal(game, organiser, {"results": results})
    return club


def _delays(sock: socket.socket, club: Any) -> list[float]:
    """From a change announced to the honest screen's new fragment, ROUNDS times."""
    delays = []
    for _ in range(ROUNDS):
        started = time.monotonic()
        live_bus.publish_now([f"club:{club.pk}"])
        _read_until(sock, b"event: fragment")
        delays.append(time.monotonic() - started)
        sock.settimeout(0.3)
        try:  # the rest of the event
            while sock.recv(65536):
                pass
        except TimeoutError:
            pass
        sock.settimeout(10)
    return delays


def test_anonymous_streams_with_other_queries_add_nothing_to_an_honest_screen(
    live_process, record_property
):
    club = _public_club()
    live = live_process()
    fragment = f"/p/{club.slug}/standings/live/"
    honest, head = _open(live.port, _stream_path([f"club:{club.pk}"], fragment))
    assert b" 200 " in head.split(b"\r\n")[0]
    _delays(honest, club)  # warm: the first render reads the templates and the club
    before = statistics.median(_delays(honest, club))

    crowd = []
    for number in range(CROWD):  # the same part, each with a query string of its own
        sock, head = _open(live.port, _stream_path([f"club:{club.pk}"], f"{fragment}?n={number}"))
        assert b" 200 " in head.split(b"\r\n")[0], head
        crowd.append(sock)
    renders = _health(live.port)["renders"]
    beside = statistics.median(_delays(honest, club))
    # One render a change, whatever the crowd asked for: each of them was told to refetch.
    assert _health(live.port)["renders"] - renders == ROUNDS
    heard = _read_until(crowd[0], b"event: change")
    assert b"event: fragment" not in heard
    for sock in crowd:
        sock.close()
    after = statistics.median(_delays(honest, club))
    alone = (before + after) / 2  # the machine's own load changes over the test
    line = (
        f"honest screen, change to fragment: median {alone * 1000:.1f} ms alone"
        f" ({before * 1000:.1f} before, {after * 1000:.1f} after),"
        f" {beside * 1000:.1f} ms beside {CROWD} anonymous streams with their own queries"
    )
    print(line)
    record_property("figures", line)
    assert beside < alone * 1.10, line
    honest.close()

    # A part that is no page of this site is refused.
    _, head = _open(live.port, _stream_path([f"club:{club.pk}"], "/no/such/page/"))
    assert b" 400 " in head.split(b"\r\n")[0]
    _, head = _open(live.port, _stream_path([f"club:{club.pk}"], "https://example.com/"))
    assert b" 400 " in head.split(b"\r\n")[0]


def test_past_its_maximum_the_live_process_answers_503_and_says_so(live_process, redis_url):
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    live = live_process({"LIVE_MAX_STREAMS": "40"}, files=512)
    health = _health(live.port)
    assert health["file_limit"] == hard  # raised at start from the 512 it was given
    assert (health["streams"], health["max_streams"], health["refused"]) == (0, 40, 0)

    path = _stream_path(["club:0"])
    held = [_open(live.port, path) for _ in range(40)]
    assert all(b" 200 " in head.split(b"\r\n")[0] for _, head in held)
    refused, head = _open(live.port, path)
    status, *headers = head.decode().split("\r\n")
    assert " 503 " in status and "Retry-After: 30" in headers, head
    health = _health(live.port)
    assert (health["streams"], health["refused"]) == (40, 1)

    for sock, _ in held[:10]:  # ten screens go away: their places are given back
        sock.close()
    wait_until(lambda: _health(live.port)["streams"] == 30, 10, "the closed streams released")
    again, head = _open(live.port, path)
    assert b" 200 " in head.split(b"\r\n")[0]
    for sock, _ in held[10:]:
        sock.close()
    again.close()
    refused.close()
