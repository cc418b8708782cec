"""A session's changed standings are announced once a transaction, however many entries it
posts (a batch of deals), and again in the next one."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import TestCase

from scoring.standing_rows import _announce_session

pytestmark = pytest.mark.django_db


def test_a_session_is_announced_once_a_transaction():
    with TestCase.captureOnCommitCallbacks(execute=True) as first, transaction.atomic():
        for session_id in (5, 5, 6, 5):
            _announce_session(session_id)
    assert sorted(call.session_id for call in first) == [5, 6]
    with TestCase.captureOnCommitCallbacks(execute=True) as second:
        _announce_session(5)
    assert [call.session_id for call in second] == [5]
