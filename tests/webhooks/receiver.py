"""A real HTTP receiver for webhook tests: a server in a thread on 127.0.0.1 that records every
request (when, headers, raw body) and answers from a script of status codes; given the
endpoint's secret, it checks each request as a receiver would, with the ``standardwebhooks``
library, and answers 401 to one that does not verify."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError


@dataclass
class Received:
    at: float
    headers: dict[str, str]
    body: bytes
    status: int

    @property
    def json(self) -> dict[str, Any]:
        return json.loads(self.body)

    @property
    def event(self) -> str:
        return self.headers["X-Rummyclub-Event"]

    def verifies_with(self, secret: str) -> bool:
        """Standard Webhooks: the library accepts it (signature and a timestamp within five
        minutes)."""
        try:
            Webhook(secret).verify(self.body, self.headers)
        except WebhookVerificationError:
            return False
        return True

    def signed_by(self, secret: str) -> bool:
        expected = "sha256=" + hmac.new(secret.encode(), self.body, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, self.headers["X-Rummyclub-Signature-256"])


@dataclass
class Receiver:
    """``answers``: status codes for the requests in turn (then 200); ``hold``: seconds the
    first request is held before answering; ``trickle``: seconds between the bytes of every
    answer (a receiver that keeps the connection busy but never finishes in time); ``slow``:
    seconds every request is held. ``most_in_flight``: the most requests it ever had at once.
    ``secret``: verify every request with it (401 when it does not verify)."""

    answers: list[int] = field(default_factory=list)
    hold: float = 0.0
    trickle: float = 0.0
    slow: float = 0.0
    most_in_flight: int = 0
    secret: str = ""
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        receiver = self
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                with lock:
                    receiver._in_flight += 1
                    receiver.most_in_flight = max(receiver.most_in_flight, receiver._in_flight)
                try:
                    self._answer()
                finally:
                    with lock:
                        receiver._in_flight -= 1

            def _answer(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with lock:
                    first = not receiver.received and not receiver._held
                    receiver._held = receiver._held or first
                    status = receiver.answers.pop(0) if receiver.answers else 200
                headers = dict(self.headers)
                if receiver.secret and not Received(0, headers, body, 0).verifies_with(
                    receiver.secret
                ):
                    status = 401
                if first and receiver.hold:
                    time.sleep(receiver.hold)
                time.sleep(receiver.slow)
                with lock:
                    receiver.received.append(Received(time.monotonic(), headers, body, status))
                if receiver.trickle:
                    self._trickle(f"HTTP/1.0 {status} OK\r\nContent-Length: 2\r\n\r\nok")
                    return
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok" if status < 300 else b"x" * 5000)

            def _trickle(self, answer: str) -> None:
                for byte in answer.encode():
                    try:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    except OSError:  # the client gave up
                        return
                    time.sleep(receiver.trickle)

            def log_message(self, *args: Any) -> None:
                pass

        self._held = False
        self._in_flight = 0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def accepted(self) -> list[Received]:
        return [r for r in self.received if 200 <= r.status < 300]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def wait_for(predicate: Any, timeout: float = 30.0, message: str = "timed out waiting") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(message)
        time.sleep(0.05)
