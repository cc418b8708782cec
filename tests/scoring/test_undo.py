"""Undo through the ledger: voiding a counted deal reverses it (where a correction could be
made), a deal opened by mistake is deleted, empty nights, tables and games go, a player leaves
a points table between deals, a closed night reopens, and settle-up transfers are marked paid.
Through all of it the ledger balances and the kept standings equal a recomputation."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.errors import Conflict, NotFoundError
from ledger.books import books_discard
from ledger.models import AccountKind, Book, LedgerEntry, Posting
from scoring import figures
from scoring.accounts import account_open
from scoring.deals import deal_create
from scoring.games import seat_remove, table_create
from scoring.models import Deal, Game, Session, Submission, Table
from scoring.nights import session_close, session_create, session_reopen, transfer_mark_paid
from scoring.undo import deal_delete, deal_void, game_delete, session_delete, table_delete
from tests.scoring.helpers import correct, ledger_balanced, new_game, play, results
from tests.scoring.test_standings import assert_kept_equals_recomputed

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]


def money(game: Game) -> dict[int, int]:
    rows = Posting.objects.filter(book__game=game, account=AccountKind.PLAYER, quantity="money")
    totals: dict[int, int] = {}
    for player, amount in rows.values_list("player_id", "amount"):
        totals[player] = totals.get(player, 0) + amount
    return {p: a for p, a in totals.items() if a}


def test_voiding_a_counted_deal_reverses_it_everywhere(standing):
    game, ids = new_game(standing, "points", FOUR, point_value_minor=10)
    first = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    second = play(standing, game, results(ids, Bilal="winner", Asha=10, Chitra=5, Dev=15))
    only_second = money(game)
    deal_void(deal=first.deal, actor=standing.organiser)
    only_second_after = money(game)
    assert only_second_after != only_second
    void_deal = Deal.objects.get(pk=first.deal_id)
    assert void_deal.status == Deal.Status.VOID
    assert Submission.objects.get(pk=first.pk).status == Submission.Status.VOIDED
    reversal = LedgerEntry.objects.get(book__game=game, kind=LedgerEntry.Kind.REVERSAL)
    assert reversal.deal_id == void_deal.pk
    # What is left is the second deal alone, on the scoreboard and in the standings.
    board = figures.session_scoreboard(session=game.table.session)
    assert {line.player_id: line.money_minor for line in board.lines if line.money_minor} == (
        only_second_after
    )
    assert only_second_after == {ids["Bilal"]: 300, ids["Asha"]: -100, ids["Chitra"]: -50,
                                 ids["Dev"]: -150}  # fmt: skip
    assert ledger_balanced(game)
    assert_kept_equals_recomputed(game)
    assert Submission.objects.get(pk=second.pk).status == Submission.Status.ACCEPTED
    with pytest.raises(Conflict):
        deal_void(deal=void_deal, actor=standing.organiser)


def test_a_deal_a_later_one_builds_on_cannot_be_voided(standing):
    game, ids = new_game(standing, "pool-101", FOUR, entry_fee_minor=100)
    first = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    second = play(standing, game, results(ids, Bilal="winner", Asha=10, Chitra=5, Dev=15))
    entries = LedgerEntry.objects.count()
    with pytest.raises(Conflict) as refused:
        deal_void(deal=first.deal, actor=standing.organiser)
    assert refused.value.code == "not_latest_deal"
    assert LedgerEntry.objects.count() == entries  # nothing changed
    deal_void(deal=second.deal, actor=standing.organiser)  # the latest can go
    assert ledger_balanced(game)
    assert_kept_equals_recomputed(game)


def test_a_closed_night_reopens_for_a_late_void_and_closes_again(standing):
    game, ids = new_game(standing, "points", FOUR, point_value_minor=10)
    counted = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    session = game.table.session
    with TestCase.captureOnCommitCallbacks(execute=True):
        session_close(session=session, actor=standing.organiser)
    with pytest.raises(Conflict):
        deal_void(deal=counted.deal, actor=standing.organiser)
    session_reopen(session=session, actor=standing.organiser)
    with TestCase.captureOnCommitCallbacks(execute=True):
        deal_void(deal=counted.deal, actor=standing.organiser)
        session_close(session=session, actor=standing.organiser)
    assert Session.objects.get(pk=session.pk).status == Session.Status.CLOSED
    assert money(game) == {} and ledger_balanced(game)
    assert_kept_equals_recomputed(game)


def test_a_deal_opened_by_mistake_is_deleted_one_with_history_is_not(standing):
    game, ids = new_game(standing, "points", FOUR)
    mistake = deal_create(game=game, actor=standing.scorer)
    deal_delete(deal=mistake, actor=standing.organiser)
    assert not Deal.objects.filter(pk=mistake.pk).exists()
    refused = play(standing, game, results(ids, Asha="winner"), expect="rejected")
    with pytest.raises(Conflict) as kept:
        deal_delete(deal=refused.deal, actor=standing.organiser)
    assert kept.value.code == "deal_has_history" and Deal.objects.filter(pk=refused.deal_id)


def test_a_never_played_deal_is_deleted_though_later_deals_were_played(standing):
    game, ids = new_game(standing, "points", FOUR)
    empty = deal_create(game=game, actor=standing.scorer)
    later = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    deal_delete(deal=empty, actor=standing.organiser)
    assert not Deal.objects.filter(pk=empty.pk).exists()
    assert Deal.objects.get(pk=later.deal_id).number == 2 and ledger_balanced(game)


def test_empty_games_tables_and_nights_are_deleted_played_ones_are_not(standing):
    game, ids = new_game(standing, "points", FOUR)
    session = game.table.session
    spare = table_create(session=session, actor=standing.organiser, name="Spare")
    table_delete(table=spare, actor=standing.organiser)
    assert not Table.objects.filter(pk=spare.pk).exists()
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    for attempt in (
        lambda: game_delete(game=game, actor=standing.organiser),
        lambda: table_delete(table=game.table, actor=standing.organiser),
        lambda: session_delete(session=session, actor=standing.organiser),
    ):
        with pytest.raises(Conflict) as refused:
            attempt()
        assert refused.value.code == "not_empty"
    other, _ = new_game(standing, "points", FOUR)
    game_delete(game=other, actor=standing.organiser)
    assert not Game.objects.filter(pk=other.pk).exists()
    empty = session_create(club=standing.club, actor=standing.organiser, name="Oops")
    session_delete(session=empty, actor=standing.organiser)
    assert not Session.objects.filter(pk=empty.pk).exists()


def test_what_is_deleted_before_anything_was_posted_takes_its_empty_books_along(standing):
    game, ids = new_game(standing, "points", FOUR)
    kept = game.book_id
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    session = game.table.session
    spare = table_create(session=session, actor=standing.organiser, name="Spare")
    spare_game, _ = new_game(standing, "points", FOUR)
    lone, _ = new_game(standing, "points", FOUR)
    empty_books = [spare_game.book_id, lone.book_id]
    game_delete(game=lone, actor=standing.organiser)
    table_delete(table=spare_game.table, actor=standing.organiser)
    table_delete(table=spare, actor=standing.organiser)
    night = session_create(club=standing.club, actor=standing.organiser, name="Oops")
    purse = account_open(session=night, name="Purse", actor=standing.organiser)
    session_delete(session=night, actor=standing.organiser)
    assert not Book.objects.filter(pk__in=[*empty_books, purse.pk]).exists()
    assert Book.objects.filter(pk=kept).exists()
    assert books_discard(book_ids=[kept]) == 0  # a book with entries is history


def test_a_player_leaves_a_points_table_between_deals(standing):
    game, ids = new_game(standing, "points", [*FOUR, "Esther"], point_value_minor=10)
    first = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40,
                                         Esther=10))  # fmt: skip
    dev = game.seats.get(player_id=ids["Dev"]).player
    seat_remove(game=game, actor=standing.organiser, player=dev)
    assert game.seats.get(player_id=ids["Dev"]).left_after_deal == 1
    play(standing, game, results(ids, Bilal="winner", Asha=10, Chitra=5, Esther=7))
    with_dev = play(standing, game, results(ids, Bilal="winner", Asha=10, Chitra=5, Dev=3,
                                            Esther=7), expect="rejected")  # fmt: skip
    assert with_dev.reasons
    # The first deal still had Dev: a correction of it names him too.
    fixed = correct(standing, first.deal, results(ids, Asha="winner", Bilal=25, Chitra=30,
                                                  Dev=40, Esther=10))  # fmt: skip
    assert fixed.status == Submission.Status.ACCEPTED, fixed.reasons
    assert money(game)[ids["Dev"]] == -400
    assert ledger_balanced(game)
    with pytest.raises(Conflict) as again:
        seat_remove(game=game, actor=standing.organiser, player=dev)
    assert again.value.code == "not_seated"


def test_settle_up_transfers_are_marked_paid_for_their_amount(standing):
    game, ids = new_game(standing, "points", FOUR, point_value_minor=10)
    first = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    session = game.table.session
    transfer = figures.session_settlement(session=session)[0]
    transfer_mark_paid(session=session, actor=standing.organiser,
                                payer=transfer.payer_key, payee=transfer.payee_key)  # fmt: skip
    marked = figures.session_settlement(session=session)[0]
    assert marked.paid is not None and marked.paid.marked_by == standing.organiser
    api = standing.client("organiser").get(f"/api/v1/clubs/home/sessions/{session.pk}/settlement/")
    assert api.json()["transfers"][0]["paid"]["by"] == standing.organiser.username
    # A correction changes what is owed: the mark was for another amount and no longer counts.
    correct(standing, first.deal, results(ids, Asha="winner", Bilal=25, Chitra=30, Dev=40))
    assert all(t.paid is None for t in figures.session_settlement(session=session))
    with pytest.raises(NotFoundError) as unknown:
        transfer_mark_paid(session=session, actor=standing.organiser,
                                    payer="player:0", payee="club")  # fmt: skip
    assert unknown.value.code == "no_transfer"


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.lists(st.tuples(st.integers(0, 3), st.lists(st.integers(2, 80), min_size=3,
                                                      max_size=3), st.booleans()),
                min_size=1, max_size=6))  # fmt: skip
def test_any_deals_and_voids_keep_the_ledger_and_standings_whole(standing, deals: list[Any]):
    game, ids = new_game(standing, "points", FOUR, point_value_minor=5)
    names = list(ids)
    for winner, points, void in deals:
        losers = [n for i, n in enumerate(names) if i != winner]
        counted = play(standing, game, results(
            ids, **{names[winner]: "winner"}, **dict(zip(losers, points, strict=True))
        ))  # fmt: skip
        if void:
            deal_void(deal=counted.deal, actor=standing.organiser)
    assert ledger_balanced(game)
    assert_kept_equals_recomputed(game)
    kept_money = money(game)
    counted_only = sum(1 for _, _, void in deals if not void)
    assert (kept_money == {}) == (counted_only == 0)


def test_a_voided_deal_cannot_be_corrected_back_to_life(standing):
    """A correction of a voided deal would bring its result back without undoing the void's
    reversal in the audit trail: refused, named; the deal stays voided and the ledger as it was."""
    game, ids = new_game(standing, "points", FOUR, point_value_minor=10)
    first = play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30, Dev=40))
    deal_void(deal=first.deal, actor=standing.organiser)
    after_void = money(game)
    with pytest.raises(Conflict) as refused:
        correct(standing, first.deal, results(ids, Bilal="winner", Asha=10, Chitra=5, Dev=15))
    assert refused.value.code == "deal_voided"
    assert f"deal {first.deal.number} was voided" in str(refused.value)
    assert Deal.objects.get(pk=first.deal_id).status == Deal.Status.VOID
    assert Submission.objects.filter(deal=first.deal).count() == 1
    assert money(game) == after_void
    assert ledger_balanced(game)
