"""The edge under abuse, through deploy/nginx.conf and deploy/nginx-main.conf as
test_proxy.py runs them (gunicorn's web and live lines of the Procfile behind nginx): a
thousand half-sent requests from one address leave ``/health/`` answering within a second;
bodies trickled from one address hold at most its share of places (the rest answered 429);
the Host the client asked for reaches the app with its port (links and QR codes keep it); web
and live each have a control socket of their own."""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import time

import pytest

from tests.reliability.test_proxy import Stack, stack  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]

HALF_SENT = 1000
PROBE_SECONDS = 5.0
BODY_PLACES = 64  # deploy/nginx.conf: limit_conn rummyclub_conn 64


def _connect(site: Stack) -> socket.socket:
    return socket.create_connection(("127.0.0.1", site.port), timeout=10)


def _health_times(site: Stack) -> list[float | None]:
    """``/health/`` asked again and again for PROBE_SECONDS: each answer's time, None for a
    failure or an answer that is not 200."""
    times: list[float | None] = []
    deadline = time.monotonic() + PROBE_SECONDS
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            conn = site.proxied(timeout=2)
            conn.request("GET", "/health/", headers={"Host": "127.0.0.1"})
            ok = conn.getresponse().status == 200
            conn.close()
        except OSError:
            ok = False
        times.append(time.monotonic() - started if ok else None)
        time.sleep(0.05)
    return times


def test_a_thousand_half_sent_requests_leave_health_answering(stack, record_property):  # noqa: F811
    held = []
    try:
        for number in range(HALF_SENT):
            sock = _connect(stack)
            sock.sendall(f"GET /health/?n={number} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode())
            held.append(sock)
        times = _health_times(stack)
        # Every one of them is still held open by nginx (none cut yet, none refused).
        open_still = 0
        for sock in held:
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                open_still -= sock.recv(1) == b""
            open_still += 1
    finally:
        for sock in held:
            sock.close()
    answered = [t for t in times if t is not None]
    line = (
        f"{HALF_SENT} half-sent requests through nginx ({open_still} still open):"
        f" /health/ {len(answered)}/{len(times)} answered, slowest"
        f" {max(answered, default=float('nan')) * 1000:.0f} ms"
    )
    print(line)
    record_property("figures", line)
    assert open_still == HALF_SENT, line
    assert len(answered) == len(times) and max(answered) < 1.0, line


def test_bodies_trickled_from_one_address_hold_only_its_share(stack):  # noqa: F811
    held, refused = [], 0
    try:
        for _ in range(BODY_PLACES + 20):
            sock = _connect(stack)
            sock.sendall(
                b"POST /api/v1/rules/evaluate/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
            )
            held.append(sock)
        for sock in held:  # those past the address's places are answered at once
            sock.settimeout(0.5)
            with contextlib.suppress(TimeoutError):
                refused += sock.recv(64).startswith(b"HTTP/1.1 429")
    finally:
        for sock in held:
            sock.close()
    assert refused == 20
    time.sleep(0.5)  # the places given back, the address is served again
    conn = stack.proxied()
    conn.request("GET", "/health/", headers={"Host": "127.0.0.1"})
    assert conn.getresponse().status == 200


def test_the_app_sees_the_port_the_client_asked_for(stack):  # noqa: F811
    conn = stack.proxied()
    host = f"127.0.0.1:{stack.port}"
    conn.request("GET", "/.well-known/oauth-authorization-server", headers={"Host": host})
    response = conn.getresponse()
    body = response.read().decode()
    assert response.status == 200
    assert f"http://{host}/" in body, body[:300]  # its links keep the port


def test_web_and_live_each_have_their_own_control_socket(stack):  # noqa: F811
    web, live = stack.control_sockets
    assert web != live
    for path in (web, live):
        assert os.path.exists(path), path
        assert stat.S_ISSOCK(os.stat(path).st_mode), path
