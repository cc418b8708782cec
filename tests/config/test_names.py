"""A name is checked for a character that shows, by Unicode category (``config/names.py``): one
made only of zero-width spaces, joiners, bidi marks, controls, separators, private-use,
unassigned code points or combining marks alone is refused with a 400 naming the field, through
every service that takes a free-text name, in the API and on the pages. Names that show (accents,
CJK, emoji) are kept as before."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Player
from config.names import visible_name
from scoring.models import RulePreset

INVISIBLE = [
    pytest.param("\u200b", id="zero-width-space"),
    pytest.param("\u200b\u200c\u200d\u2060", id="zero-width-joiners"),
    pytest.param("\u200e\u200f\u202a\u202c\u2066\u2069", id="bidi-marks"),
    pytest.param("\ufeff\u00ad", id="bom-soft-hyphen"),
    pytest.param("\U000e0041\U000e007f", id="tag-characters"),
    pytest.param("\u0007\u001b", id="controls"),
    pytest.param(" \u3000\u2028\u2029 ", id="separators"),
    pytest.param("\u0301\u0308", id="combining-marks-alone"),
    pytest.param("\ue000", id="private-use"),
    pytest.param("\u0378", id="unassigned"),
]


@pytest.mark.parametrize("raw", INVISIBLE)
def test_a_name_with_nothing_that_shows_is_no_name(raw):
    assert visible_name(raw) == ""


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("Asha", "Asha"),
        ("  Asha \t  K  ", "Asha K"),
        ("José Müller", "José Müller"),
        ("Jose\u0301", "Jose\u0301"),  # a combining mark on a letter shows
        ("王小明", "王小明"),
        ("🃏", "🃏"),
        ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),  # an emoji sequence keeps its joiners
        ("\u200bAsha", "\u200bAsha"),  # something shows: kept as typed
        ("٣", "٣"),
    ],
)
def test_names_that_show_are_kept_as_before(raw, kept):
    assert visible_name(raw) == kept


def _points_preset() -> int:
    return RulePreset.objects.get(club=None, key="points").pk


# (who, method, path, body for a name): every API write that takes a free-text name.
WRITES: list[Any] = [
    pytest.param("owner", "post", "/api/v1/clubs/", lambda name: {"name": name}, id="club-create"),
    pytest.param(
        "owner", "patch", "/api/v1/clubs/home/", lambda name: {"name": name}, id="club-update"
    ),
    pytest.param(
        "organiser", "post", "/api/v1/clubs/home/players/", lambda n: {"name": n}, id="player"
    ),
    pytest.param(
        "organiser", "post", "/api/v1/clubs/home/sessions/", lambda n: {"name": n}, id="session"
    ),
    pytest.param(
        "organiser",
        "post",
        "/api/v1/clubs/home/tournaments/",
        lambda n: {"name": n, "preset": _points_preset()},
        id="tournament",
    ),
    pytest.param(
        "organiser",
        "post",
        "/api/v1/clubs/home/presets/",
        lambda n: {"key": "house", "name": n, "format": "points", "params": {}},
        id="preset",
    ),
    pytest.param("player", "post", "/api/v1/tokens/", lambda n: {"name": n}, id="token"),
]


@pytest.mark.parametrize(("who", "method", "path", "body"), WRITES)
@pytest.mark.parametrize("raw", INVISIBLE)
def test_the_api_refuses_a_name_with_nothing_that_shows(standing, who, method, path, body, raw):
    answer = getattr(standing.client(who), method)(path, body(raw), format="json")
    assert answer.status_code == 400, answer.content
    # The field as the API names it, or as its form does ("Name: ...", a tournament's).
    assert answer.json()["error"]["message"].lower().startswith("name: ")


@pytest.mark.parametrize(("who", "method", "path", "body"), WRITES)
def test_the_api_keeps_a_name_that_shows(standing, who, method, path, body):
    answer = getattr(standing.client(who), method)(path, body("Zoë 王 🃏"), format="json")
    assert answer.status_code in (200, 201), answer.content
    assert answer.json()["name"] == "Zoë 王 🃏"


@pytest.mark.parametrize("raw", INVISIBLE)
def test_renaming_a_player_or_naming_a_table_to_nothing_that_shows_is_refused(standing, raw):
    client = standing.client("organiser")
    asha = Player.objects.get(club=standing.club, name="Asha")
    renamed = client.patch(f"/api/v1/clubs/home/players/{asha.pk}/", {"name": raw}, format="json")
    assert renamed.status_code == 400 and renamed.json()["error"]["message"].startswith("name: ")
    assert Player.objects.get(pk=asha.pk).name == "Asha"
    session = client.post("/api/v1/clubs/home/sessions/", {"name": "Sat"}, format="json").json()
    table = client.post(
        f"/api/v1/clubs/home/sessions/{session['id']}/tables/", {"name": raw}, format="json"
    )
    assert table.status_code == 400 and table.json()["error"]["message"].startswith("name: ")
