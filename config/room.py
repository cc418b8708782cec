"""``make room``: a laptop serves the club's room on its own network, with the embedded default
(SQLite in the project folder, tasks in-process, the demo club when the database is empty).

It listens on every interface, finds the machine's address on the club's network (the one its
default route leaves by; ``ROOM_HOST`` to choose another), accepts that address as a host,
builds every link and QR code from it (``ROOM_URL``: a page opened on the laptop through
``127.0.0.1`` or ``localhost`` is sent to the same page at that address, so the QR codes it
shows carry an address the phones can reach), and prints it with a QR code in the terminal.

One process serves it all: uvicorn on ``config.asgi``. The live screens' streams wait on the
event loop rather than holding a thread each (the development server holds one per stream), and
one process is what the embedded default's live announcements and in-process tasks need: they
live in the process's memory. Pages and the API run on the threads Django gives each request.

The room's secret key is made once and kept beside the database (``.room-secret-key``, readable
by its owner only): a room on a shared network does not run on the development key that
``make run`` uses on loopback."""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import socket
import subprocess
import sys
from io import StringIO
from pathlib import Path

import segno

REPO = Path(__file__).resolve().parent.parent
SECRET_FILE = REPO / ".room-secret-key"
#: A documentation address (RFC 5737): "connecting" a UDP socket to it sends nothing, and tells
#: which local address the default route would leave by.
_PROBE = ("192.0.2.123", 9)


class RoomError(Exception):
    """What stops the room from starting, said so that the organiser can act on it."""


def lan_address(environ: dict[str, str] | None = None) -> str:
    """The machine's address on the club's network: ``ROOM_HOST`` when set, else the address its
    default route leaves by. A loopback address is refused: no phone could reach it."""
    environ = os.environ if environ is None else environ
    chosen = environ.get("ROOM_HOST", "").strip()
    if not chosen:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect(_PROBE)
            except OSError:
                raise RoomError(
                    "no network found: join the club's wifi (or set ROOM_HOST to this machine's "
                    "address on it)"
                ) from None
            chosen = probe.getsockname()[0]
    try:
        address = ipaddress.ip_address(chosen)
    except ValueError:
        raise RoomError(f"ROOM_HOST: {chosen!r} is not an IP address") from None
    if address.is_loopback or address.is_unspecified:
        raise RoomError(
            f"ROOM_HOST: {chosen} is this machine only; phones need its address on the club's "
            "network"
        )
    return str(address)


def _host(address: str) -> str:
    """An address as a URL's host names it (an IPv6 address in brackets)."""
    return f"[{address}]" if ":" in address else address


def room_url(address: str, port: int) -> str:
    return f"http://{_host(address)}:{port}"


def room_secret_key(path: Path = SECRET_FILE) -> str:
    """The room's secret key, made on its first start and kept in ``path`` (mode 0600)."""
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_urlsafe(48)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


def room_environment(address: str, port: int, environ: dict[str, str]) -> dict[str, str]:
    """The embedded default's environment for the room (what the organiser set themselves, such
    as ``DATABASE_URL`` or ``SECRET_KEY``, wins)."""
    url = room_url(address, port)
    env = dict(environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    env.setdefault("SECRET_KEY", room_secret_key())
    env.setdefault("ALLOWED_HOSTS", f"{_host(address)},localhost,127.0.0.1,[::1]")
    env.setdefault("PUBLIC_URL", url)
    env.setdefault("ROOM_URL", url)
    # WhiteNoise hands Django's ASGI handler a file's synchronous iterator, which Django reads on
    # a thread with a warning per file; the room serves its static files that way on purpose.
    env.setdefault(
        "PYTHONWARNINGS",
        "ignore:StreamingHttpResponse must consume synchronous iterators"
        "::django.core.handlers.asgi",
    )
    return env


def port_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def banner(url: str) -> str:
    code = segno.make(url, error="m")
    lines = [
        "",
        f"  The room is served at {url}",
        "  Phones on the club's network open it there (scan the code below); open it there on",
        "  this laptop too, so that every link and QR code it shows carries that address.",
        "  Stop with Ctrl-C. If the laptop joins another network, start the room again.",
        "",
    ]
    return "\n".join(lines) + "\n" + _terminal_code(code)


def _terminal_code(code: segno.QRCode) -> str:
    out = StringIO()
    code.terminal(out=out, compact=True, border=2)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make room", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    try:
        address = lan_address()
    except RoomError as exc:
        print(f"make room: {exc}", file=sys.stderr)
        return 2
    if not port_free(args.port):
        print(f"Port {args.port} is taken: run on another one, e.g. make room PORT=8001")
        return 2
    env = room_environment(address, args.port, dict(os.environ))
    python = sys.executable
    manage = str(REPO / "manage.py")
    subprocess.run([python, manage, "migrate", "--noinput", "-v0"], env=env, check=True)
    url = room_url(address, args.port)
    subprocess.run(
        [python, manage, "load_demo", "--if-empty", "--address", url.removeprefix("http://")],
        env=env,
        check=True,
    )
    print(banner(url), flush=True)
    server = [
        python, "-m", "uvicorn", "config.asgi:application", "--host", "0.0.0.0",
        "--port", str(args.port), "--lifespan", "off", "--no-access-log",
        "--timeout-graceful-shutdown", "3",
    ]  # fmt: skip
    os.chdir(REPO)
    os.execve(python, server, env)
    return 0  # not reached: the server took the process


if __name__ == "__main__":
    sys.exit(main())
