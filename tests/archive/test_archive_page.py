"""The archive's button on the club's settings page: an owner's download of the club's archive,
which imports as the club; organisers see the settings without it (the access table in
tests/pages/test_access.py holds every role)."""

from __future__ import annotations

import io

from django.test import Client

from archive.restore import club_import
from clubs.models import Player
from tests.conftest import Standing


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_the_owner_downloads_the_archive_from_the_settings_page(standing: Standing) -> None:
    url = f"/clubs/{standing.club.slug}/settings/archive.jsonl"
    page = _client(standing.owner).get(f"/clubs/{standing.club.slug}/settings/").content.decode()
    assert f'href="{url}"' in page and "Download the archive" in page
    response = _client(standing.owner).get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/jsonl; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="home-archive-')
    text = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    restored = club_import(stream=io.StringIO(text), slug="home-restored")
    assert sorted(
        Player.objects.filter(club=restored.club).values_list("name", flat=True)
    ) == sorted(Player.objects.filter(club=standing.club).values_list("name", flat=True))


def test_an_organiser_sees_no_button_and_is_refused_the_download(standing: Standing) -> None:
    url = f"/clubs/{standing.club.slug}/settings/archive.jsonl"
    page = _client(standing.organiser).get(f"/clubs/{standing.club.slug}/settings/")
    assert page.status_code == 200
    assert url not in page.content.decode()
    assert "Only an owner can download it." in page.content.decode()
    assert _client(standing.organiser).get(url).status_code == 403
    assert _client(standing.owner).post(url).status_code == 405
