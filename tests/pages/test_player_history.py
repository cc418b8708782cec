"""A player's history on their page: grouped by night, fifty lines a page, newest first."""

from __future__ import annotations

from django.test import Client

from tests.scoring.helpers import new_game, play, results


def test_the_history_pages_by_fifty_grouped_by_night(standing):
    game, ids = new_game(standing, "points", ["Asha", "Bilal"])
    for _ in range(55):
        play(standing, game, results(ids, Asha="winner", Bilal=10))
    client = Client()
    client.force_login(standing.player)
    first = client.get(f"/clubs/home/players/{ids['Asha']}/").content.decode()
    assert first.count('class="night-head"') == 1 and "Page 1 of 2" in first
    assert first.count('href="/clubs/home/deals/') == 50
    second = client.get(f"/clubs/home/players/{ids['Asha']}/?page=2").content.decode()
    assert second.count('href="/clubs/home/deals/') == 5 and "Newer" in second
    clamped = client.get(f"/clubs/home/players/{ids['Asha']}/?page=99").content.decode()
    assert "Page 2 of 2" in clamped
    # What is not a page number reads the first page, never an error.
    for raw in ("x", "0", "-1", "²", "1.5", "9" * 5000):
        response = client.get(f"/clubs/home/players/{ids['Asha']}/", {"page": raw})
        assert response.status_code == 200, raw
        assert "Page 1 of 2" in response.content.decode(), raw
