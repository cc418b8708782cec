"""The desk's confirmations in the page's language: the flash after a check-in and a round's
release, a count said with its plural, and a chip-level tournament's final table in words,
a night's held pot named; the English as it was."""

from __future__ import annotations

import html
import random

import pytest
from django.test import Client, TestCase
from django.utils import translation
from django.utils.translation import gettext, ngettext

from scoring.figures import HeldPot
from tests.tournaments.helpers import enter, new_tournament, play_round, roster
from tournaments.models import Round, Tournament
from tournaments.services.entries import entry_add
from tournaments.services.setup import tournament_start

pytestmark = pytest.mark.django_db


def _desk(standing, lang: str | None) -> Client:
    client = Client(headers={"accept-language": lang} if lang else {})
    client.force_login(standing.organiser)
    return client


def _page(response) -> str:
    return html.unescape(response.content.decode())


def test_a_check_in_is_confirmed_in_the_desks_language(standing):
    cup = new_tournament(standing)
    names = ["Asha", "Bilal", "Chitra"]
    entries = [
        entry_add(
            tournament=cup, actor=standing.organiser, player=standing.club.players.get(name=n)
        )
        for n in names
    ]
    url = f"/clubs/home/tournaments/{cup.pk}/entries/"
    for entry, lang, said in (
        (entries[0], "de", "Asha ist eingecheckt."),
        (entries[1], "hi", "Bilal का चेक-इन हो गया।"),
        (entries[2], None, "Chitra is checked in."),
    ):
        page = _desk(standing, lang).post(f"{url}{entry.pk}/check-in/", follow=True)
        assert page.status_code == 200 and said in _page(page)
    cup.entries.update(status="registered")
    bulk = _desk(standing, "de").post(
        f"{url}bulk/", {"action": "check_in", "entry": [e.pk for e in entries]}, follow=True
    )
    assert "3 eingecheckt." in _page(bulk)
    with translation.override("he"):
        said = ngettext("%(count)s checked in.", "%(count)s checked in.", 2) % {"count": 2}
    assert said == "2 הגיעו."


def _chips(standing) -> Tournament:
    levels = {
        "starting_chips": 1000,
        "levels": [
            {"point_value": 5, "minimum": 800, "qualify": 1200},
            {"point_value": 10, "minimum": 1000, "qualify": 1400},
        ],
        "rebuys": 0,
    }
    cup = new_tournament(
        standing, name="Chip levels", kind=Tournament.Kind.CHIPS, chip_levels=levels
    )
    enter(standing, cup, roster(standing, 6))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
    return cup


def test_a_chip_level_final_table_and_its_release_in_the_desks_language(standing):
    cup = _chips(standing)
    desk = f"/clubs/home/tournaments/{cup.pk}/"
    released = _desk(standing, "hi").post(f"{desk}rounds/1/release/", follow=True)
    assert "राउंड 1 जारी हो गया: इसकी टेबलों पर डील खेली जा सकती हैं।" in _page(released)
    assert cup.round_set.get(number=1).stage == Round.Stage.FINAL
    play_round(standing, cup, random.Random(3))  # the final table played: each has a place
    for lang, words in (
        ("de", "Finaltisch, Platz 1"), ("hi", "फ़ाइनल टेबल, स्थान 1"), (None, "Final table, place 1")
    ):  # fmt: skip
        with translation.override(lang or "en"):
            assert gettext("Final table, place %(place)s") % {"place": 1} == words
        assert f"<td>{words}</td>" in _page(_desk(standing, lang).get(desk))


def test_a_held_pot_is_named_in_the_readers_language():
    pot = HeldPot(book_id=1, game_id=1, table="Table 2", game_format="pool", amount_minor=500)
    assert pot.label == "Pot of Table 2 (pool rummy, held)"
    with translation.override("de"):
        assert pot.label == "Pott von Table 2 (Pool-Rommé, verwahrt)"
    with translation.override("hi"):
        assert pot.label == f"Table 2 का पॉट ({gettext('Pool rummy')}, रखा हुआ)"
