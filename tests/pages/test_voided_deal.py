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


def test_a_voided_deal_keeps_its_number_in_the_csv_the_history_and_the_api(pages: Pages):
    """A voided deal is "Deal 1 (voided)" on the player's page and in the CSV, and the API's
    history gives its number with ``deal_voided``: never "Deal None" or a null number."""
    deal, _ = pages.play_deal()
    deal_void(deal=deal, actor=pages.s.organiser)
    asha = pages.night.pid("Asha")
    session = pages.night.session
    page = pages.client("player").get(f"/clubs/{pages.slug}/players/{asha}/").content.decode()
    assert "Deal 1 (voided)" in page and "None" not in page
    csv_text = (
        pages.client("player")
        .get(f"/clubs/{pages.slug}/sessions/{session.pk}/export.csv")
        .content.decode()
    )
    assert "Deal 1 (voided)" in csv_text and "None" not in csv_text
    history = pages.s.client("player").get(f"/api/v1/clubs/{pages.slug}/players/{asha}/history/")
    assert history.status_code == 200
    [line] = [line for line in history.json()["results"] if line["kind"] == "deal"]
    assert line["deal"] == deal.pk and line["deal_number"] == 1 and line["deal_voided"] is True
    assert line["points"] == 0 and line["version"] is None
