"""Abuse: tokens that mint tokens, formulas in the CSV export, batches that dodge the throttle."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from clubs.models import ApiToken, Player
from clubs.signin.services import api_token_create
from tests.scoring.conftest import make_night
from tests.scoring.helpers import enter_deal
from tests.scoring.test_queries import deal_result


def test_a_token_cannot_create_or_revoke_tokens(standing):
    token, key = api_token_create(user=standing.scorer, name="score app")
    sibling, _ = api_token_create(user=standing.scorer, name="other app")
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    created = app.post("/api/v1/tokens/", {"name": "more"}, format="json")
    assert created.status_code == 403
    assert created.json()["error"]["code"] == "token_not_allowed"
    for target in (sibling, token):
        revoked = app.delete(f"/api/v1/tokens/{target.pk}/")
        assert revoked.status_code == 403
    assert ApiToken.objects.filter(user=standing.scorer, revoked_at__isnull=True).count() == 2
    # The person, signed in, still can.
    person = standing.client("scorer")
    assert person.post("/api/v1/tokens/", {"name": "more"}, format="json").status_code == 201
    assert person.delete(f"/api/v1/tokens/{sibling.pk}/").status_code == 200


@pytest.mark.parametrize("name", ["=HYPERLINK(1)", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx"])
def test_csv_cells_that_a_spreadsheet_would_run_get_an_apostrophe(standing, client, name):
    night = make_night(standing)
    Player.objects.filter(pk=night.pid("Asha")).update(name=name)
    enter_deal(night.game, standing.scorer, deal_result(night))
    client.force_login(standing.organiser)
    response = client.get(f"/clubs/home/sessions/{night.session.pk}/export.csv")
    assert response.status_code == 200
    cells = [cell for row in csv.reader(io.StringIO(response.content.decode())) for cell in row]
    assert name not in cells
    assert f"'{name}" in cells
    # Amounts keep their sign: only text cells are changed.
    assert any(cell.startswith("-") and cell[1:2].isdigit() for cell in cells)


def test_anonymous_evaluation_is_throttled_by_hands_not_calls(client, db, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon_evaluate": "10/min"},
    }
    from rules.web import api as rules_api

    rules_api.AnonEvaluateThrottle.THROTTLE_RATES = {"anon_evaluate": "10/min"}
    cache.clear()
    try:
        hand = {"game": "indian", "wild": "QH", "groups": [["2H", "3H", "4H"]]}
        batch = client.post("/api/v1/rules/evaluate/", [hand] * 8, content_type="application/json")
        assert batch.status_code == 200
        over = client.post("/api/v1/rules/evaluate/", [hand] * 3, content_type="application/json")
        assert over.status_code == 429 and int(over["Retry-After"]) >= 1
        assert over.json()["error"]["code"] == "throttled"
        two_more = client.post(
            "/api/v1/rules/evaluate/", [hand] * 2, content_type="application/json"
        )
        assert two_more.status_code == 200  # 8 + 2 = 10 hands: the whole allowance
    finally:
        from rest_framework.settings import api_settings

        rules_api.AnonEvaluateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
        cache.clear()


def _login(client, username: str, password: str, address: str):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_login_is_throttled_per_account_and_per_address(client, db, settings):
    from tests.factories import UserFactory

    UserFactory(username="target", password="right-password-1")
    limit = settings.AXES_FAILURE_LIMIT
    for attempt in range(limit - 1):
        assert _login(client, "target", f"wrong{attempt}", f"10.0.0.{attempt}").status_code == 200
    assert _login(client, "target", "wrong", "10.0.0.99").status_code == 429  # the limit-th
    # Per account: the next try is refused from any address, even with the right password.
    refused = _login(client, "target", "right-password-1", "10.0.1.1")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == int(settings.AXES_COOLOFF_TIME.total_seconds())
    # Per address: one address guessing at many accounts is refused too.
    for attempt in range(limit - 1):
        assert _login(client, f"someone{attempt}", "wrong", "10.9.9.9").status_code == 200
    assert _login(client, "another", "wrong", "10.9.9.9").status_code == 429
    # Elsewhere, a person with the right password gets in.
    UserFactory(username="fine", password="right-password-2")
    assert _login(client, "fine", "right-password-2", "10.0.2.2").status_code == 302
