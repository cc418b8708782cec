"""Fixtures of the webhook tests: the organiser's API client and a receiver that answers 200."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.webhooks.receiver import Receiver


@pytest.fixture
def api(standing) -> APIClient:
    client = APIClient()
    client.force_authenticate(standing.organiser)
    return client


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()
