"""The language of a page: the person's choice (their account's, on any device), then the
club's on its pages, then the browser's, then English; the switcher; the API's errors by
Accept-Language; money and dates in each language's way."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.test import Client, TestCase
from django.utils import timezone, translation

from clubs.models import LanguageChoice
from clubs.page_kit.display import club_money
from clubs.services import club_update
from config.locale_format import (
    format_clock,
    format_day,
    format_money,
    format_ordinal,
    format_when,
)
from scoring.formats.reason_words import reason_words
from tests.conftest import Standing
from tests.pages.conftest import WRONG_GROUPS, Pages

pytestmark = pytest.mark.django_db


def _html_tag(body: bytes) -> tuple[str, str]:
    tag = re.search(r"<html lang=\"([a-z-]+)\" dir=\"(ltr|rtl)\">", body.decode())
    assert tag, "no <html lang dir> on the page"
    return tag.group(1), tag.group(2)


def _signed_in(standing: Standing, who: str = "player", **headers: str) -> Client:
    client = Client(headers=headers)
    client.force_login(getattr(standing, who))
    return client


def test_nothing_chosen_is_english(standing: Standing) -> None:
    response = Client().get("/login/")
    assert _html_tag(response.content) == ("en", "ltr")
    assert response["Content-Language"] == "en"
    assert "Log in" in response.content.decode()


def test_the_browsers_language_when_nobody_chose(standing: Standing) -> None:
    response = Client(headers={"accept-language": "fr-FR, de;q=0.8, en;q=0.5"}).get("/login/")
    assert _html_tag(response.content) == ("de", "ltr")
    assert "Accept-Language" in response["Vary"]
    assert "Anmelden" in response.content.decode()
    hebrew = Client(headers={"accept-language": "he-IL"}).get("/login/")
    assert _html_tag(hebrew.content) == ("he", "rtl")


def test_the_clubs_language_comes_before_the_browsers(standing: Standing) -> None:
    club_update(club=standing.club, actor=standing.owner, language="nl")
    client = _signed_in(standing, **{"accept-language": "de"})
    assert _html_tag(client.get("/clubs/home/").content) == ("nl", "ltr")
    # Off the club's pages, the browser's again.
    assert _html_tag(client.get("/account/").content) == ("de", "ltr")


def test_the_clubs_public_pages_speak_its_language(standing: Standing) -> None:
    club_update(club=standing.club, actor=standing.owner, language="he", public_standings=True)
    body = Client(headers={"accept-language": "en"}).get("/p/home/standings/").content
    assert _html_tag(body) == ("he", "rtl")


def test_the_persons_choice_comes_before_the_clubs(standing: Standing) -> None:
    club_update(club=standing.club, actor=standing.owner, language="nl")
    client = _signed_in(standing, **{"accept-language": "de"})
    response = client.post("/language/", {"language": "hi", "next": "/clubs/home/"})
    assert response.status_code == 302 and response["Location"] == "/clubs/home/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "hi"
    assert LanguageChoice.objects.get(user=standing.player).language == "hi"
    assert _html_tag(client.get("/clubs/home/").content) == ("hi", "ltr")
    assert _html_tag(client.get("/account/").content) == ("hi", "ltr")


def test_an_accounts_choice_follows_it_to_a_new_device(standing: Standing) -> None:
    _signed_in(standing).post("/language/", {"language": "he"})
    device = Client(headers={"accept-language": "de"})
    assert _html_tag(device.get("/login/").content) == ("de", "ltr")
    login = device.post("/login/", {"username": "player", "password": "pw-for-tests"})
    assert login.status_code == 302
    assert _html_tag(device.get("/account/").content) == ("he", "rtl")


def test_the_switcher_is_on_every_page_and_refuses_an_unknown_language(
    standing: Standing,
) -> None:
    body = Client().get("/login/").content.decode()
    assert 'action="/language/"' in body
    for code, _name in settings.LANGUAGES:
        assert f'<option value="{code}" lang="{code}"' in body
    client = _signed_in(standing)
    refused = client.post("/language/", {"language": "xx"})
    assert refused.status_code == 400 and b"language:" in refused.content
    assert not LanguageChoice.objects.exists()
    assert settings.LANGUAGE_COOKIE_NAME not in refused.cookies
    # Anonymous: kept on the device only.
    anonymous = Client()
    anonymous.post("/language/", {"language": "nl"})
    assert _html_tag(anonymous.get("/login/").content) == ("nl", "ltr")


def test_the_scripts_words_in_each_language(standing: Standing) -> None:
    german = Client().get("/jsi18n/de/")
    assert german.status_code == 200
    assert "Runden, die auf diesem Ger\\u00e4t warten" in german.content.decode()
    assert Client().get("/jsi18n/xx/").status_code == 404


def test_the_apis_errors_follow_accept_language_with_their_codes(standing: Standing) -> None:
    english = Client().get("/api/v1/clubs/")
    german = Client(headers={"accept-language": "de"}).get("/api/v1/clubs/")
    assert english.status_code == german.status_code == 401
    assert english.json()["error"]["code"] == german.json()["error"]["code"]
    assert english.json()["error"]["message"] != german.json()["error"]["message"]
    with translation.override("de"):
        from rest_framework.exceptions import NotAuthenticated

        assert german.json()["error"]["message"] == str(NotAuthenticated.default_detail)
    # The API ignores a page language chosen on the device: each app says what it wants.
    chosen = Client(headers={"accept-language": "nl"})
    chosen.cookies[settings.LANGUAGE_COOKIE_NAME] = "he"
    assert chosen.get("/api/v1/clubs/")["Content-Language"] == "nl"


def test_the_clubs_language_is_a_setting_of_its_form_and_api(standing: Standing) -> None:
    client = _signed_in(standing, "owner")
    form = client.get("/clubs/home/settings/").content.decode()
    assert 'name="language"' in form
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(standing.owner)
    assert api.patch("/api/v1/clubs/home/", {"language": "he"}, format="json").status_code == 200
    standing.club.refresh_from_db()
    assert standing.club.language == "he"
    refused = api.patch("/api/v1/clubs/home/", {"language": "fr"}, format="json")
    assert refused.status_code == 400 and "language" in refused.json()["error"]["message"]
    standing.club.refresh_from_db()
    assert standing.club.language == "he"


@pytest.mark.parametrize(
    ("language", "currency", "minor", "expected"),
    [
        ("en", "INR", 10_000_000, "₹1,00,000.00"),  # Indian English: lakhs
        ("hi", "INR", 10_000_000, "₹1,00,000.00"),
        ("en", "USD", 10_000_000, "$100,000.00"),
        ("de", "INR", 10_000_000, "100.000,00\xa0₹"),
        ("de", "EUR", -123_456, "−1.234,56\xa0€"),
        ("nl", "EUR", 123_456, "€\xa01.234,56"),
        ("he", "ILS", -82_400, "−824.00\xa0₪"),
        ("en", "JPY", 500, "¥500"),
    ],
)
def test_money_in_each_languages_way(
    language: str, currency: str, minor: int, expected: str
) -> None:
    places = 0 if currency == "JPY" else 2
    with translation.override(language):
        assert format_money(minor, currency, places) == expected


def test_a_clubs_money_and_a_gain_signed(standing: Standing) -> None:
    with translation.override("de"):
        assert club_money(standing.club, 82400, signed=True) == "+824,00\xa0₹"


@pytest.mark.parametrize(
    ("language", "when", "day", "clock"),
    [
        ("en", "Mar 5, 2026, 7:30 PM", "Mar 5, 2026", "7:30 PM"),
        ("hi", "5 मार्च 2026, 7:30 pm", "5 मार्च 2026", "7:30 pm"),
        ("he", "5 במרץ 2026, 19:30", "5 במרץ 2026", "19:30"),
        ("de", "05.03.2026, 19:30", "05.03.2026", "19:30"),
        ("nl", "5 mrt 2026, 19:30", "5 mrt 2026", "19:30"),
    ],
)
def test_dates_and_times_in_the_clubs_zone_and_each_languages_way(
    language: str, when: str, day: str, clock: str
) -> None:
    moment = datetime(2026, 3, 5, 14, 0, tzinfo=UTC)  # 19:30 in Kolkata
    with translation.override(language), timezone.override("Asia/Kolkata"):
        assert format_when(moment).replace("\u202f", " ") == when
        assert format_day(moment) == day
        assert format_clock(moment).replace("\u202f", " ") == clock


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "group 2 (5C 6C 7C 9C) is not a valid sequence or set"),
        ("hi", "ग्रुप 2 (5C 6C 7C 9C) न तो वैध सीक्वेंस है न सेट"),
        ("he", "קבוצה 2 (5C 6C 7C 9C) אינה רצף או קבוצה תקפים"),
        ("de", "Gruppe 2 (5C 6C 7C 9C) ist weder eine gültige Folge noch ein gültiger Satz"),
        ("nl", "Groep 2 (5C 6C 7C 9C) is geen geldige reeks of set"),
    ],
)
def test_a_rejected_hand_is_explained_in_the_clubs_language(
    pages: Pages, language: str, words: str
) -> None:
    """The rules engine gives the reason's code and values; the page puts them into words."""
    club_update(club=pages.s.club, actor=pages.s.owner, language=language)
    client = pages.client("organiser")
    # The check runs on commit, as the worker would run it.
    with TestCase.captureOnCommitCallbacks(execute=True):
        entered = client.post(
            f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/",
            pages.form(winner_groups=WRONG_GROUPS),
        )
    assert entered.status_code == 302
    body = client.get(entered["Location"]).content.decode()
    assert _html_tag(body.encode())[0] == language
    assert words in body


def test_a_reason_the_pages_have_no_words_for_keeps_the_engines() -> None:
    reason = {"code": "some_new_rule", "message": "the engine's sentence", "details": {}}
    with translation.override("de"):
        assert reason_words(reason) == "the engine's sentence"
        named = {"code": "no_pure_sequence", "message": "Asha: there is no pure sequence",
                 "player_name": "Asha"}  # fmt: skip
        assert reason_words(named) == "Asha: Es gibt keine reine Folge"
    with translation.override("he"):
        few = {"code": "too_few_groups", "message": "", "details": {"min_groups": 3}}
        assert reason_words(few) == "הכרזה צריכה לפחות 3 קבוצות תקפות"


def test_every_reason_of_a_refused_deal_has_words_in_the_pages_language() -> None:
    """The engine's codes and values, not its English, make the sentence: a range, a count that
    disagrees, a player named inside the sentence."""
    reasons = [
        ({"code": "points_out_of_range", "message": "Asha: a loser scores 0 to 80, not 95",
          "player_name": "Asha", "token": "95",
          "details": {"outcome": "loser", "low": 0, "high": 80}},
         "Asha: Verlierer (Karten zählen) zählt 0 bis 80, nicht 95"),
        ({"code": "points_mismatch", "message": "Asha: 12 points entered, the cards count 10",
          "player_name": "Asha", "token": "12", "details": {"counted": 10}},
         "Asha: 12 Punkte eingetragen, die Karten zählen 10"),
        ({"code": "duplicate_player", "message": "Asha is entered twice", "player_name": "Asha"},
         "Asha ist zweimal eingetragen"),
        ({"code": "outcome_not_allowed", "message": "Asha: deal show is not allowed in this game",
          "player_name": "Asha", "token": "deal_show"},
         "Asha: Auslegen beim Geben (noch kein Zug) ist in diesem Spiel nicht erlaubt"),
    ]  # fmt: skip
    with translation.override("de"):
        for reason, words in reasons:
            assert reason_words(reason) == words
    with translation.override("en"):
        assert reason_words(reasons[0][0]) == reasons[0][0]["message"]


@pytest.mark.parametrize(
    ("language", "places"),
    [
        ("en", ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]),
        ("hi", ["पहला", "दूसरा", "तीसरा", "चौथा", "11वाँ", "12वाँ", "13वाँ", "21वाँ", "22वाँ", "101वाँ"]),
        ("he", ["1", "2", "3", "4", "11", "12", "13", "21", "22", "101"]),
        ("de", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "22.", "101."]),
        ("nl", ["1e", "2e", "3e", "4e", "11e", "12e", "13e", "21e", "22e", "101e"]),
    ],
)
def test_places_are_written_in_each_languages_way(language: str, places: list[str]) -> None:
    with translation.override(language):
        assert [format_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == places


def test_a_built_in_presets_name_in_the_pages_language_and_the_apis_english(pages: Pages) -> None:
    """A built-in preset's stored name is English (the API's, which apps read); a page says it
    in its language. A club's own preset keeps the name the club typed."""
    game = pages.night.game
    assert game.preset.club_id is None and game.preset.name == "Points rummy (20/40/80)"
    club_update(club=pages.s.club, actor=pages.s.owner, language="de")
    page = pages.client("organiser").get(f"/clubs/{pages.slug}/games/{game.pk}/").content
    assert "Punkte-Rommé (20/40/80)" in page.decode()
    assert "Points rummy (20/40/80)" not in page.decode()
    home = pages.client("organiser").get(f"/clubs/{pages.slug}/").content.decode()
    assert "Bester aus 3 Runden" in home and "Best of 3 deals" not in home
    api = pages.client("organiser").get(
        f"/api/v1/clubs/{pages.slug}/games/{game.pk}/", headers={"accept-language": "de"}
    )
    assert api.status_code == 200 and "Points rummy (20/40/80)" in api.content.decode()
    with translation.override("he"):
        game.preset.club_id = pages.s.club.pk
        assert game.preset.shown_name == "Points rummy (20/40/80)"
