"""A form token is bound to its form's target and body: the same form sent again replays the
first answer; sent again with other values, or to another game's form, it is answered with what
happened (the first entry kept and linked, the new one refused with the reason), never silently
redirected to the first entry."""

from __future__ import annotations

from django.test import Client, TestCase

from scoring import table_links
from scoring.games import game_create, table_create
from scoring.models import Deal
from tests.pages.conftest import Pages
from tests.pages.test_form_once import _token

RESENT = "this form was already sent, with other values or to another form"


def test_a_desk_form_resent_with_other_values_or_to_another_game_is_refused_with_the_first(
    pages: Pages,
):
    game = pages.night.game
    path = f"/clubs/{pages.slug}/games/{game.pk}/deals/new/"
    desk = pages.client("scorer")
    token = _token(pages, path)
    sent = pages.form(form_token=token)
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = desk.post(path, sent)
    assert first.status_code == 302
    # The same form again (a lost answer): the first answer.
    again = desk.post(path, sent)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    # Altered, then re-sent with the same token: refused, saying what happened.
    changed = desk.post(path, {**sent, f"p{pages.night.pid('Bilal')}-points": "24"})
    assert changed.status_code == 409
    text = changed.content.decode()
    assert RESENT in text and "the first entry was kept and this one was not stored" in text
    assert f'href="{first["Location"]}" id="first-entry"' in text
    # The token posted to another game's form: refused there, nothing stored there.
    other_table = table_create(session=pages.night.session, actor=pages.s.organiser)
    other_game = game_create(
        table=other_table, actor=pages.s.organiser, preset=game.preset,
        players=list(pages.night.players.values()),
    )  # fmt: skip
    elsewhere = desk.post(f"/clubs/{pages.slug}/games/{other_game.pk}/deals/new/", sent)
    assert elsewhere.status_code == 409 and RESENT in elsewhere.content.decode()
    assert Deal.objects.filter(game=game).count() == 1
    assert not Deal.objects.filter(game=other_game).exists()


def test_a_phone_form_resent_with_other_values_is_refused_with_the_first(pages: Pages):
    (link,) = table_links.table_links_ensure(
        tables=[pages.night.game.table], actor=pages.s.organiser, mode="trusted"
    )
    enter = f"{table_links.link_path(link)}enter/"
    phone = Client()
    sent = {**pages.form(), "seat": "1", "form_token": "a" * 32}
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = phone.post(enter, sent)
    assert first.status_code == 302
    assert phone.post(enter, sent)["Location"] == first["Location"]
    changed = phone.post(enter, {**sent, "seat": "2"})
    assert changed.status_code == 409 and RESENT in changed.content.decode()
    assert Deal.objects.filter(game=pages.night.game).count() == 1
