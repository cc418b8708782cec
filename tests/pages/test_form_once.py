"""The deal entry form does its work once: the same form posted twice (a double tap, back and
resubmit) makes one deal, even when both posts arrive at the same moment; a refused post leaves
its token free for the corrected one."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connections
from django.test import Client, TestCase

from scoring.models import Deal, Submission
from tests.pages.conftest import Pages
from tests.scoring.conftest import make_night


def _token(pages: Pages, path: str) -> str:
    page = pages.client("scorer").get(path).content.decode()
    found = re.search(r'name="form_token" value="([0-9a-f]{32})"', page)
    assert found, "the entry page carries a form token"
    return found.group(1)


def test_the_same_form_posted_twice_makes_one_deal(pages: Pages):
    path = f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/"
    data = pages.form(form_token=_token(pages, path))
    client = pages.client("scorer")
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = client.post(path, data)
    with TestCase.captureOnCommitCallbacks(execute=True):
        second = client.post(path, data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]  # the second answer is the first's
    assert Deal.objects.filter(game=pages.night.game).count() == 1
    assert Submission.objects.filter(deal__game=pages.night.game).count() == 1
    # A new page has a new token: the next deal is a new deal.
    with TestCase.captureOnCommitCallbacks(execute=True):
        third = client.post(path, pages.form(form_token=_token(pages, path)))
    assert third.status_code == 302 and Deal.objects.filter(game=pages.night.game).count() == 2


def test_a_refused_form_keeps_its_token_for_the_corrected_post(pages: Pages):
    path = f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/"
    token = _token(pages, path)
    client = pages.client("scorer")
    refused = client.post(path, pages.form(form_token=token, wild="ZZ"))
    assert refused.status_code == 400 and token in refused.content.decode()
    assert not Deal.objects.filter(game=pages.night.game).exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        accepted = client.post(path, pages.form(form_token=token))
    assert accepted.status_code == 302
    assert Deal.objects.filter(game=pages.night.game).count() == 1


@pytest.mark.usefixtures("postgres_tx")
def test_two_posts_of_one_form_at_the_same_moment_make_one_deal(standing):
    pages = Pages(standing, make_night(standing))
    path = f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/"
    data = pages.form(form_token=_token(pages, path))
    barrier = threading.Barrier(4)
    answers: list[tuple[int, str]] = []
    errors: list[BaseException] = []

    def post() -> None:
        try:
            client = Client()
            client.force_login(standing.scorer)
            barrier.wait(timeout=30)
            response = client.post(path, data)
            answers.append((response.status_code, response.get("Location", "")))
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert [status for status, _ in answers] == [302] * 4
    assert len({location for _, location in answers}) == 1
    assert Deal.objects.filter(game=pages.night.game).count() == 1


def test_an_untouched_form_sent_five_times_keeps_one_deal_to_correct(pages: Pages):
    """Five untouched forms (each a fresh page): each rejected, all versions of deal 1; the game
    page offers "Correct deal 1" and the new-deal page says it enters deal 1 again."""
    game = pages.night.game
    path = f"/clubs/{pages.slug}/games/{game.pk}/deals/new/"
    client = pages.client("scorer")
    untouched = {f"p{player.pk}-outcome": "loser" for player in pages.night.players.values()}
    for _ in range(5):
        with TestCase.captureOnCommitCallbacks(execute=True):
            sent = client.post(path, {**untouched, "form_token": _token(pages, path)})
        assert sent.status_code == 302
    deal = Deal.objects.get(game=game)
    assert deal.number == 1 and deal.status == Deal.Status.OPEN
    assert set(deal.submissions.values_list("status", flat=True)) == {"rejected"}
    assert deal.submissions.count() == 5
    page = client.get(f"/clubs/{pages.slug}/games/{game.pk}/").content.decode()
    assert "Correct deal 1" in page and "Correct deal 5" not in page
    entry = client.get(path).content.decode()
    assert "Submit deal 1" in entry and 'id="rejected-note"' in entry
    with TestCase.captureOnCommitCallbacks(execute=True):
        client.post(path, pages.form(form_token=_token(pages, path)))
    deal.refresh_from_db()
    assert deal.status == Deal.Status.FINAL and Deal.objects.filter(game=game).count() == 1
