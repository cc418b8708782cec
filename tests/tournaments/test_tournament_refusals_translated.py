"""A tournament's refusals in the reader's language: the API's by Accept-Language (their codes
unchanged), the desk's, the sign-up's and the check-in's in the page's language; the rules
engine's refusals put into words from their codes, its English kept for an English reader."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from rules.errors import RuleViolation
from tests.tournaments.helpers import new_tournament
from tournaments.models import Tournament
from tournaments.rule_words import violation_words
from tournaments.services.entries import entry_add
from tournaments.services.setup import tournament_cancel
from tournaments.services.signup import signup_settings_set

pytestmark = pytest.mark.django_db

API = "/api/v1/clubs/home/tournaments"


def _said(lang: str, words: str, **values: object) -> str:
    with translation.override(lang):
        return gettext(words) % values if values else gettext(words)


def _cup(standing) -> Tournament:
    standing.club.public_standings = True
    standing.club.save()
    return new_tournament(standing)


def test_a_refused_entry_is_said_in_the_apis_language_with_its_code(standing):
    cup = _cup(standing)
    asha = standing.club.players.get(name="Asha")
    entry_add(tournament=cup, actor=standing.organiser, player=asha)
    api = standing.client("organiser")
    for lang in ("hi", "de"):
        twice = api.post(
            f"{API}/{cup.pk}/entries/", {"player": asha.pk}, format="json",
            HTTP_ACCEPT_LANGUAGE=lang,
        )  # fmt: skip
        error = twice.json()["error"]
        assert twice.status_code == 409 and error["code"] == "already_entered"
        said = _said(lang, "%(name)r is already entered", name="Asha")
        assert error["message"] == "player: " + said and said != "'Asha' is already entered"
    english = api.post(f"{API}/{cup.pk}/entries/", {"player": asha.pk}, format="json")
    assert english.json()["error"]["message"] == "player: 'Asha' is already entered"
    missing = api.get(f"{API}/{cup.pk + 999}/", HTTP_ACCEPT_LANGUAGE="nl").json()["error"]
    assert missing["code"] == "not_found"
    assert missing["message"] == f"geen toernooi #{cup.pk + 999} in Home Club"


def test_entries_closed_after_a_cancel_is_said_in_german_with_the_status(standing):
    cup = _cup(standing)
    tournament_cancel(tournament=cup, actor=standing.organiser)
    bilal = standing.club.players.get(name="Bilal")
    closed = standing.client("organiser").post(
        f"{API}/{cup.pk}/entries/", {"player": bilal.pk}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    error = closed.json()["error"]
    assert closed.status_code == 409 and error["code"] == "conflict"
    assert error["message"] == "Anmeldung geschlossen: das Turnier hat den Status „Abgesagt“"


def test_the_desk_says_a_refused_entry_in_hindi(standing):
    cup = _cup(standing)
    asha = standing.club.players.get(name="Asha")
    entry_add(tournament=cup, actor=standing.organiser, player=asha)
    desk = Client(headers={"accept-language": "hi"})
    desk.force_login(standing.organiser)
    page = desk.post(f"/clubs/home/tournaments/{cup.pk}/entries/", {"player": asha.pk})
    said = html.unescape(page.content.decode())
    assert page.status_code == 409 and 'lang="hi"' in said
    assert _said("hi", "%(name)r is already entered", name="Asha") in said
    assert "is already entered" not in said


def test_a_sign_up_refusal_is_said_in_hebrew(standing):
    cup = _cup(standing)
    signup_settings_set(tournament=cup, actor=standing.organiser, open=False, closes_at=None)
    phone = Client(headers={"accept-language": "he"})
    refused = phone.post(
        f"/p/home/tournaments/{cup.pk}/signup/", {"name": "Zed", "signup_key": "z" * 30}
    )
    said = html.unescape(refused.content.decode())
    assert refused.status_code == 409 and 'dir="rtl"' in said
    assert "ההרשמה סגורה: פנו לדלפק" in said and "sign-up is closed" not in said


def test_a_wrong_check_in_code_is_said_in_german_and_marks_the_field(standing):
    cup = _cup(standing)
    entry = entry_add(
        tournament=cup, actor=standing.organiser, player=standing.club.players.get(name="Asha")
    )
    phone = Client(headers={"accept-language": "de"})
    page = phone.post(f"/p/home/tournaments/{cup.pk}/check-in/", {"entry": entry.pk, "code": "x"})
    said = html.unescape(page.content.decode())
    assert page.status_code == 400
    assert "Check-in-Code: das ist nicht der Code auf dem Bildschirm" in said
    code_input = said[said.index('id="check-in-code"') :].split(">", 1)[0]
    assert 'aria-invalid="true"' in code_input
    nameless = phone.post(f"/p/home/tournaments/{cup.pk}/check-in/", {"entry": "", "code": "1"})
    said = html.unescape(nameless.content.decode())
    assert "dein Name: wähl deinen Namen aus der Liste" in said
    assert 'aria-invalid="true"' in said[said.index('id="check-in-name"') :].split(">", 1)[0]


def test_the_engines_refusals_are_put_into_words_from_their_codes():
    few = RuleViolation("too_few_players", "3 player(s) cannot fill a table of at least 4")
    with translation.override("en"):
        assert violation_words(few, players=3, table_min=4, table_max=6) == few.message
    with translation.override("de"):
        words = violation_words(few, players=3, table_min=4, table_max=6)
        assert words == "3 Spieler können keinen Tisch mit mindestens 4 füllen"
        unknown = RuleViolation("something_new", "the engine's own words")
        assert violation_words(unknown) == "the engine's own words"
        assert violation_words(few) == few.message  # its values not given: the engine's words
    payout = RuleViolation("bad_payout", "payout must be ...", token="half")
    with translation.override("hi"):
        assert "half" in violation_words(payout) and "payout" not in violation_words(payout)


def test_a_form_refusal_names_its_field_in_the_pages_language(standing):
    cup = _cup(standing)
    desk = Client(headers={"accept-language": "de"})
    desk.force_login(standing.organiser)
    swap = desk.post(f"/clubs/home/tournaments/{cup.pk}/rounds/1/swap/", {"first": 1})
    said = html.unescape(swap.content.decode())
    assert swap.status_code == 400 and "Zweiter Spieler:" in said and "Second player" not in said
