"""Money and figures inside a translated sentence stay left to right on a Hebrew page: each sits
in an isolated left-to-right span (``<bdi class="ltr">``), so ``50.00 ₹`` or ``1–20`` is not
reordered by the right-to-left text around it (docs/languages.md, "Right to left"). The English
sentences (the catalog's msgids) are the same as before."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.page_kit.display import club_money, ltr_html, sentence_html
from scoring.models import RulePreset
from tests.conftest import Standing
from tests.pages.conftest import Pages
from tests.tournaments.helpers import enter, new_tournament, roster
from tournaments.services.signup import entry_link_issue

pytestmark = pytest.mark.django_db

FEE = 5000


def _ltr(text: str) -> str:
    return f'<bdi class="ltr">{text}</bdi>'


def _hebrew() -> Client:
    return Client(headers={"accept-language": "he"})


def test_a_tournaments_fee_and_pool_are_isolated_in_hebrew(standing: Standing) -> None:
    standing.club.public_standings = True
    standing.club.save()
    cup = new_tournament(
        standing, preset=RulePreset.objects.get(club=None, key="points"), table_max=4,
        entry_fee_minor=FEE, club_fee_minor=0,
    )  # fmt: skip
    enter(standing, cup, roster(standing, 4))
    entry = cup.entries.get(player__name="Entrant 003")
    token = entry_link_issue(tournament=cup, actor=standing.organiser, entry_id=entry.pk)
    mine = _hebrew().get(f"/p/home/tournaments/{cup.pk}/me/{token}/").content.decode()
    public = _hebrew().get(f"/p/home/tournaments/{cup.pk}/").content.decode()
    with translation.override("he"):
        fee = club_money(standing.club, FEE)
        entry_fee = _("Entry fee (%(fee)s)") % {"fee": _ltr(fee)}
        words = ngettext("%(paid)s paid fee × %(share)s", "%(paid)s paid fees × %(share)s", 4)
        pool = words % {"paid": 4, "share": _ltr(fee)}
    assert 'dir="rtl"' in mine and "דמי השתתפות" in entry_fee
    assert entry_fee in mine
    assert pool in public
    # In English the sentence reads as it always did, the money isolated all the same.
    english = Client().get(f"/p/home/tournaments/{cup.pk}/me/{token}/").content.decode()
    assert f"Entry fee ({_ltr(club_money(standing.club, FEE))})" in english


def test_a_games_money_a_point_is_isolated_in_hebrew(pages: Pages) -> None:
    client = pages.client("organiser")
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "he"
    page = client.get(f"/clubs/{pages.slug}/games/{pages.night.game.pk}/").content.decode()
    game = pages.night.game
    with translation.override("he"):
        rate = club_money(pages.s.club, game.point_value_minor)
        said = _("%(value)s a point") % {"value": _ltr(rate)}
    assert 'dir="rtl"' in page
    assert said in page


def test_a_range_of_numbers_reads_left_to_right_in_hebrew() -> None:
    # "1–20" in right-to-left text would read "20–1": the Hebrew sentence isolates the range.
    snippet = Template(
        "{% load i18n %}{% blocktranslate with first=1 last=20 count=45 %}"
        "{{ first }}–{{ last }} of {{ count }}{% endblocktranslate %}"
    )
    with translation.override("he"):
        hebrew = snippet.render(Context())
    assert hebrew.startswith(_ltr("1–20")) and "45" in hebrew
    with translation.override("en"):
        assert snippet.render(Context()) == "1–20 of 45"


def test_a_sentence_said_by_a_view_isolates_its_figures_and_escapes_its_names() -> None:
    # As the pool's rejoin says it after the post (a message shown on the next page).
    with translation.override("he"):
        said = _("%(name)s is back in at %(score)s, paying %(fee)s again.")
        html = sentence_html(
            said, {"name": "<Dev>", "score": ltr_html("−41"), "fee": ltr_html("25.00 ₹")}
        )
    assert said != "%(name)s is back in at %(score)s, paying %(fee)s again."
    assert html == said % {
        "name": "&lt;Dev&gt;",
        "score": _ltr("−41"),
        "fee": _ltr("25.00 ₹"),
    }
