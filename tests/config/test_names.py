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
        ("Jose\u0301", "Jos\u00e9"),  # a combining mark on a letter shows, composed (NFKC)
        ("王小明", "王小明"),
        ("🃏", "🃏"),
        ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),  # an emoji sequence keeps its joiners
        ("\u0915\u094d\u200d\u0937", "\u0915\u094d\u200d\u0937"),  # a joiner shaping Devanagari
        ("٣", "٣"),
    ],
)
def test_names_that_show_are_kept(raw, kept):
    assert visible_name(raw) == kept


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        pytest.param("\u200bAsha", "Asha", id="zero-width-space-before"),
        pytest.param("As\u200bha", "Asha", id="zero-width-space-inside"),
        pytest.param("A\u200dsha", "Asha", id="joiner-between-latin-letters"),
        pytest.param("Asha\u200f", "Asha", id="trailing-bidi-mark"),
        pytest.param("\u2067Asha\u2069", "Asha", id="bidi-isolate"),
        pytest.param("As\u00adha", "Asha", id="soft-hyphen"),
        pytest.param("\uff21\uff53\uff48\uff41", "Asha", id="full-width"),
        pytest.param("\U0001d400sha", "Asha", id="mathematical-bold-a"),
        pytest.param("\u05d3\u05e0\u05d4\u200e", "\u05d3\u05e0\u05d4", id="hebrew-with-ltr-mark"),
    ],
)
def test_a_look_alike_of_a_name_is_stored_as_the_name(raw, stored):
    assert visible_name(raw) == stored


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("\u0410sha", id="cyrillic-a-in-latin"),
        pytest.param("Ash\u03b1", id="greek-alpha-in-latin"),
        pytest.param("Bhavna \u0410rjun", id="second-word"),
    ],
)
def test_a_word_mixing_look_alike_alphabets_is_refused(raw):
    from config.errors import InvalidInput
    from config.names import name_checked

    with pytest.raises(InvalidInput) as refused:
        name_checked(raw)
    assert refused.value.code == "look_alike_name"
    assert "mixes" in str(refused.value) and "one alphabet" in str(refused.value)


@pytest.mark.parametrize(
    "raw",
    [
        "\u0410\u0448\u0430",
        "\u0391\u03bb\u03ad\u03be\u03b7\u03c2",
        "Asha \u0410\u0448\u0430",
        "\u5c71\u7530\u3055\u3093",
    ],
)
def test_names_in_one_alphabet_a_word_are_kept(raw):
    from config.names import name_checked

    assert name_checked(raw) == raw


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


@pytest.mark.parametrize(("who", "method", "path", "body"), WRITES)
def test_the_api_refuses_a_look_alike_name_and_stores_a_cleaned_one(
    standing, who, method, path, body
):
    client = standing.client(who)
    mixed = getattr(client, method)(path, body("\u0410sha Club"), format="json")
    assert mixed.status_code == 400, mixed.content
    error = mixed.json()["error"]
    assert error["code"] == "look_alike_name" and error["message"].lower().startswith("name: ")
    cleaned = getattr(client, method)(path, body("Zo\u00eb\u200f \u200bK"), format="json")
    assert cleaned.status_code in (200, 201), cleaned.content
    assert cleaned.json()["name"] == "Zo\u00eb K"


def test_a_look_alike_of_a_player_is_found_as_that_player(standing):
    """With the invisible characters gone, the roster's duplicate check sees the same name."""
    client = standing.client("organiser")
    again = client.post("/api/v1/clubs/home/players/", {"name": "Asha\u200b"}, format="json")
    assert again.status_code in (400, 409), again.content
    assert Player.objects.filter(club=standing.club, name="Asha").count() == 1
