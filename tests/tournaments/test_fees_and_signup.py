"""Paid fees and the players' own sign-up and check-in, through the services: only paid fees are
in the purse and the prize pool, whatever the order of paying, refunding and withdrawing; the
sign-up takes a name once (a double tap is the same entry), waits beyond the field's size and
closes on time; a player checks in only with the code of the venue."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db.models import Sum
from django.utils import timezone

from config.errors import Conflict, InvalidInput
from ledger.accounts import account_held
from ledger.models import LedgerEntry, Posting
from tests.tournaments.helpers import enter, new_tournament, roster
from tournaments.figures import entries_paid, fees_collected_minor, prize_pool_minor
from tournaments.models import Entry, Tournament
from tournaments.selectors import entry_by_link, tournament_view
from tournaments.services.entries import entry_add, entry_withdraw
from tournaments.services.fees import entries_mark_paid, entry_unmark_paid
from tournaments.services.setup import tournament_cancel, tournament_start
from tournaments.services.signup import (
    CODE_MINUTES,
    check_in_code,
    check_in_code_valid,
    link_hash,
    player_check_in,
    player_sign_up,
    signup_settings_set,
)

FEE, CLUB_FEE = 100, 10
KEY = "k" * 20


def _cup(standing, **options) -> Tournament:
    return new_tournament(standing, entry_fee_minor=FEE, club_fee_minor=CLUB_FEE, **options)


def _balanced(tournament: Tournament) -> None:
    """Every entry of the purse's book sums to zero per quantity."""
    for entry in LedgerEntry.objects.filter(book=tournament.purse):
        for quantity in ("money", "chips"):
            total = Posting.objects.filter(entry=entry, quantity=quantity).aggregate(
                t=Sum("amount")
            )["t"]
            assert (total or 0) == 0, (entry.memo, quantity, total)


def test_no_shows_who_never_paid_are_not_in_the_pool(standing):
    """The issue's case: 8 registered, 6 paid (and played): the pool is 6 x 90, not 8 x 90."""
    cup = _cup(standing)
    field = roster(standing, 8)
    enter(standing, cup, field[:6])  # paid at the desk
    enter(standing, cup, field[6:], paid=False)
    assert prize_pool_minor(tournament=cup) == 6 * (FEE - CLUB_FEE)
    assert account_held(account=cup.purse) == 6 * FEE
    view = tournament_view(tournament=cup)
    assert (view.paid, len(view.counted), view.prize_pool_minor) == (6, 8, 540)


@pytest.mark.parametrize("seed", range(6))
def test_the_pool_is_the_paid_fees_whatever_the_order_of_paying_refunding_and_withdrawing(
    standing, seed
):
    rng = random.Random(seed)
    cup = _cup(standing, max_entries=rng.choice([4, 6, None]))
    players = roster(standing, 9)
    for _ in range(30):
        entries = list(cup.entries.all())
        move = rng.choice(["add", "add", "pay", "pay", "unpay", "withdraw"])
        try:
            if move == "add":
                fresh = [p for p in players if p.pk not in {e.player_id for e in entries}]
                if fresh:
                    entry_add(
                        tournament=cup, actor=standing.organiser, player=rng.choice(fresh),
                        paid=rng.random() < 0.5,
                    )  # fmt: skip
            elif entries and move == "pay":
                ids = [e.pk for e in rng.sample(entries, k=min(len(entries), 3))]
                entries_mark_paid(tournament=cup, actor=standing.organiser, entry_ids=ids)
            elif entries and move == "unpay":
                entry_unmark_paid(
                    tournament=cup, actor=standing.organiser, entry_id=rng.choice(entries).pk
                )
            elif entries:
                entry_withdraw(
                    tournament=cup, actor=standing.organiser, entry_id=rng.choice(entries).pk
                )
        except Conflict:
            pass  # refused (a waitlisted fee, a fee not paid, one withdrawn): nothing changed
        paid = entries_paid(tournament=cup).count()
        assert paid == cup.entries.filter(fee_status=Entry.FeeStatus.PAID).count()
        assert prize_pool_minor(tournament=cup) == paid * (FEE - CLUB_FEE)
        assert fees_collected_minor(tournament=cup) == account_held(account=cup.purse)
        assert account_held(account=cup.purse) == paid * FEE
        waiting = cup.entries.filter(status=Entry.Status.WAITLISTED)
        assert not waiting.filter(fee_status=Entry.FeeStatus.PAID).exists()
    _balanced(cup)


def test_a_waitlisted_fee_is_refused_and_nothing_changes(standing):
    cup = _cup(standing, max_entries=2)
    enter(standing, cup, roster(standing, 3), paid=False)
    waiting = cup.entries.get(status=Entry.Status.WAITLISTED)
    with pytest.raises(Conflict, match="waitlisted"):
        entries_mark_paid(tournament=cup, actor=standing.organiser, entry_ids=[waiting.pk])
    assert account_held(account=cup.purse) == 0
    assert cup.entries.filter(fee_status=Entry.FeeStatus.PAID).count() == 0


def test_a_paid_entry_withdrawn_before_the_start_is_refunded_and_the_next_waits_to_pay(standing):
    cup = _cup(standing, max_entries=2)
    first, second, third = roster(standing, 3)
    enter(standing, cup, [first, second, third])  # the third waits, nothing paid for them
    gone = cup.entries.get(player=first)
    entry_withdraw(tournament=cup, actor=standing.organiser, entry_id=gone.pk)
    gone.refresh_from_db()
    promoted = cup.entries.get(player=third)
    assert gone.fee_status == "due" and promoted.status == "registered"
    assert promoted.fee_status == "due" and account_held(account=cup.purse) == FEE
    entries_mark_paid(tournament=cup, actor=standing.organiser, entry_ids=[promoted.pk])
    assert prize_pool_minor(tournament=cup) == 2 * (FEE - CLUB_FEE)


def test_marks_say_who_and_when_and_twice_is_once(standing):
    cup = _cup(standing)
    enter(standing, cup, roster(standing, 2), paid=False)
    entry = cup.entries.first()
    assert entry is not None
    for _ in range(2):
        entries_mark_paid(tournament=cup, actor=standing.organiser, entry_ids=[entry.pk])
    entry.refresh_from_db()
    assert entry.paid_by == standing.organiser and entry.paid_at is not None
    assert account_held(account=cup.purse) == FEE
    entry_unmark_paid(tournament=cup, actor=standing.organiser, entry_id=entry.pk)
    with pytest.raises(Conflict, match="not marked paid"):
        entry_unmark_paid(tournament=cup, actor=standing.organiser, entry_id=entry.pk)
    assert account_held(account=cup.purse) == 0
    _balanced(cup)


def test_unpaid_entrants_play_and_a_late_payment_counts_and_cancelling_refunds_only_the_paid(
    standing,
):
    cup = _cup(standing, table_max=4)
    enter(standing, cup, roster(standing, 6), paid=False)
    tournament_start(tournament=cup, actor=standing.organiser)
    active = list(cup.entries.filter(status=Entry.Status.ACTIVE))
    entries_mark_paid(
        tournament=cup, actor=standing.organiser, entry_ids=[e.pk for e in active[:4]]
    )
    assert prize_pool_minor(tournament=cup) == 4 * (FEE - CLUB_FEE)
    tournament_cancel(tournament=cup, actor=standing.organiser)
    assert account_held(account=cup.purse) == 0 and prize_pool_minor(tournament=cup) == 0
    with pytest.raises(Conflict, match="settled"):
        entries_mark_paid(tournament=cup, actor=standing.organiser, entry_ids=[active[5].pk])
    _balanced(cup)


# --- the players' own sign-up and check-in -------------------------------------------------------


def test_sign_up_is_closed_until_the_director_opens_it_and_after_its_closing_time(standing):
    cup = _cup(standing)
    with pytest.raises(Conflict, match="sign-up is closed"):
        player_sign_up(tournament=cup, name="Arjun", signup_key=KEY)
    soon = timezone.now() + timedelta(hours=1)
    signup_settings_set(tournament=cup, actor=standing.organiser, open=True, closes_at=soon)
    assert player_sign_up(tournament=cup, name="Arjun", signup_key=KEY).entry.self_signed_up
    with pytest.raises(InvalidInput, match="closing time"):
        signup_settings_set(
            tournament=cup, actor=standing.organiser, open=True,
            closes_at=timezone.now() - timedelta(minutes=1),
        )  # fmt: skip
    cup.signup_closes_at = timezone.now() - timedelta(seconds=1)
    cup.save(update_fields=["signup_closes_at"])
    with pytest.raises(Conflict, match="sign-up is closed"):
        player_sign_up(tournament=cup, name="Bhavna", signup_key="b" * 20)
    assert cup.entries.count() == 1


def test_a_double_tap_is_one_entry_and_the_same_name_twice_is_refused(standing):
    cup = _cup(standing, max_entries=1)
    signup_settings_set(tournament=cup, actor=standing.organiser, open=True, closes_at=None)
    first = player_sign_up(tournament=cup, name=" Arjun  ", signup_key=KEY)
    again = player_sign_up(tournament=cup, name="Arjun", signup_key=KEY)
    assert again.entry.pk == first.entry.pk and cup.entries.count() == 1
    # The second answer's link is the one that works (the browser shows that answer).
    assert entry_by_link(tournament=cup, token_hash=link_hash(again.token)) == first.entry
    with pytest.raises(Conflict, match="signed up already"):
        player_sign_up(tournament=cup, name="arjun", signup_key="x" * 20)
    waiting = player_sign_up(tournament=cup, name="Bhavna", signup_key="y" * 20).entry
    assert waiting.status == Entry.Status.WAITLISTED and first.entry.fee_status == "due"
    with pytest.raises(InvalidInput, match="your name"):
        player_sign_up(tournament=cup, name="   ", signup_key="z" * 20)


def test_a_player_checks_in_only_with_the_current_or_the_previous_code(standing):
    cup = _cup(standing)
    signup_settings_set(tournament=cup, actor=standing.organiser, open=True, closes_at=None)
    entry = player_sign_up(tournament=cup, name="Charu", signup_key=KEY).entry
    now = timezone.now()
    earlier = now - timedelta(minutes=CODE_MINUTES)
    older = now - timedelta(minutes=3 * CODE_MINUTES)
    assert check_in_code_valid(tournament=cup, code=check_in_code(tournament=cup, at=earlier))
    stale = check_in_code(tournament=cup, at=older)
    if stale not in (check_in_code(tournament=cup), check_in_code(tournament=cup, at=earlier)):
        with pytest.raises(InvalidInput, match="check-in code"):
            player_check_in(tournament=cup, entry=entry, code=stale)
    with pytest.raises(InvalidInput, match="check-in code"):
        player_check_in(tournament=cup, entry=entry, code="")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED and entry.checked_in_at is None
    player_check_in(tournament=cup, entry=entry, code=check_in_code(tournament=cup))
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN and entry.checked_in_at is not None


def test_a_name_on_the_roster_is_a_claim_the_desk_confirms(standing):
    cup = _cup(standing)
    signup_settings_set(tournament=cup, actor=standing.organiser, open=True, closes_at=None)
    claim = player_sign_up(tournament=cup, name="asha", signup_key=KEY).entry
    assert claim.player.name == "Asha" and claim.roster_claim
    with pytest.raises(Conflict, match="the desk checks you in"):
        player_check_in(tournament=cup, entry=claim, code=check_in_code(tournament=cup))
    claim.refresh_from_db()
    assert claim.status == Entry.Status.REGISTERED
