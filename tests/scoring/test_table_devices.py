"""Seat confirmations that mean something: an entry made through a table link records the
phone it came from, and another seat's confirmation from that same phone counts only where the
link trusts one phone per table (mode one_phone); the desk's confirmations are unchanged."""

from __future__ import annotations

import pytest
from django.test import TestCase

from config.errors import NotAllowed
from scoring import table_links
from scoring.models import Submission, TableEntry, TableLink
from scoring.submissions import submission_confirm
from tests.scoring.conftest import Night, make_night

pytestmark = pytest.mark.django_db


def _entered(night: Night, link: TableLink, device: str) -> Submission:
    with TestCase.captureOnCommitCallbacks(execute=True):
        _deal, submission = table_links.table_deal_enter(
            link=link, seat=1, device=device, wild="", dealer=None,
            payload={"results": night.results(
                Asha={"outcome": "winner"}, Bilal={"outcome": "loser", "points": 20},
                Chitra={"outcome": "loser", "points": 30}, Dev={"outcome": "first_drop"},
                Esther={"outcome": "middle_drop"}, Farid={"outcome": "loser", "points": 5},
            )},
        )  # fmt: skip
    submission.refresh_from_db()
    assert submission.status == Submission.Status.AWAITING_CONFIRMATION
    return submission


def _link(night: Night, mode: str) -> TableLink:
    (link,) = table_links.table_links_ensure(
        tables=[night.game.table], actor=night.standing.organiser, mode=mode
    )
    return link


def test_by_default_the_phone_that_entered_cannot_confirm_as_another_seat(standing):
    night = make_night(standing)
    link = _link(night, TableEntry.CONFIRM)
    phone_a, phone_b = table_links.device_of(link=link, signed=None)[0], "b" * 16
    submission = _entered(night, link, phone_a)
    assert submission.entered_device == phone_a
    with pytest.raises(NotAllowed) as refused:
        table_links.table_entry_confirm(
            link=link, submission_id=submission.pk, seat=2, device=phone_a
        )
    assert refused.value.code == "confirmer_is_entering_device"
    assert "on their own phone" in refused.value.message
    submission.refresh_from_db()
    assert (submission.status, submission.confirmed_seat) == (
        Submission.Status.AWAITING_CONFIRMATION, None,
    )  # fmt: skip
    confirmed = table_links.table_entry_confirm(
        link=link, submission_id=submission.pk, seat=2, device=phone_b
    )
    assert (confirmed.status, confirmed.confirmed_seat, confirmed.confirmed_device) == (
        Submission.Status.ACCEPTED, 2, phone_b,
    )  # fmt: skip
    assert table_links.device_names(link_id=link.pk) == {phone_a: "phone A", phone_b: "phone B"}


def test_a_link_trusting_one_phone_per_table_lets_it_confirm_as_another_seat(standing):
    night = make_night(standing)
    link = _link(night, TableEntry.ONE_PHONE)
    submission = _entered(night, link, "a" * 16)
    with pytest.raises(NotAllowed):  # still another seat
        table_links.table_entry_confirm(
            link=link, submission_id=submission.pk, seat=1, device="a" * 16
        )
    confirmed = table_links.table_entry_confirm(
        link=link, submission_id=submission.pk, seat=3, device="a" * 16
    )
    assert (confirmed.status, confirmed.entered_device, confirmed.confirmed_device) == (
        Submission.Status.ACCEPTED, "a" * 16, "a" * 16,
    )  # fmt: skip
    assert table_links.device_names(link_id=link.pk) == {"a" * 16: "phone A"}


def test_the_desk_confirms_a_table_entry_as_before(standing):
    night = make_night(standing)
    link = _link(night, TableEntry.CONFIRM)
    submission = _entered(night, link, "a" * 16)
    confirmed = submission_confirm(submission=submission, actor=standing.organiser)
    assert confirmed.status == Submission.Status.ACCEPTED
    assert confirmed.confirmed_by == standing.organiser and confirmed.confirmed_device == ""


def test_a_device_cookie_is_signed_for_its_link(standing):
    night = make_night(standing)
    link = _link(night, TableEntry.CONFIRM)
    device, signed = table_links.device_of(link=link, signed=None)
    assert table_links.device_of(link=link, signed=signed) == (device, signed)
    forged, _ = table_links.device_of(link=link, signed=f"{device}:not-the-signature")
    assert forged != device
    other = table_links.device_of(link=link, signed=None)[0]
    assert other != device and len(device) == 16


def test_a_phones_names_run_past_z():
    assert [table_links._letters(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]
