"""`make room` serves the club's network from one machine, seen from the phones: the club's owner
on the laptop opens the room through loopback and lands on its network address, makes the night's
table links, and every link and QR code carries that address; a phone opens a table's link
through it. Served by the command itself, on a scratch database, through this machine's
non-loopback address."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from config.room import lan_address, room_url
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.test_night import expect_text
from tests.config.test_make_run import fetch, free_port, stop
from tests.config.test_settings import OUR_VARS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
DEMO_PASSWORD = "rummyclub-demo"


def serve_room(port: int, database: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARS}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    # A key of the test's own, so that no key file is left in the project folder.
    env["SECRET_KEY"] = "room-test-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
    return subprocess.Popen(
        ["make", "--no-print-directory", "room", f"PORT={port}"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip


def wait_serving(server: subprocess.Popen[str], url: str) -> None:
    deadline = time.monotonic() + 180
    while True:
        try:
            status, _ = fetch(f"{url}/health/")
            if status == 200:
                return
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            output = server.stdout.read() if server.stdout else ""
            pytest.fail(f"make room did not start serving at {url}:\n{output}")
        time.sleep(0.5)


def test_a_phone_opens_a_table_link_through_the_rooms_network_address(browser: Any, tmp_path):
    port = free_port()
    address = lan_address({})
    url = room_url(address, port)
    server = serve_room(port, tmp_path / "room.sqlite3")
    contexts: list[Any] = []
    try:
        wait_serving(server, url)
        laptop_context = browser.new_context(viewport=DESKTOP)
        contexts.append(laptop_context)
        laptop = laptop_context.new_page()
        laptop.set_default_timeout(15_000)
        # The organiser types the loopback address on the laptop and lands on the room's.
        laptop.goto(f"http://127.0.0.1:{port}/login/")
        assert laptop.url == f"{url}/login/"
        laptop.get_by_label("Username").fill("owner")
        laptop.get_by_label("Password").fill(DEMO_PASSWORD)
        laptop.get_by_role("button", name="Log in").click()
        expect_text(laptop.locator(".account"), "owner")
        # Tonight the tables enter their own results.
        laptop.goto(f"http://localhost:{port}/clubs/demo/settings/")
        assert laptop.url == f"{url}/clubs/demo/settings/"
        laptop.locator("#club-table-entry").select_option("confirm")
        laptop.get_by_role("button", name="Save the club's details").click()
        laptop.goto(f"{url}/clubs/demo/")
        laptop.get_by_role("link", name="Tonight").first.click()
        laptop.locator("#all-table-links").click()
        card = laptop.locator(".table-link a.qr-box").first
        link = card.get_attribute("href")
        assert link is not None and link.startswith(f"{url}/t/"), link
        assert laptop.locator(".table-link svg.qr").count() >= 1
        shoot(laptop, "room-night-links-desktop")

        phone_context = browser.new_context(viewport=PHONE)
        contexts.append(phone_context)
        phone = phone_context.new_page()
        phone.set_default_timeout(15_000)
        phone.goto(link)
        expect_text(phone.locator("h1"), "Table 1")
        assert phone.url == link
        shoot(phone, "room-table-link-phone")
    finally:
        for context in contexts:
            context.close()
        output = stop(server)
    assert f"The room is served at {url}" in output
    assert f"Log in at {url}/login/" in output
