"""The sign-up, personal link and check-in pages, the desk's registration (bulk check-in and paid
marks, the paste of names, the sign-up settings) and the API's fee fields and endpoints, on the
server: refusals named on the page, nothing changed by a refused request."""

from __future__ import annotations

import html
import re

from django.test import Client

from clubs.models import Player
from clubs.page_kit.display import club_money
from ledger.accounts import account_held
from tests.tournaments.helpers import enter, new_tournament, roster
from tournaments.models import Entry, Tournament
from tournaments.services.signup import (
    CHECK_IN_ENTRY_LIMIT,
    SIGNUP_LIMIT,
    check_in_code,
    signup_settings_set,
)

FEE, CLUB_FEE = 9000, 0


def _open_cup(standing, **options) -> Tournament:
    standing.club.public_standings = True
    standing.club.save()
    cup = new_tournament(standing, entry_fee_minor=FEE, club_fee_minor=CLUB_FEE, **options)
    signup_settings_set(tournament=cup, actor=standing.organiser, open=True, closes_at=None)
    return cup


def _sign_up(phone: Client, cup: Tournament, name: str, address: str = "10.0.0.1"):
    page = phone.get(f"/p/home/tournaments/{cup.pk}/").content.decode()
    key = re.search(r'name="signup_key" value="([^"]+)"', page)
    assert key, "the public page offers the sign-up form"
    return phone.post(
        f"/p/home/tournaments/{cup.pk}/signup/", {"name": name, "signup_key": key[1]},
        REMOTE_ADDR=address,
    )  # fmt: skip


def test_a_player_signs_up_sees_their_registration_and_checks_in_with_the_code(standing):
    cup = _open_cup(standing)
    phone = Client()
    done = _sign_up(phone, cup, "Arjun")
    assert done.status_code == 302 and "/me/" in done["Location"]
    mine = phone.get(done["Location"]).content.decode()
    assert 'data-figure="status">Registered<' in mine and 'data-figure="fee">Due<' in mine
    wrong = phone.post(done["Location"], {"code": "no"}, REMOTE_ADDR="10.0.0.1")
    assert wrong.status_code == 400 and "check-in code" in wrong.content.decode()
    assert cup.entries.get().status == Entry.Status.REGISTERED
    # The check-in QR knows the phone: it opens the player's own page.
    assert phone.get(f"/p/home/tournaments/{cup.pk}/check-in/")["Location"] == done["Location"]
    right = phone.post(done["Location"], {"code": check_in_code(tournament=cup)})
    assert right.status_code == 302
    assert 'data-figure="status">Checked in<' in phone.get(done["Location"]).content.decode()


def test_a_phone_without_a_link_checks_in_by_name_with_the_code_and_not_without(standing):
    cup = _open_cup(standing)
    enter(standing, cup, roster(standing, 2), paid=False)
    entry = cup.entries.first()
    assert entry is not None
    phone = Client()
    url = f"/p/home/tournaments/{cup.pk}/check-in/"
    assert entry.player.name in phone.get(url).content.decode()
    refused = phone.post(url, {"entry": entry.pk, "code": "0000x"})
    assert refused.status_code == 400 and cup.entries.filter(status="checked_in").count() == 0
    done = phone.post(url, {"entry": entry.pk, "code": check_in_code(tournament=cup)})
    assert done.status_code == 200 and 'id="checked-in"' in done.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN


def test_sign_ups_from_one_address_are_limited(standing):
    cup = _open_cup(standing)
    phone = Client()
    for n in range(SIGNUP_LIMIT):
        assert _sign_up(phone, cup, f"Player {n}", address="10.9.9.9").status_code == 302
    refused = _sign_up(phone, cup, "One too many", address="10.9.9.9")
    assert refused.status_code == 429 and "too many sign-ups" in refused.content.decode()
    assert not Player.objects.filter(name="One too many").exists()
    assert _sign_up(Client(), cup, "Elsewhere", address="10.9.9.10").status_code == 302


def test_no_sign_up_form_until_the_director_opens_it(standing):
    cup = _open_cup(standing)
    signup_settings_set(tournament=cup, actor=standing.organiser, open=False, closes_at=None)
    assert "signup_key" not in Client().get(f"/p/home/tournaments/{cup.pk}/").content.decode()
    refused = Client().post(
        f"/p/home/tournaments/{cup.pk}/signup/", {"name": "Zed", "signup_key": "z" * 30}
    )
    assert refused.status_code == 409 and "sign-up is closed" in refused.content.decode()
    assert cup.entries.count() == 0


def _desk(standing) -> Client:
    desk = Client()
    desk.force_login(standing.organiser)
    return desk


def test_the_desk_checks_in_and_marks_paid_in_bulk_and_shows_the_counts(standing):
    cup = _open_cup(standing, max_entries=4)
    enter(standing, cup, roster(standing, 5), paid=False)
    ids = list(cup.entries.exclude(status="waitlisted").values_list("pk", flat=True))
    url = f"/clubs/home/tournaments/{cup.pk}/entries/bulk/"
    desk = _desk(standing)
    assert desk.post(url, {"action": "check_in", "entry": ids[:3]}).status_code == 302
    assert desk.post(url, {"action": "paid", "entry": ids[:2]}).status_code == 302
    page = html.unescape(desk.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode())
    for figure, count in (("registered", 1), ("waitlisted", 1), ("checked-in", 3), ("paid", 2)):
        assert f'data-figure="{figure}">{count}<' in page, figure
    assert f'(2 paid fees × <bdi class="ltr">{club_money(standing.club, FEE)}</bdi>)' in page
    assert 'data-figure="check-in-code"' in page
    # A waitlisted entry cannot pay: the whole tick refused, nothing changed.
    waiting = cup.entries.get(status="waitlisted").pk
    refused = desk.post(url, {"action": "paid", "entry": [ids[2], waiting]})
    assert refused.status_code == 409 and "waitlisted" in refused.content.decode()
    assert account_held(account=cup.purse) == 2 * FEE
    assert desk.post(url, {"action": "paid"}).status_code == 400  # nobody ticked


def test_a_paste_is_previewed_matched_to_the_roster_then_entered(standing):
    cup = _open_cup(standing)
    desk = _desk(standing)
    url = f"/clubs/home/tournaments/{cup.pk}/entries/paste/"
    preview = desk.post(url, {"names": "Arjun, asha\nCharu\n\narjun", "preview": "1"})
    shown = preview.content.decode()
    assert preview.status_code == 200 and shown.count("<li data-new=") == 3
    assert 'data-new="no">asha: <span class="badge good">on the roster</span> (Asha)' in shown
    assert cup.entries.count() == 0
    added = desk.post(url, {"names": "Arjun, asha\nCharu", "add": "1", "paid": "on"})
    assert added.status_code == 302
    assert sorted(cup.entries.values_list("player__name", flat=True)) == ["Arjun", "Asha", "Charu"]
    assert account_held(account=cup.purse) == 3 * FEE


def test_the_api_marks_and_unmarks_fees_and_sets_the_sign_up(standing):
    cup = _open_cup(standing)
    enter(standing, cup, roster(standing, 3), paid=False)
    api = standing.client("organiser")
    base = f"/api/v1/clubs/home/tournaments/{cup.pk}"
    entry = cup.entries.first()
    assert entry is not None
    paid = api.post(f"{base}/entries/{entry.pk}/paid/").json()
    assert paid["fee_status"] == "paid" and paid["paid_at"] and paid["checked_in_at"] is None
    detail = api.get(f"{base}/").json()
    assert (detail["entries_paid"], detail["prize_pool_minor"]) == (1, FEE)
    back = api.post(f"{base}/entries/{entry.pk}/unpaid/").json()
    assert back["fee_status"] == "due" and back["paid_at"] is None
    again = api.post(f"{base}/entries/{entry.pk}/unpaid/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_paid"
    closed = api.post(f"{base}/signup/", {"signup_open": False}, format="json")
    assert closed.status_code == 200 and closed.json()["signup_open"] is False
    bad = api.post(f"{base}/signup/", {"signup_open": "maybe"}, format="json")
    assert bad.status_code == 400 and "signup_open" in str(bad.json()["error"])
    player = standing.client("player").post(f"{base}/entries/{entry.pk}/paid/")
    assert player.status_code == 403
    assert account_held(account=cup.purse) == 0


def test_guessing_an_entrys_code_stops_after_a_few_tries(standing):
    cup = _open_cup(standing)
    enter(standing, cup, roster(standing, 1), paid=False)
    entry = cup.entries.get()
    url = f"/p/home/tournaments/{cup.pk}/check-in/"
    code = check_in_code(tournament=cup)
    wrong = [f"{n:04d}" for n in range(10_000) if f"{n:04d}" != code]
    for guess in wrong[:CHECK_IN_ENTRY_LIMIT]:
        assert Client().post(url, {"entry": entry.pk, "code": guess}).status_code == 400
    stopped = Client().post(url, {"entry": entry.pk, "code": code})
    assert stopped.status_code == 429 and "ask the desk" in stopped.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED
