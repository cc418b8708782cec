"""Refusals of a preset's settings, of a deal and of a format's moves, in the language asked for
(the API's ``Accept-Language``, a page's): the codes, tokens and details stay as they are, the
sentence is translated, and the rules engine's codes are put into words above it. Okey's and
Rummikub's game pages leave no English on their finishing button."""

from __future__ import annotations

from django.test import Client, TestCase
from django.utils import translation
from django.utils.translation import gettext as _

from config.exception_handler import api_exception_handler
from rules.errors import RuleViolation
from tests.api.test_errors import assert_error
from tests.scoring.conftest import Night
from tests.scoring.helpers import new_game
from tests.scoring.test_submissions import five_losers, new_deal, read, submit

PRESETS = "/api/v1/clubs/home/presets/"


def _said(language: str, words: str, values: dict | None = None) -> str:
    with translation.override(language):
        said = _(words)
    return said % values if values else said


def _preset(standing, language: str, params: dict, fmt: str = "points", variant: str = ""):
    body = {"key": "bad", "name": "Bad", "format": fmt, "params": params}
    if variant:
        body["variant"] = variant
    return standing.client("organiser").post(
        PRESETS, body, format="json", HTTP_ACCEPT_LANGUAGE=language
    )


def test_a_refused_preset_setting_is_said_in_hindi_and_german_with_its_code(standing):
    error = assert_error(_preset(standing, "hi", {"table": {"seats": 4}}), 400, "bad_preset")
    unknown = _said("hi", "unknown setting %(setting)s", {"setting": "'seats'"})
    assert error["message"] == "params.table: " + unknown and "unknown" not in unknown
    assert error["details"] == {"section": "table", "token": "seats"}
    # The rules engine refuses the pool's limit by a code: put into words here.
    error = assert_error(
        _preset(standing, "de", {"pool": {"limit": 150}}, "pool"), 400, "bad_preset"
    )
    pool = _said("de", "unknown pool %(pool)s: use 61, 101 or 201", {"pool": "150"})
    assert error["message"] == "params.pool: " + pool and pool.startswith("unbekannter Pool 150")
    assert error["details"] == {"section": "pool", "token": "150"}
    # English stays the engine's own sentence.
    error = assert_error(_preset(standing, "en", {"pool": {"limit": 150}}, "pool"),
                         400, "bad_preset")  # fmt: skip
    assert error["message"].startswith("params.pool: unknown pool 150: use one of 61, 101, 201")


def test_a_refused_deal_gives_its_reasons_in_hebrew_through_the_api(night: Night):
    deal = new_deal(night, wild="QD")
    body = five_losers(night, Asha={"outcome": "winner"})
    url = submit(night, deal["id"], body).json()["url"]
    english = read(night, url)
    assert english["status"] == "rejected"
    client = night.standing.client("player")
    hebrew = client.get(url, HTTP_ACCEPT_LANGUAGE="he").json()
    assert [r["code"] for r in hebrew["reasons"]] == [r["code"] for r in english["reasons"]]
    assert hebrew["reasons"][0]["message"] == _said("he", "a deal has one winner only")
    assert hebrew["reasons"][0]["message"] != english["reasons"][0]["message"]
    assert {k: v for k, v in hebrew["reasons"][0].items() if k != "message"} == {
        k: v for k, v in english["reasons"][0].items() if k != "message"
    }


def test_a_bad_card_keeps_the_players_name_first_and_its_token(night: Night):
    deal = new_deal(night, wild="QD")
    body = five_losers(night, Asha={"outcome": "loser", "cards": ["ZZ"]})
    url = submit(night, deal["id"], body).json()["url"]
    reasons = night.standing.client("player").get(url, HTTP_ACCEPT_LANGUAGE="he").json()["reasons"]
    bad = next(r for r in reasons if r["code"] == "bad_card")
    assert bad["token"] == "ZZ"
    assert bad["message"] == "Asha: " + _said("he", "unknown card %(card)s", {"card": "ZZ"})


def test_a_refused_wild_joker_is_said_in_the_requests_language(night: Night):
    response = night.standing.client("organiser").post(
        f"/api/v1/clubs/home/games/{night.game.pk}/deals/", {"wild": "ZZ"}, format="json",
        HTTP_ACCEPT_LANGUAGE="nl",
    )  # fmt: skip
    error = assert_error(response, 400, "bad_wild")
    assert error["message"] == "wild: " + _said("nl", "unknown wild joker %(wild)s", {"wild": "ZZ"})


def test_a_bare_rules_refusal_is_answered_in_the_active_language():
    refusal = RuleViolation("several_winners", "a deal has only one winner")
    with translation.override("de"):
        answer = api_exception_handler(refusal, {"view": None})
    assert answer is not None and answer.status_code == 400
    assert answer.data["error"]["code"] == "several_winners"
    assert answer.data["error"]["message"] == _said("de", "a deal has one winner only")
    with translation.override("en"):
        answer = api_exception_handler(refusal, {"view": None})
    assert answer.data["error"]["message"] == "a deal has only one winner"


def test_a_formats_refusal_is_translated(standing):
    game, ids = new_game(standing, "okey", ["Asha", "Bilal", "Chitra"])
    response = standing.client("organiser").post(
        f"/api/v1/clubs/home/games/{game.pk}/rejoin/", {"player": ids["Asha"]}, format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )  # fmt: skip
    error = assert_error(response, 409, "not_pool")
    assert error["message"] == _said(
        "de", "only pool rummy has rejoins; this is a %(format)s game", {"format": "Okey"}
    )


def _page(standing, game, language: str) -> str:
    client = Client(headers={"accept-language": language})
    client.force_login(standing.organiser)
    response = client.get(f"/clubs/home/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_okey_and_rummikub_game_pages_in_german_have_no_english_finish(standing):
    okey, _ids = new_game(standing, "okey", ["Asha", "Bilal", "Chitra"])
    page = _page(standing, okey, "de")
    assert "Finish the game" not in page and "Each deal's score" not in page
    assert _said("de", "Finish the game") in page
    assert "Finish the game" in _page(standing, okey, "en")
    rummikub, _ids = new_game(standing, "sabra", ["Asha", "Bilal", "Chitra"])
    page = _page(standing, rummikub, "de")
    assert "Finish the match" not in page and _said("de", "Finish the match") in page


def test_an_okey_deals_bad_indicator_keeps_its_field_first_in_hebrew(standing):
    game, _ids = new_game(standing, "okey", ["Asha", "Bilal", "Chitra"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        answer = standing.client("scorer").post(
            f"/api/v1/clubs/home/games/{game.pk}/deals/",
            {"okey": {"indicator": "Q9", "finisher": None}}, format="json",
        )  # fmt: skip
    url = answer.json()["url"]
    english = standing.client("player").get(url).json()["reasons"]
    hebrew = standing.client("player").get(url, HTTP_ACCEPT_LANGUAGE="he").json()["reasons"]
    assert [r["code"] for r in hebrew] == [r["code"] for r in english] == ["bad_tile"]
    assert english[0]["message"].startswith("indicator: 'Q9' is not an Okey tile")
    assert hebrew[0]["message"] == "indicator: " + _said(
        "he", "unknown tile %(tile)s", {"tile": "Q9"}
    )
