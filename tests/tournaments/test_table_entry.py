"""A knock-out round whose tables enter their own results through their table links: links made
at release, each table's seats entering and confirming, one entry disputed and corrected by the
director at the desk, and the round completing with nothing entered at the desk but that."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, TestCase

from clubs.models import AuditEntry
from scoring import table_links
from scoring.models import Game, RulePreset, Submission, TableLink
from tests.tournaments.helpers import enter, new_tournament, roster
from tournaments.models import Round
from tournaments.services.draws import round_release
from tournaments.services.setup import tournament_start


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()


def _cup(standing, table_entry: str = "confirm"):
    cup = new_tournament(
        standing, preset=RulePreset.objects.get(club=None, key="pool-101"), table_max=4,
        advance_per_table=2, table_entry=table_entry,
    )  # fmt: skip
    enter(standing, cup, roster(standing, 12))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=cup, actor=standing.organiser)
        round_release(tournament=cup, actor=standing.organiser, number=1)
    return cup


def _form(game: Game, winner: int, points: dict[int, int]) -> dict[str, str]:
    data = {"wild": "", "dealer": ""}
    for seat in game.seats.all():
        pid = seat.player_id
        if pid == winner:
            data[f"p{pid}-outcome"] = "winner"
        else:
            data[f"p{pid}-outcome"] = "loser"
            data[f"p{pid}-points"] = str(points[pid])
    return data


def _post(client: Client, url: str, data: dict[str, str]):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(url, data)


def test_release_makes_a_link_per_table_and_the_round_plays_itself(standing):
    cup = _cup(standing)
    played = cup.round_set.get(number=1)
    tables = list(played.tables.order_by("number").select_related("game"))
    assert len(tables) == 3
    links = {link.table_id: link for link in TableLink.objects.all()}
    assert set(links) == {t.game.table_id for t in tables}
    assert {link.mode for link in links.values()} == {"confirm"}

    desk = Client()
    desk.force_login(standing.organiser)
    grid = desk.get(f"/clubs/{standing.club.slug}/tournaments/{cup.pk}/grid/").content.decode()
    assert grid.count('class="qr"') == 3  # every table's QR code on the desk

    for index, table in enumerate(tables):
        game = table.game
        path = table_links.link_path(links[game.table_id])
        seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
        a, b, c, d = seats
        phone_1, phone_2 = Client(), Client()
        # Deal 1: seat 1 enters, seat 2 confirms.
        assert _post(phone_1, f"{path}enter/", {
            **_form(game, a, {b: 80, c: 80, d: 10}), "seat": "1",
        }).status_code == 302  # fmt: skip
        waiting = Submission.objects.get(deal__game=game, status="awaiting_confirmation")
        assert _post(phone_2, f"{path}confirm/{waiting.pk}/", {"seat": "2"}).status_code == 302
        if index == 0:  # the desk names the phones as the table's link does
            cell = desk.get(
                f"/clubs/{standing.club.slug}/tournaments/{cup.pk}/grid/"
            ).content.decode()
            assert "Deal 1: entered by seat 1 on phone A, confirmed by seat 2 on phone B" in cell
        # Deal 2: seat 3 enters; on the first table seat 4 disputes and the director corrects.
        wrong = {b: 40, c: 30, d: 5} if index else {b: 40, c: 10, d: 5}
        _post(phone_1, f"{path}enter/", {**_form(game, a, wrong), "seat": "3"})
        waiting = Submission.objects.get(deal__game=game, status="awaiting_confirmation")
        if index == 0:
            _post(phone_2, f"{path}dispute/{waiting.pk}/", {"seat": "4", "reason": "C had 30"})
            cell = desk.get(
                f"/clubs/{standing.club.slug}/tournaments/{cup.pk}/grid/"
            ).content.decode()
            assert "Deal 2 entered by seat 3 on phone A, disputed by seat 4" in cell
            assert "C had 30" in cell
            assert 'data-state="disputed"' in cell
            corrected = _post(
                desk, f"/clubs/{standing.club.slug}/deals/{waiting.deal_id}/result/",
                _form(game, a, {b: 40, c: 30, d: 5}),
            )  # fmt: skip
            assert corrected.status_code == 302
        else:
            assert _post(phone_2, f"{path}confirm/{waiting.pk}/", {"seat": "4"}).status_code == 302
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        # The table's game is over: its link is gone.
        assert phone_1.get(path).status_code == 410

    played.refresh_from_db()
    assert played.status == Round.Status.COMPLETE
    assert cup.round_set.get(number=2).status == Round.Status.DRAFT
    grid = desk.get(f"/clubs/{standing.club.slug}/tournaments/{cup.pk}/grid/").content.decode()
    assert "Round 1 is complete: round 2" in grid and 'id="release-next"' in grid
    # Nothing was entered at the desk but the one correction; every table step is audited
    # with its link and seat.
    by_users = Submission.objects.filter(submitted_by__isnull=False)
    assert by_users.count() == 1
    confirms = AuditEntry.objects.filter(action="submission.confirm", actor__isnull=True)
    assert confirms.count() == 5 and all("seat" in e.after for e in confirms)


def test_off_makes_no_links_and_a_round_can_get_them_on_demand(standing):
    standing.club.table_entry = "off"
    standing.club.save()
    cup = _cup(standing, table_entry="")
    assert not TableLink.objects.exists()
    cup.table_entry = "trusted"
    cup.save()
    desk = Client()
    desk.force_login(standing.organiser)
    made = desk.post(f"/clubs/{standing.club.slug}/tournaments/{cup.pk}/rounds/1/links/")
    assert made.status_code == 302
    assert TableLink.objects.filter(mode="trusted").count() == 3
    cards = desk.get(f"/clubs/{standing.club.slug}/tournaments/{cup.pk}/rounds/1/cards/")
    assert cards.content.decode().count('class="qr"') == 3
    # A player of the club sees the desk and the cards but no table's link.
    player = Client()
    player.force_login(standing.player)
    page = player.get(f"/clubs/{standing.club.slug}/tournaments/{cup.pk}/").content.decode()
    assert 'class="qr"' not in page and "/t/" not in page
