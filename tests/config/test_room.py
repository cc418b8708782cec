"""`make room` (config/room.py): the address it serves the club's network on, the environment it
serves with, its secret key, and pages asked for through loopback sent to the room's address."""

from __future__ import annotations

import ipaddress
import stat

import pytest
from django.test import Client, override_settings

from config.room import RoomError, lan_address, room_environment, room_secret_key, room_url


def test_the_address_found_is_one_phones_can_reach():
    found = ipaddress.ip_address(lan_address({}))
    assert not found.is_loopback and not found.is_unspecified


def test_room_host_chooses_the_address_and_loopback_or_nonsense_is_refused():
    assert lan_address({"ROOM_HOST": " 10.1.2.3 "}) == "10.1.2.3"
    with pytest.raises(RoomError, match=r"ROOM_HOST: 127\.0\.0\.1 is this machine only"):
        lan_address({"ROOM_HOST": "127.0.0.1"})
    with pytest.raises(RoomError, match="ROOM_HOST: 'club-laptop' is not an IP address"):
        lan_address({"ROOM_HOST": "club-laptop"})


def test_the_room_serves_its_address_and_keeps_what_the_organiser_set(tmp_path, monkeypatch):
    monkeypatch.setattr("config.room.SECRET_FILE", tmp_path / "key")
    env = room_environment("192.168.1.20", 8001, {"DATABASE_URL": "sqlite:////tmp/x.sqlite3"})
    assert env["ALLOWED_HOSTS"].split(",") == ["192.168.1.20", "localhost", "127.0.0.1", "[::1]"]
    assert env["PUBLIC_URL"] == env["ROOM_URL"] == "http://192.168.1.20:8001"
    assert env["DATABASE_URL"] == "sqlite:////tmp/x.sqlite3"
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.local"
    own = room_environment("192.168.1.20", 8001, {"SECRET_KEY": "mine", "PUBLIC_URL": "http://x"})
    assert own["SECRET_KEY"] == "mine" and own["PUBLIC_URL"] == "http://x"
    assert room_url("fd00::7", 8000) == "http://[fd00::7]:8000"


def test_the_rooms_secret_key_is_made_once_and_readable_by_its_owner_only(tmp_path):
    path = tmp_path / ".room-secret-key"
    first = room_secret_key(path)
    assert len(first) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert room_secret_key(path) == first


@override_settings(ROOM_URL="http://192.168.1.20:8000", ALLOWED_HOSTS=["*"])
@pytest.mark.django_db
def test_a_page_asked_for_through_loopback_is_sent_to_the_rooms_address():
    client = Client()
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000"):
        answer = client.get("/clubs/demo/?page=2", HTTP_HOST=host)
        assert answer.status_code == 302, host
        assert answer["Location"] == "http://192.168.1.20:8000/clubs/demo/?page=2"
    # The room's own address, the API, and a form posted on the laptop are served as they come.
    assert client.get("/login/", HTTP_HOST="192.168.1.20:8000").status_code == 200
    assert client.get("/api/v1/clubs/", HTTP_HOST="127.0.0.1:8000").status_code == 401
    assert client.post("/login/", {}, HTTP_HOST="127.0.0.1:8000").status_code == 200


@pytest.mark.django_db
def test_without_a_room_nothing_is_sent_anywhere():
    assert Client().get("/login/", HTTP_HOST="127.0.0.1:8000").status_code == 200
