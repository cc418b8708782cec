"""A table enters its own results through its table link: entering as a seat, another seat
confirming or disputing, the director deciding; and what the link does not grant."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client, TestCase

from clubs.models import AuditEntry
from scoring import table_links
from scoring.formats import GameEnd
from scoring.games import game_create, table_create
from scoring.lifecycle import game_end
from scoring.models import Deal, Submission, TableLink
from scoring.nights import session_close
from tests.pages.conftest import Pages


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def _link(pages: Pages, mode: str = "confirm") -> tuple[TableLink, str]:
    (link,) = table_links.table_links_ensure(
        tables=[pages.night.game.table], actor=pages.s.organiser, mode=mode
    )
    return link, table_links.link_path(link)


def _enter(client: Client, path: str, data: dict, seat: int = 1):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(f"{path}enter/", {**data, "seat": str(seat)})


def test_a_seat_enters_and_another_seat_confirms(pages):
    link, path = _link(pages)
    phone = Client()
    page = phone.get(path)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Asha" in body and "Farid" in body and "Enter deal 1" in body
    entered = _enter(phone, path, pages.form(), seat=3)
    assert entered.status_code == 302, entered.content.decode()[:2000]
    submission = Submission.objects.get()
    assert submission.status == Submission.Status.AWAITING_CONFIRMATION
    assert (submission.table_link_id, submission.entered_seat, submission.submitted_by) == (
        link.pk, 3, None,
    )  # fmt: skip
    assert Deal.objects.get().status == Deal.Status.AWAITING_CONFIRMATION

    # The same seat cannot confirm its own entry.
    same = phone.post(f"{path}confirm/{submission.pk}/", {"seat": "3"})
    assert same.status_code == 303
    submission.refresh_from_db()
    assert submission.status == Submission.Status.AWAITING_CONFIRMATION

    other = Client()
    waiting = other.get(path).content.decode()
    assert "Entered by <strong>seat 3" in waiting and 'id="confirm"' in waiting
    confirmed = other.post(f"{path}confirm/{submission.pk}/", {"seat": "5"})
    assert confirmed.status_code == 302
    submission.refresh_from_db()
    assert submission.status == Submission.Status.ACCEPTED
    assert (submission.confirmed_seat, submission.confirmed_by) == (5, None)
    steps = list(
        AuditEntry.objects.filter(object_id=str(submission.pk), object_type="scoring.submission")
        .order_by("id")
        .values_list("action", "after")
    )
    assert steps[0] == ("submission.create", {
        "deal": submission.deal_id, "version": 1, "source": "table", "table_link": link.pk,
        "seat": 3,
    })  # fmt: skip
    assert steps[-1][0] == "submission.confirm"
    assert steps[-1][1]["seat"] == 5 and steps[-1][1]["table_link"] == link.pk
    # The next deal is the table's to enter now.
    assert "Enter deal 2" in other.get(path).content.decode()


def test_trusted_link_counts_at_once(pages):
    _link_row, path = _link(pages, mode="trusted")
    assert _enter(Client(), path, pages.form(), seat=2).status_code == 302
    assert Submission.objects.get().status == Submission.Status.ACCEPTED


def test_dispute_waits_for_the_director_who_corrects(pages):
    _link_row, path = _link(pages)
    _enter(Client(), path, pages.form(), seat=1)
    submission = Submission.objects.get()
    other = Client()
    empty = other.post(f"{path}dispute/{submission.pk}/", {"seat": "2", "reason": "  "})
    assert empty.status_code == 303
    other.post(f"{path}dispute/{submission.pk}/", {"seat": "2", "reason": "Bilal had 32, not 23"})
    submission.refresh_from_db()
    assert (submission.dispute, submission.disputed_seat) == ("Bilal had 32, not 23", 2)
    assert submission.status == Submission.Status.AWAITING_CONFIRMATION
    # Once disputed, the table cannot confirm it: the director decides.
    other.post(f"{path}confirm/{submission.pk}/", {"seat": "4"})
    submission.refresh_from_db()
    assert submission.status == Submission.Status.AWAITING_CONFIRMATION
    page = other.get(path).content.decode()
    assert "Disputed by seat 2" in page and 'id="confirm"' not in page

    desk = pages.client("organiser")
    deal = submission.deal
    with TestCase.captureOnCommitCallbacks(execute=True):
        corrected = desk.post(
            f"/clubs/{pages.slug}/deals/{deal.pk}/result/",
            pages.form(**{f"p{pages.night.pid('Bilal')}-points": "32"}),
        )
    assert corrected.status_code == 302
    statuses = list(deal.submissions.order_by("version").values_list("status", flat=True))
    assert statuses == ["superseded", "accepted"]
    assert Deal.objects.get(pk=deal.pk).status == Deal.Status.FINAL


def test_director_rejects_a_waiting_entry_and_the_table_enters_again(pages):
    _link_row, path = _link(pages)
    _enter(Client(), path, pages.form(), seat=1)
    submission = Submission.objects.get()
    desk = pages.client("scorer")
    rejected = desk.post(
        f"/clubs/{pages.slug}/submissions/{submission.pk}/reject/", {"reason": "wrong table"}
    )
    assert rejected.status_code == 302
    submission.refresh_from_db()
    assert submission.status == Submission.Status.REJECTED
    assert Deal.objects.get().status == Deal.Status.OPEN
    # The table enters the same deal again (its next version), not a new number.
    again = _enter(Client(), path, pages.form(), seat=2)
    assert again.status_code == 302
    assert list(Deal.objects.values_list("number", flat=True)) == [1]
    assert Deal.objects.get().submissions.count() == 2


def test_entries_through_a_link_are_idempotent(pages):
    _link_row, path = _link(pages)
    phone = Client()
    form_page = phone.get(f"{path}enter/").content.decode()
    token = re.search(r'name="form_token" value="([0-9a-f]{32})"', form_page)[1]
    first = _enter(phone, path, pages.form(form_token=token), seat=1)
    second = _enter(phone, path, pages.form(form_token=token), seat=1)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Submission.objects.count() == 1


def test_a_seat_must_be_named_and_exist(pages):
    _link_row, path = _link(pages)
    missing = Client().post(f"{path}enter/", pages.form())
    assert missing.status_code == 400 and "say which seat you are" in missing.content.decode()
    unknown = _enter(Client(), path, pages.form(), seat=9)
    assert unknown.status_code == 400 and "no seat 9" in unknown.content.decode()
    assert not Submission.objects.exists() and not Deal.objects.exists()


def test_the_link_grants_nothing_else(pages):
    link, path = _link(pages)
    phone = Client()
    # Another table's entry (even of the same night) is unknown to this link.
    other_table = table_create(session=pages.night.session, actor=pages.s.organiser)
    other_game = game_create(
        table=other_table, actor=pages.s.organiser, preset=pages.night.game.preset,
        players=list(pages.night.players.values())[:3],
    )  # fmt: skip
    (other_link,) = table_links.table_links_ensure(
        tables=[other_table], actor=pages.s.organiser, mode="confirm"
    )
    first, second, third = list(pages.night.players.values())[:3]
    _enter(Client(), table_links.link_path(other_link), {
        "wild": "", "dealer": "",
        f"p{first.pk}-outcome": "loser", f"p{first.pk}-points": "10",
        f"p{second.pk}-outcome": "loser", f"p{second.pk}-points": "10",
        f"p{third.pk}-outcome": "winner",
    }, seat=1)  # fmt: skip
    theirs = Submission.objects.get(deal__game=other_game)
    assert phone.post(f"{path}confirm/{theirs.pk}/", {"seat": "2"}).status_code == 404
    assert (
        phone.post(f"{path}dispute/{theirs.pk}/", {"seat": "2", "reason": "x"}).status_code == 404
    )
    theirs.refresh_from_db()
    assert theirs.status == Submission.Status.AWAITING_CONFIRMATION and not theirs.dispute
    # A deal already counted cannot be confirmed or changed through the link.
    pages.play_deal()
    counted = Submission.objects.get(deal__game=pages.night.game, status="accepted")
    assert phone.post(f"{path}confirm/{counted.pk}/", {"seat": "2"}).status_code == 303
    # No club page opens for the link's holder (not signed in).
    for url in (f"/clubs/{pages.slug}/", f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/",
                f"/clubs/{pages.slug}/games/{pages.night.game.pk}/",
                f"/clubs/{pages.slug}/deals/{counted.deal_id}/"):  # fmt: skip
        answer = phone.get(url)
        assert answer.status_code == 302 and "/login" in answer["Location"], url
    # A token that is not a link's, or a guess next to it, is unknown.
    assert phone.get("/t/" + "0" * 40 + "/").status_code == 404
    assert phone.get(path[:-2] + ("0" if path[-2] != "0" else "1") + "/").status_code == 404
    assert link.digest not in path  # only the digest is stored, never the token


def test_revoked_link_says_the_desk_withdrew_it_and_a_finished_table_gone(pages):
    link, path = _link(pages)
    phone = Client()
    assert phone.get(path).status_code == 200
    # The desk's Revoke asks first: the button's post alone changes nothing.
    desk = pages.client("scorer")
    revoke = f"/clubs/{pages.slug}/table-links/{link.pk}/revoke/"
    asked = desk.post(revoke, {"next": f"/clubs/{pages.slug}/"})
    assert asked.status_code == 200 and "Revoke the link of" in asked.content.decode()
    assert phone.get(path).status_code == 200
    done = desk.post(revoke, {"next": f"/clubs/{pages.slug}/", "confirm": "1"})
    assert done.status_code == 302 and done["Location"] == f"/clubs/{pages.slug}/"
    withdrawn = phone.get(path)
    assert withdrawn.status_code == 410
    words = "This table link was withdrawn by the desk; ask the desk for the new one"
    assert words in withdrawn.content.decode()
    assert "not a member" not in withdrawn.content.decode()
    assert phone.post(f"{path}enter/", pages.form()).status_code == 410
    fresh, fresh_path = _link(pages)
    assert fresh.pk != link.pk and phone.get(fresh_path).status_code == 200
    pages.play_deal()
    game_end(game=pages.night.game, actor=pages.s.organiser, end=GameEnd.BY_ORGANISER)
    gone = phone.get(fresh_path)
    assert gone.status_code == 410 and "game has ended" in gone.content.decode()
    assert _enter(phone, fresh_path, pages.form()).status_code == 410


def test_a_link_made_before_its_tables_game_starts_says_so_and_then_enters(pages):
    table = table_create(session=pages.night.session, actor=pages.s.organiser)
    (link,) = table_links.table_links_ensure(
        tables=[table], actor=pages.s.organiser, mode="confirm"
    )
    path = table_links.link_path(link)
    phone = Client()
    early = phone.get(path)
    assert early.status_code == 410
    assert "No game has started at this table yet" in early.content.decode()
    game_create(
        table=table, actor=pages.s.organiser, preset=pages.night.game.preset,
        players=[seat.player for seat in pages.night.game.seats.all()],
    )  # fmt: skip
    assert phone.get(path).status_code == 200


def test_a_closed_night_is_gone(pages):
    _link_row, path = _link(pages)
    session_close(session=pages.night.session, actor=pages.s.organiser)
    assert Client().get(path).status_code == 410


def test_unknown_tokens_are_rate_limited(pages):
    phone = Client()
    answers = [phone.get(f"/t/{i:040d}/").status_code for i in range(25)]
    assert answers[:20] == [404] * 20 and answers[-1] == 429


def test_off_means_no_links(pages):
    club = pages.s.club
    assert club.table_entry == "off"
    page = pages.client("organiser").get(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/")
    assert "Table link and QR code" not in page.content.decode()
    refused = pages.client("organiser").post(
        f"/clubs/{pages.slug}/tables/{pages.night.game.table_id}/link/"
    )
    assert refused.status_code == 302 and not TableLink.objects.exists()
    club.table_entry = "confirm"
    club.save()
    desk = pages.client("organiser")
    page = desk.get(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/").content.decode()
    assert "Table link and QR code" in page
    desk.post(f"/clubs/{pages.slug}/tables/{pages.night.game.table_id}/link/")
    page = desk.get(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/").content.decode()
    assert "<svg" in page and table_links.link_path(TableLink.objects.get()) in page
    cards = desk.get(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/table-cards/")
    body = cards.content.decode()
    assert cards.status_code == 200 and body.count('class="qr"') == 1 and "Farid" in body
    # A player of the club cannot make one.
    assert (
        pages.client("player")
        .post(f"/clubs/{pages.slug}/tables/{pages.night.game.table_id}/link/")
        .status_code
        == 403
    )


def test_the_page_listens_for_the_game_and_its_live_part_follows_it(pages):
    """The page names the game's stream and its live part; the part shows what the page would
    (the entry waiting, then the next deal) and, once the link enters nothing more, says so and
    stops."""
    _link_row, path = _link(pages)
    phone = Client()
    page = phone.get(path).content.decode()
    assert f'data-live-url="{path}live/"' in page and "data-live-stream=" in page
    assert 'id="enter"' in phone.get(f"{path}live/").content.decode()
    _enter(Client(), path, pages.form(), seat=3)
    part = phone.get(f"{path}live/")
    assert part.status_code == 200 and "X-Live-Stop" not in part
    body = part.content.decode()
    assert "Entered by <strong>seat 3" in body and 'id="confirm"' in body
    assert "<html" not in body  # the part alone, not a page
    waiting = Submission.objects.get()
    assert Client().post(f"{path}confirm/{waiting.pk}/", {"seat": "5"}).status_code == 302
    assert "1: counted" in phone.get(f"{path}live/").content.decode()
    game_end(game=pages.night.game, actor=pages.s.organiser, end=GameEnd.BY_ORGANISER)
    ended = phone.get(f"{path}live/")
    assert ended.status_code == 200 and ended["X-Live-Stop"] == "1"
    assert "game has ended" in ended.content.decode()


def _deals_list(body: str) -> str:
    match = re.search(r'<ul class="small table-deals">(.*?)</ul>', body, re.S)
    assert match, body[:2000]
    return " ".join(re.sub(r"<[^>]+>", " ", match[1]).split())


def test_the_tables_deals_say_waiting_or_disputed_in_words(pages):
    _link_row, path = _link(pages)
    _enter(Client(), path, pages.form(), seat=1)
    submission = Submission.objects.get()
    waiting = _deals_list(Client().get(f"{path}live/").content.decode())
    assert waiting == "Deal 1: waiting for another player to confirm"
    Client().post(f"{path}dispute/{submission.pk}/", {"seat": "2", "reason": "Bilal had 32"})
    page = Client().get(path).content.decode()
    assert _deals_list(page) == "Deal 1: disputed, the director decides"
    assert "confirms it (or the director does)" not in page  # disputed is not waiting


def test_the_entry_forms_live_part_reads_through_the_link(pages):
    """The entry form at the table follows the game through the link's own live part (the
    desk's is for members): the deals without links to the club's pages; once the link is
    replaced, 404, and the page names what its part says then."""
    link, path = _link(pages)
    phone = Client()
    form = phone.get(f"{path}enter/").content.decode()
    assert f'data-live-url="{path}enter/live/"' in form
    assert "data-live-gone=" in form and "/entry/live/" not in form
    assert "No deals entered yet" in phone.get(f"{path}enter/live/").content.decode()
    _enter(Client(), path, pages.form(), seat=1)
    part = phone.get(f"{path}enter/live/")
    body = part.content.decode()
    assert part.status_code == 200 and "deal 1" in body and "<a " not in body
    assert "<html" not in body
    table_links.table_link_revoke(link=link, actor=pages.s.organiser)
    assert phone.get(f"{path}enter/live/").status_code == 410  # withdrawn by the desk
