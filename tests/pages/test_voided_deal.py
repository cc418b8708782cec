"""The correction form of a voided deal refuses, with the reason, and changes nothing."""

from __future__ import annotations

import re

from django.test import TestCase

from scoring.models import Deal, Submission
from scoring.undo import deal_void
from tests.pages.conftest import Pages


def test_the_correction_form_of_a_voided_deal_is_refused(pages: Pages):
    deal, _ = pages.play_deal()
    deal_void(deal=deal, actor=pages.s.organiser)
    path = f"/clubs/{pages.slug}/deals/{deal.pk}/result/"
    client = pages.client("scorer")
    page = client.get(path).content.decode()
    token = re.search(r'name="form_token" value="([0-9a-f]{32})"', page)
    assert token
    with TestCase.captureOnCommitCallbacks(execute=True):
        refused = client.post(path, pages.form(form_token=token.group(1)))
    assert refused.status_code == 409
    assert f"deal {deal.number} was voided" in refused.content.decode()
    assert Deal.objects.get(pk=deal.pk).status == Deal.Status.VOID
    assert Submission.objects.filter(deal=deal).count() == 1
