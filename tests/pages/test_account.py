"""The account pages on the server: only for the logged-in person, a token's key shown once,
nobody revokes another's token, the favicon and the error pages."""

from __future__ import annotations

from django.test import Client

from clubs.models import ApiToken
from clubs.signin import services


def test_the_account_pages_ask_for_a_login(db):
    for path in ("/account/", "/account/password/"):
        response = Client().get(path)
        assert response.status_code == 302 and response["Location"].startswith("/login/?next=")
    assert Client().post("/account/tokens/", {"name": "x"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_a_new_key_is_shown_once_and_nobody_revokes_another_s_token(standing):
    scorer = Client()
    scorer.force_login(standing.scorer)
    made = scorer.post("/account/tokens/", {"name": "Tablet"})
    assert made.status_code == 302
    first = scorer.get("/account/").content.decode()
    token = ApiToken.objects.get(user=standing.scorer)
    assert f'id="token-key">{token.prefix}' in first
    assert 'id="token-key"' not in scorer.get("/account/").content.decode()
    refused = scorer.post("/account/tokens/", {"name": "  "})
    assert refused.status_code == 400 and "give the token a name" in refused.content.decode()
    other, _key = services.api_token_create(user=standing.organiser, name="Theirs")
    scorer.post(f"/account/tokens/{other.pk}/revoke/")
    other.refresh_from_db()
    assert other.revoked_at is None


def test_the_favicon_and_the_not_found_page(db):
    icon = Client().get("/favicon.ico")
    assert icon.status_code == 301 and icon["Location"].endswith("favicon.svg")
    assert Client().get("/api/v1/nowhere/").json()["error"]["code"] == "not_found"


def test_a_personal_token_gets_the_scopes_and_clubs_ticked(standing):
    scorer = Client()
    scorer.force_login(standing.scorer)
    made = scorer.post(
        "/account/tokens/", {"name": "Board", "choose": "1", "scopes": ["read"], "clubs": ["home"]}
    )
    assert made.status_code == 302
    token = ApiToken.objects.get(user=standing.scorer)
    assert token.scope == f"read club:{standing.club.pk}"
    assert "may <code>read</code> in Home Club" in scorer.get("/account/").content.decode()
    refused = scorer.post("/account/tokens/", {"name": "None", "choose": "1", "clubs": ["home"]})
    assert refused.status_code == 400 and "scopes: give at least one" in refused.content.decode()
    elsewhere = scorer.post(
        "/account/tokens/", {"name": "Away", "choose": "1", "scopes": ["read"], "clubs": ["away"]}
    )
    assert (
        elsewhere.status_code == 400 and "not a member of &#x27;away" in elsewhere.content.decode()
    )
    assert ApiToken.objects.filter(user=standing.scorer).count() == 1


def test_the_token_list_speaks_the_pages_language(standing):
    from tests.pages.test_english_left import english_left

    services.api_token_create(user=standing.scorer, name="Tablet")
    revoked, _key = services.api_token_create(user=standing.scorer, name="Old phone")
    services.api_token_revoke(token=revoked, actor=standing.scorer)
    for language in ("hi", "he", "de", "nl"):
        scorer = Client(headers={"accept-language": language})
        scorer.force_login(standing.scorer)
        page = scorer.get("/account/").content.decode()
        assert f'<html lang="{language}"' in page
        names = ["Tablet", "Old phone", standing.scorer.get_username(), standing.club.name]
        assert english_left(page, language, names) == [], language
