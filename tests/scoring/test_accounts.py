"""A session's money account (``scoring.accounts``): a book of its own, paid into, refunded, paid
out with the rest to the club, paid out again, or every payment given back; each entry balanced,
in the night's figures and standings, and a game's book never taken for an account."""

from __future__ import annotations

import pytest
from django.db import transaction

from config.errors import Conflict
from ledger.accounts import account_chips, account_held, account_paid_in, account_paid_out
from ledger.models import LedgerEntry
from rules.errors import InvariantError
from scoring import accounts, figures
from scoring.models import ACCOUNT_BOOK, SessionAccount
from scoring.nights import session_create
from standings.recompute import standings_recompute
from tests.scoring.helpers import ledger_balanced, new_game


@pytest.fixture
def account(standing):
    session = session_create(club=standing.club, actor=standing.organiser, name="Cup")
    return accounts.account_open(session=session, name="Purse", actor=standing.organiser)


def _held(account):
    return SessionAccount.objects.select_related("session").get(book=account)


def test_paid_in_refunded_and_paid_out_with_the_rest_to_the_club(standing, account):
    asha, bilal, chitra = standing.club.players.order_by("name")
    for player in (asha, bilal, chitra):
        accounts.account_pay_in(account=account, player=player, amount_minor=1000, memo="fee")
    assert accounts.account_refund(account=account, player=chitra, memo="back") == 1000
    assert account_paid_in(account=account) == {asha.pk: 1000, bilal.pk: 1000}
    assert account_held(account=account) == 2000
    assert account.owner == ACCOUNT_BOOK and accounts.account_is_open(account=account)
    assert not hasattr(account, "game")  # no table, seat or preset: a book of its own

    with transaction.atomic():
        accounts.account_close(account=account, actor=None, shares={asha.pk: 1500}, memo="prizes")
    assert _held(account).status == SessionAccount.Status.PAID_OUT
    assert account_held(account=account) == 0
    assert account_paid_out(account=account) == {asha.pk: 1500}

    accounts.account_pay_out_again(
        account=account, shares={bilal.pk: 1200}, memo="again", reversal_memo="undone"
    )
    assert account_paid_out(account=account) == {bilal.pk: 1200}
    kinds = list(account.entries.order_by("id").values_list("kind", flat=True))
    assert kinds[-3:] == [
        LedgerEntry.Kind.PAYOUT,
        LedgerEntry.Kind.REVERSAL,
        LedgerEntry.Kind.PAYOUT,
    ]
    session = _held(account).session
    board = figures.session_scoreboard(session=session)
    assert sum(line.money_minor for line in board.lines) == -2000 + 1200
    recomputed = standings_recompute(scope="session", scope_id=session.pk)
    assert {pid: t["money_minor"] for pid, t in recomputed.items()} == {
        asha.pk: -1000,
        bilal.pk: -1000 + 1200,
    }
    assert ledger_balanced()


def test_abandoned_gives_everyone_back_what_they_paid(standing, account):
    asha, bilal, _ = standing.club.players.order_by("name")
    accounts.account_pay_in(account=account, player=asha, amount_minor=700, memo="fee")
    accounts.account_pay_in(account=account, player=bilal, amount_minor=300, memo="fee")
    with transaction.atomic():
        accounts.account_close(account=account, actor=None, shares=None, memo="")
    assert _held(account).status == SessionAccount.Status.REFUNDED
    assert account_held(account=account) == 0
    assert account_paid_in(account=account) == {}
    with pytest.raises(Conflict):
        accounts.account_pay_in(account=account, player=asha, amount_minor=1, memo="late")


def test_a_payout_is_never_more_than_the_account_holds(standing, account):
    asha = standing.club.players.order_by("name").first()
    accounts.account_pay_in(account=account, player=asha, amount_minor=500, memo="fee")
    with pytest.raises(Conflict), transaction.atomic():
        accounts.account_close(account=account, actor=None, shares={asha.pk: 501}, memo="x")


def test_a_games_book_is_no_account(standing):
    game, ids = new_game(standing, "points", ["Asha", "Bilal"])
    player = standing.club.players.get(pk=ids["Asha"])
    with pytest.raises(Conflict) as refused:
        accounts.account_pay_in(account=game.book, player=player, amount_minor=100, memo="fee")
    assert refused.value.code == "not_account"


def test_chips_kept_in_an_account_beside_its_money(standing, account):
    """Chips given from the account, moved among its players (zero-sum), read back; money
    untouched, and a move that does not sum to zero refused."""
    asha, bilal, _ = standing.club.players.order_by("name")
    for player in (asha, bilal):
        accounts.account_pay_in(account=account, player=player, amount_minor=500, memo="fee")
    accounts.account_chips_issue(account=account, chips={asha.pk: 1000, bilal.pk: 1000}, memo="")
    accounts.account_chips_move(account=account, moves={asha.pk: 250, bilal.pk: -250}, memo="t1")
    assert account_chips(account=account) == {asha.pk: 1250, bilal.pk: 750}
    assert account_held(account=account) == 1000
    assert account_paid_in(account=account) == {asha.pk: 500, bilal.pk: 500}
    with pytest.raises(InvariantError):
        accounts.account_chips_move(account=account, moves={asha.pk: 10}, memo="unbalanced")
    assert account_chips(account=account) == {asha.pk: 1250, bilal.pk: 750}
    assert ledger_balanced()
