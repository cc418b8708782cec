"""The series', webhooks' and standings' refusals in the asker's language: the API's by
``Accept-Language`` (the code unchanged, the field name first kept as it is), a page's in the
page's language; the English as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from series import services as series_services
from tests.conftest import Standing
from webhooks.models import Endpoint

pytestmark = pytest.mark.django_db

SERIES = "/api/v1/clubs/home/series/"
WEBHOOKS = "/api/v1/clubs/home/webhooks/"
PREVIEW = "/api/v1/clubs/home/results/import/preview/"
UNKNOWN_ROW = (
    "date,deal,player,outcome,points\n2026-01-02,1,Asha,winner,\n2026-01-02,1,Zed,loser,5\n"
)


def _said(language: str, english: str, **values: Any) -> str:
    with translation.override(language):
        words = translation.gettext(english)
    return words % values if values else words


def _api(standing: Standing, language: str) -> APIClient:
    client = APIClient(headers={"accept-language": language})
    client.force_authenticate(standing.organiser)
    return client


def _page(standing: Standing, language: str) -> Client:
    client = Client()
    client.force_login(standing.organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _error(answer: Any) -> tuple[int, str, str]:
    error = answer.json()["error"]
    return answer.status_code, error["code"], error["message"]


@pytest.mark.parametrize("language", ["hi", "de"])
def test_a_series_refused_in_the_asked_language(standing: Standing, language: str) -> None:
    series_services.series_create(
        club=standing.club, actor=standing.organiser, name="Grand Prix", points_table=[10, 5]
    )
    client = _api(standing, language)
    taken = client.post(SERIES, {"name": "Grand Prix", "points_table": [10, 5]}, format="json")
    words = _said(language, "%(club)s has a series %(name)s", club="Home Club", name="'Grand Prix'")
    assert _error(taken) == (409, "name_taken", f"name: {words}")
    assert words != "Home Club has a series 'Grand Prix'"
    # The engine's refusal of a points table: its code, said by its sentence.
    rising = client.post(SERIES, {"name": "Autumn", "points_table": [5, 10]}, format="json")
    words = _said(language, "a place scores no more than the place before it")
    assert _error(rising) == (400, "bad_points_table", f"points_table: {words}")
    missing = client.get(f"{SERIES}999999/")
    words = _said(language, "no series #%(id)s in %(club)s", id=999999, club="Home Club")
    assert _error(missing) == (404, "not_found", words)


def test_english_stays_as_it_was(standing: Standing) -> None:
    client = _api(standing, "en")
    rising = client.post(SERIES, {"name": "Autumn", "points_table": [5, 10]}, format="json")
    assert _error(rising) == (
        400, "bad_points_table", "points_table: a place scores no more than the place before it"
    )  # fmt: skip
    bad_tier = client.post(
        SERIES, {"name": "Autumn", "points_table": [5], "tiers": {"x": "0"}}, format="json"
    )
    assert _error(bad_tier)[2] == (
        "tiers: a multiplier is above 0, up to 100, in hundredths, not '0'"
    )
    scope = client.get("/api/v1/clubs/home/standings/?scope=week&id=1")
    assert _error(scope) == (400, "bad_scope", "scope: use season, session or game, not 'week'")


@pytest.mark.parametrize("language", ["hi", "de"])
def test_a_webhook_refused_in_the_asked_language(
    standing: Standing, language: str, settings: Any
) -> None:
    client = _api(standing, language)
    settings.WEBHOOK_ALLOW_PRIVATE = False
    plain = client.post(
        WEBHOOKS, {"url": "http://example.com/hook", "events": ["deal.scored"]}, format="json"
    )
    assert _error(plain) == (400, "url_not_allowed", "url: " + _said(language, "must be https"))
    settings.WEBHOOK_ALLOW_PRIVATE = True
    url = "http://127.0.0.1:9/hook"
    Endpoint.objects.create(club=standing.club, url=url, events=["deal.scored"], secret="s")
    again = client.post(WEBHOOKS, {"url": url, "events": ["deal.scored"]}, format="json")
    words = _said(
        language,
        "this club already has a webhook for %(url)s; change that one's events instead",
        url=url,
    )
    assert _error(again) == (400, "duplicate_url", f"url: {words}")
    assert again.json()["error"]["details"] == {"url": [f"url: {words}"]}
    missing = client.get(f"{WEBHOOKS}999999/")
    words = _said(language, "no webhook #%(id)s in %(club)s", id=999999, club="Home Club")
    assert _error(missing) == (404, "not_found", words)


@pytest.mark.parametrize("language", ["hi", "de"])
def test_the_standings_refused_in_the_asked_language(standing: Standing, language: str) -> None:
    client = _api(standing, language)
    scope = client.get("/api/v1/clubs/home/standings/?scope=week&id=1")
    words = _said(language, "use season, session or game, not %(scope)s", scope="'week'")
    assert _error(scope) == (400, "bad_scope", f"scope: {words}")
    no_season = client.get("/api/v1/clubs/home/standings/")
    words = _said(language, "%(club)s has no season yet", club="Home Club")
    assert _error(no_season) == (404, "not_found", words)
    body = {"layout": "points_deals", "text": UNKNOWN_ROW}
    preview = client.post(PREVIEW, body, format="json")
    roster = _said(language, "%(name)s is not on the roster", name="'Zed'")
    assert {"row": 3, "column": "player", "message": roster} in preview.json()["errors"]
    confirmed = client.post("/api/v1/clubs/home/results/import/", body, format="json")
    first = preview.json()["errors"][0]  # the first of the preview's errors, as it said it
    row = _said(language, "row %(row)s: %(column)s: %(message)s", **first)
    assert not row.startswith("row ")
    assert _error(confirmed) == (400, "import_rows_invalid", row)


def test_a_series_page_says_a_refusal_in_hebrew(standing: Standing) -> None:
    client = _page(standing, "he")
    form = {"name": "Autumn", "points_by": "place", "points_table": "5, 10", "tiers": "regular=1",
            "min_events": 1}  # fmt: skip
    rising = client.post("/clubs/home/series/", form)
    assert rising.status_code == 400  # the engine's refusal, no longer a server error
    assert _said("he", "a place scores no more than the place before it") in rising.content.decode()
    # A tier without its multiplier: the form's own words (it was a server error).
    tier = client.post("/clubs/home/series/", {**form, "points_table": "10, 5", "tiers": "major"})
    words = _said("he", "write each tier as name=multiplier, e.g. major=2")
    assert tier.status_code == 400 and words in tier.content.decode()


def test_the_webhook_and_import_pages_say_a_refusal_in_hebrew(
    standing: Standing, settings: Any
) -> None:
    client = _page(standing, "he")
    settings.WEBHOOK_ALLOW_PRIVATE = False
    refused = client.post(
        "/clubs/home/settings/webhooks/",
        {"url": "https://10.0.0.1/hook", "events": ["deal.scored"]},
    )
    words = _said(
        "he", "%(host)s is a private address (%(address)s)", host="10.0.0.1", address="10.0.0.1"
    )
    assert refused.status_code == 400 and words in refused.content.decode()
    sheet = SimpleUploadedFile("s.csv", UNKNOWN_ROW.encode(), content_type="text/csv")
    preview = client.post("/clubs/home/results/import/", {"layout": "points_deals", "file": sheet})
    assert preview.status_code == 200
    assert _said("he", "%(name)s is not on the roster", name="&#x27;Zed&#x27;") in (
        preview.content.decode()
    )
