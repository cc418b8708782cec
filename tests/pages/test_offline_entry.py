"""The server's side of entry that survives bad wifi: the service worker and the manifest it
serves, and a deal kept on a device sent with the number its page gave it (``expected_number``):
refused with 409 when the game has moved on, answered as the first time when sent again."""

from __future__ import annotations

import json

from babel.messages.pofile import read_po
from django.test import Client, TestCase

from config.catalogs import LOCALE_DIR
from config.middleware import CONTENT_SECURITY_POLICY
from scoring.models import Deal, Submission
from tests.pages.conftest import Pages
from tests.pages.test_form_once import _token


def test_the_worker_is_served_at_the_root_for_every_entry_page(db: None):
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    body = response.content.decode()
    # The queue's code first (the worker sends deals with it), then the worker's own.
    assert body.index("scope.OfflineQueue = {") < body.index('addEventListener("fetch"')
    assert Client().post("/sw.js").status_code == 405


def test_the_manifest_makes_the_site_an_installable_app(db: None):
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["scope"] == "/" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["icons"][0]["src"].endswith("favicon.svg")


def test_the_entry_form_opts_in_with_its_number(pages: Pages):
    path = f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/"
    page = pages.client("scorer").get(path).content.decode()
    assert "data-offline-entry " in page and 'data-deal-number="1"' in page
    assert "js/offline-queue.js" in page and "js/offline-entry.js" in page


def test_a_kept_deal_whose_number_was_taken_meanwhile_is_refused(pages: Pages):
    path = f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/"
    client = pages.client("scorer")
    kept = pages.form(form_token=_token(pages, path), expected_number="1")
    with TestCase.captureOnCommitCallbacks(execute=True):
        elsewhere = client.post(path, pages.form(form_token=_token(pages, path)))
    assert elsewhere.status_code == 302
    refused = client.post(path, kept)
    assert refused.status_code == 409
    text = refused.content.decode()
    assert (
        "typed as deal 1, but deal 2 is the game&#x27;s next deal now: deal 1 was entered" in text
    )
    assert 'data-deal-number="2"' in text  # the page as it is now, for the device to renumber
    assert Deal.objects.filter(game=pages.night.game).count() == 1
    # Sent as the next deal, it is stored as deal 2.
    with TestCase.captureOnCommitCallbacks(execute=True):
        accepted = client.post(path, {**kept, "expected_number": "2"})
    assert accepted.status_code == 302
    assert sorted(Deal.objects.filter(game=pages.night.game).values_list("number", flat=True)) == [
        1,
        2,
    ]


def test_a_kept_deal_sent_again_is_answered_as_the_first_time(pages: Pages):
    """Its answer was lost and the game moved on because of it: the same token is a replay, not
    a conflict."""
    path = f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/"
    client = pages.client("scorer")
    kept = pages.form(form_token=_token(pages, path), expected_number="1")
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = client.post(path, kept)
    again = client.post(path, kept)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert Submission.objects.filter(deal__game=pages.night.game).count() == 1


def test_the_workers_own_sentences_are_said_by_the_page_in_its_language(db: None):
    """The worker has no catalog: it keeps what the queue says in English with its values
    (``words``, marked for translation), and the page says it in its own language (``said``).
    The refusal's leading "Not done:" is found by its place, whatever language it is in."""
    worker = Client().get("/sw.js").content.decode()
    marked = [
        "You were signed out. Sign in again on this device: the deal stays here and is sent once "
        "you have.",
        "The server answered %s; trying again.",
        "The server refused it (%s).",
        "No connection to the server; trying again.",
    ]
    for sentence in marked:
        assert f'gettext_noop("{sentence}")' in worker
    assert "said: said" in worker and 'gettext("Not done:")' not in worker
    served = Client().get("/jsi18n/de/").content.decode()
    with open(LOCALE_DIR / "de" / "LC_MESSAGES" / "djangojs.po", "rb") as po:
        german = read_po(po)
    for sentence in marked:
        words = german[sentence].string
        assert words and words != sentence
        assert f"{json.dumps(sentence)}: {json.dumps(words)}" in served
