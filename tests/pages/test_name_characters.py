"""The pages refuse a name with no character that shows (zero-width spaces, bidi marks,
combining marks alone) as the API does (``config/names.py``): 400, the message shown, nothing
made."""

from __future__ import annotations

import pytest

from clubs.models import Player
from scoring.models import Session
from tests.pages.conftest import Pages


@pytest.mark.parametrize("raw", ["\u200b\u200b", "\u200f", "\u0301"])
def test_the_pages_refuse_a_name_with_nothing_that_shows(pages: Pages, raw):
    client = pages.client("organiser")
    players = Player.objects.count()
    added = client.post(f"/clubs/{pages.slug}/players/add/", {"name": raw})
    assert added.status_code == 400 and 'role="alert"' in added.content.decode()
    assert Player.objects.count() == players
    sessions = Session.objects.count()
    made = client.post(f"/clubs/{pages.slug}/sessions/new/", {"name": raw})
    assert made.status_code == 400 and 'role="alert"' in made.content.decode()
    assert Session.objects.count() == sessions
