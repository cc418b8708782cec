"""Where a webhook may go and how it is sent: the address checked after DNS resolution, the
connection made to the very address checked (no second lookup to be rebound), no redirect
followed, at most 1 KB of the answer kept, and ``WEBHOOK_TIMEOUT_SECONDS`` (5 s) in all: connect,
send and the answer together, however slowly a receiver trickles it."""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import http.client
import io
import ipaddress
import secrets
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext, gettext_noop

from config.errors import InvalidInput

BODY_KEPT = 1024
# Addresses a webhook never reaches unless private addresses are allowed: loopback, private,
# link-local (cloud metadata at 169.254.169.254), shared (carrier NAT), multicast, reserved.
_SHARED = ipaddress.ip_network("100.64.0.0/10")
# IPv6 addresses that carry an IPv4 one in their last 32 bits: the well-known NAT64 prefix and the
# deprecated IPv4-compatible form. A translator or tunnel delivers them to that IPv4 address.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
# The local-use NAT64 prefix (RFC 8215) reaches only the network's own translator, and where its
# IPv4 address sits depends on that network's choice of prefix length: refused whole.
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")


class Refused(Exception):
    """The URL may not be used; the message says why (and names the address), in English as a
    delivery's log keeps it; ``words`` (marked, not translated) and ``values`` say it again in
    the language of the person who gave the URL."""

    def __init__(self, words: str, **values: object) -> None:
        super().__init__("url: " + words % values)
        self.words = words
        self.values = values


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address a packet to ``address`` ends up at, when the IPv6 address wraps one:
    IPv4-mapped, 6to4, Teredo (its client), NAT64, IPv4-compatible."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]  # the client, its bits already inverted back
    if address in _NAT64 or address in _IPV4_COMPATIBLE:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _address_allowed(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        if address in _LOCAL_NAT64:
            return False
        address = _embedded_ipv4(address) or address
    return not (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
        or (isinstance(address, ipaddress.IPv4Address) and address in _SHARED)
    )


def _private(host: str, address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> Refused:
    """A private address refused, naming the IPv4 one it wraps if it does."""
    wrapped = _embedded_ipv4(address) if isinstance(address, ipaddress.IPv6Address) else None
    if wrapped is None:
        words = gettext_noop("%(host)s is a private address (%(address)s)")
        return Refused(words, host=host, address=str(address))
    words = gettext_noop("%(host)s is a private address (%(address)s, which wraps %(wrapped)s)")
    return Refused(words, host=host, address=str(address), wrapped=str(wrapped))


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str  # the resolved address connected to


def resolve(url: str, *, allow_private: bool | None = None) -> Target:
    """The URL's target, its host resolved and every address checked; ``Refused`` otherwise."""
    allow = settings.WEBHOOK_ALLOW_PRIVATE if allow_private is None else allow_private
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise Refused(gettext_noop("must be an http(s) URL with a host"))
    if parts.scheme != "https" and not allow:
        raise Refused(gettext_noop("must be https"))
    if parts.username or parts.password:
        raise Refused(gettext_noop("must not carry a user name or password"))
    try:
        port = parts.port
    except ValueError:
        raise Refused(gettext_noop("the port is not a number from 1 to 65535")) from None
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    elif not 1 <= port <= 65535:  # port 0 parses, and would mean "any port" to a socket
        raise Refused(gettext_noop("port %(port)s is not a number from 1 to 65535"), port=port)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Refused(gettext_noop("%(host)s does not resolve"), host=parts.hostname) from None
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    if not allow:
        for address in addresses:
            if not _address_allowed(address):
                raise _private(parts.hostname, address)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, str(addresses[0]))


SECRET_PREFIX = "whsec_"


def secret_new() -> str:
    """A new endpoint secret in the Standard Webhooks form: ``whsec_`` and 32 random bytes in
    base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def signing_key(secret: str) -> bytes:
    """The HMAC key of a secret: the bytes a ``whsec_`` secret encodes; for a secret from before
    that form (any other string), its own bytes, so that its receivers keep working (their
    ``whsec_`` form is ``whsec_`` + base64 of those bytes)."""
    if secret.startswith(SECRET_PREFIX):
        return base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    return secret.encode()


def standard_signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` header (Standard Webhooks): ``v1,`` and the base64 HMAC-SHA256
    of ``<id>.<timestamp>.<body>``."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(signing_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signature(secret: str, body: bytes) -> str:
    """``sha256=<hex>``: HMAC-SHA256 of the raw body with the secret's own bytes (the header
    before Standard Webhooks, kept for a release)."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Answer:
    status: int | None
    body: str
    error: str
    duration_ms: int

    @property
    def ok(self) -> bool:
        return not self.error and self.status is not None and 200 <= self.status < 300


class DeadlinePassed(TimeoutError):
    """The attempt's total time ran out."""


def _time_left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise DeadlinePassed("no complete answer in time")
    return left


class _DeadlineReader(io.RawIOBase):
    """The answer's bytes, each read given only the time left before the deadline: http.client's
    own timeout applies to each socket operation, so a receiver sending a byte every few seconds
    would never trip it."""

    def __init__(self, sock: socket.socket, deadline: float, socket_file: Any) -> None:
        # ``socket_file`` (http.client's own reader) is kept open until this one closes: it
        # holds the socket open after the connection lets go of it (HTTP/1.0 answers).
        self._sock, self._deadline, self._socket_file = sock, deadline, socket_file

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._socket_file.close()
        super().close()

    def readinto(self, buffer: Any) -> int:
        self._sock.settimeout(_time_left(self._deadline))
        return self._sock.recv_into(buffer)


class _DeadlineResponse(http.client.HTTPResponse):
    def __init__(self, sock: socket.socket, *, deadline: float, **kwargs: Any) -> None:
        super().__init__(sock, **kwargs)
        self.fp = io.BufferedReader(_DeadlineReader(sock, deadline, self.fp))


class _Connection(http.client.HTTPConnection):
    """HTTP to the checked address, the Host header the URL's, all of it before ``deadline``."""

    def __init__(self, target: Target, deadline: float) -> None:
        super().__init__(target.host, target.port)
        self._address, self._deadline = target.address, deadline
        self.response_class = functools.partial(_DeadlineResponse, deadline=deadline)  # type: ignore[assignment]

    def _socket(self) -> socket.socket:
        sock = socket.create_connection((self._address, self.port), _time_left(self._deadline))
        sock.settimeout(_time_left(self._deadline))  # for sending the request (sendall: total)
        return sock

    def connect(self) -> None:
        self.sock = self._socket()


class _TlsConnection(_Connection):
    """HTTPS to the checked address; the certificate checked against the URL's host name."""

    default_port = http.client.HTTPS_PORT

    def __init__(self, target: Target, deadline: float) -> None:
        super().__init__(target, deadline)
        self._context = ssl.create_default_context()

    def connect(self) -> None:
        sock = self._context.wrap_socket(self._socket(), server_hostname=self.host)
        sock.settimeout(_time_left(self._deadline))
        self.sock = sock


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` once; whatever happens is an ``Answer`` (never an exception)."""
    started = time.monotonic()
    timeout = float(settings.WEBHOOK_TIMEOUT_SECONDS)
    deadline = started + timeout

    def took() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        target = resolve(url)
    except Refused as exc:
        return Answer(None, "", str(exc).removeprefix("url: "), took())
    limit = f"{timeout:g} s"
    kind = _TlsConnection if target.scheme == "https" else _Connection
    connection = kind(target, deadline)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        kept = response.read(BODY_KEPT).decode("utf-8", "replace")
        status = response.status
    except TimeoutError:  # the socket's, or the deadline passed between reads
        return Answer(None, "", f"timeout: no complete answer within {limit}", took())
    except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
        return Answer(None, "", f"{type(exc).__name__}: {exc}"[:300], took())
    finally:
        connection.close()
    if took() > timeout * 1000:
        return Answer(status, kept, f"answered after the {limit} limit", took())
    error = "" if 200 <= status < 300 else f"answered {status}"
    if 300 <= status < 400:
        error = f"answered {status}: redirects are not followed"
    return Answer(status, kept, error, took())


def secret_checked(secret: str) -> str:
    """A ``whsec_`` secret must hold 24 to 64 bytes in base64 (Standard Webhooks); any other
    string is taken as it is, as before that form (its bytes are the key)."""
    if not secret.startswith(SECRET_PREFIX):
        return secret
    try:
        key = base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except (binascii.Error, ValueError):
        key = b""
    if not 24 <= len(key) <= 64:
        message = "secret: " + gettext("after whsec_ give 24 to 64 bytes in base64")
        raise InvalidInput(message, code="invalid_secret", details={"secret": [message]})
    return secret
