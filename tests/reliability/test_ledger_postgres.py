"""PostgreSQL guards the ledger itself: unbalanced entries fail at commit, postings never change."""

from __future__ import annotations

import threading
import time
from contextlib import nullcontext

import pytest
from django.db import IntegrityError, connection, connections, transaction

from ledger.models import LedgerEntry, Posting, Quantity
from ledger.writer import Line
from scoring.posting import ledger_entry_create
from tests.scoring.conftest import make_night

pytestmark = pytest.mark.usefixtures("postgres_tx")


@pytest.fixture
def entry(standing):
    night = make_night(standing)
    a, b = night.pid("Asha"), night.pid("Bilal")
    with transaction.atomic():
        created = ledger_entry_create(
            game=night.game,
            kind=LedgerEntry.Kind.DEAL,
            lines=[Line.player(Quantity.POINTS, a, 30), Line.player(Quantity.POINTS, b, -30)],
        )
    return created


def test_unbalanced_posting_by_raw_sql_is_refused_at_commit(entry):
    # A new entry: postings to an entry of an earlier transaction are refused at once
    # (tests/reliability/test_ledger_guards.py).
    posting = entry.postings.first()
    with pytest.raises(IntegrityError, match="does not balance"), transaction.atomic():
        new_entry = LedgerEntry.objects.create(book_id=entry.book_id, kind="deal")
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO scoring_posting (entry_id, book_id, quantity, account, player_id,"
                " amount) VALUES (%s, %s, 'points', 'player', %s, 5)",
                [new_entry.pk, entry.book_id, posting.player_id],
            )
        # Still inside the transaction the row is there: the check waits for the commit.
        assert Posting.objects.filter(entry=new_entry).count() == 1
    assert not LedgerEntry.objects.filter(pk=new_entry.pk).exists()


def test_balanced_raw_sql_commits(entry):
    a, b = entry.postings.order_by("id").values_list("player_id", flat=True)
    with transaction.atomic(), connection.cursor() as cursor:
        new_entry = LedgerEntry.objects.create(book_id=entry.book_id, kind="deal")
        cursor.execute(
            "INSERT INTO scoring_posting (entry_id, book_id, quantity, account, player_id, amount)"
            " VALUES (%s, %s, 'chips', 'player', %s, 7), (%s, %s, 'chips', 'player', %s, -7)",
            [new_entry.pk, entry.book_id, a, new_entry.pk, entry.book_id, b],
        )
    assert Posting.objects.filter(entry=new_entry).count() == 2


def test_update_of_a_posting_is_refused(entry):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        Posting.objects.filter(entry=entry).update(amount=0)
    assert sorted(Posting.objects.values_list("amount", flat=True)) == [-30, 30]


def test_delete_of_a_posting_is_refused(entry):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        Posting.objects.filter(entry=entry).delete()
    assert Posting.objects.count() == 2


def test_ledger_entries_are_append_only_too(entry):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).update(memo="changed")


def _add_postings(entry_id: int, book_id: int, a: int, b: int) -> None:
    """Two balanced postings for ``entry_id``, by raw SQL, as a database console would."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO scoring_posting (entry_id, book_id, quantity, account, player_id, amount)"
            " VALUES (%s, %s, 'chips', 'player', %s, 3), (%s, %s, 'chips', 'player', %s, -3)",
            [entry_id, book_id, a, entry_id, book_id, b],
        )


def test_postings_for_this_transactions_entries_pass_across_savepoints(entry):
    # Django nests atomic() blocks as savepoints, each with its own transaction id: an entry
    # written in one may gain postings in another, at the top level, or deeper.
    a, b = entry.postings.order_by("id").values_list("player_id", flat=True)
    book_id = entry.book_id
    with transaction.atomic():
        top = LedgerEntry.objects.create(book_id=book_id, kind="deal")
        with transaction.atomic():
            in_savepoint = LedgerEntry.objects.create(book_id=book_id, kind="deal")
            with transaction.atomic():
                deeper = LedgerEntry.objects.create(book_id=book_id, kind="deal")
                _add_postings(top.pk, book_id, a, b)
        with transaction.atomic():  # a later savepoint: the earlier one was released
            _add_postings(in_savepoint.pk, book_id, a, b)
            with transaction.atomic():
                _add_postings(deeper.pk, book_id, a, b)
        _add_postings(deeper.pk, book_id, a, b)
    assert Posting.objects.filter(entry=top).count() == 2
    assert Posting.objects.filter(entry=in_savepoint).count() == 2
    assert Posting.objects.filter(entry=deeper).count() == 4


def test_an_earlier_entry_is_refused_inside_savepoints(entry):
    a, b = entry.postings.order_by("id").values_list("player_id", flat=True)
    with transaction.atomic():
        own = LedgerEntry.objects.create(book_id=entry.book_id, kind="deal")
        with transaction.atomic():
            LedgerEntry.objects.create(book_id=entry.book_id, kind="deal")
            with (
                pytest.raises(IntegrityError, match="earlier transaction"),
                transaction.atomic(),
            ):
                _add_postings(entry.pk, entry.book_id, a, b)
        _add_postings(own.pk, entry.book_id, a, b)
    assert Posting.objects.filter(entry=entry).count() == 2
    assert Posting.objects.filter(entry=own).count() == 2


def test_an_entry_committed_meanwhile_by_another_transaction_is_refused(entry):
    # The other transaction starts after this one and commits first: its entry is visible here
    # (read committed) and its id comes after this transaction's, as a savepoint's would.
    a, b = entry.postings.order_by("id").values_list("player_id", flat=True)
    theirs: list[int] = []

    def write_elsewhere() -> None:
        try:
            with transaction.atomic():
                theirs.append(LedgerEntry.objects.create(book_id=entry.book_id, kind="deal").pk)
                _add_postings(theirs[0], entry.book_id, a, b)
        finally:
            connections.close_all()

    with transaction.atomic():
        own = LedgerEntry.objects.create(book_id=entry.book_id, kind="deal")
        other = threading.Thread(target=write_elsewhere)
        other.start()
        other.join(timeout=30)
        assert theirs and LedgerEntry.objects.filter(pk=theirs[0]).exists()
        for nested in (False, True):
            with (
                pytest.raises(IntegrityError, match="earlier transaction"),
                transaction.atomic(),
                transaction.atomic() if nested else nullcontext(),
            ):
                _add_postings(theirs[0], entry.book_id, a, b)
        _add_postings(own.pk, entry.book_id, a, b)
    assert Posting.objects.filter(entry_id=theirs[0]).count() == 2


BULK_POSTINGS = 100_000


def test_a_hundred_thousand_postings_in_one_transaction(entry):
    # The guard costs the same for every posting however many the transaction already wrote
    # (scoring 0014; with 0011's list, 40,000 postings took 13 s and 100,000 took 109 s). In
    # savepoints, as services called inside a transaction write, the guard's longer way.
    # Measured: docs/performance.md, "Bulk ledger writes".
    a, b = entry.postings.order_by("id").values_list("player_id", flat=True)
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        with transaction.atomic():
            cursor.execute(
                "INSERT INTO scoring_ledgerentry (book_id, kind, memo, created_at)"
                " SELECT %s, 'deal', 'bulk', now() FROM generate_series(1, %s)",
                [entry.book_id, BULK_POSTINGS // 2],
            )
        with transaction.atomic():
            posting_started = time.perf_counter()
            cursor.execute(
                "INSERT INTO scoring_posting (entry_id, book_id, quantity, account, player_id,"
                " amount) SELECT e.id, e.book_id, 'points', 'player', line.player_id,"
                " line.amount FROM scoring_ledgerentry e CROSS JOIN (VALUES (%s, 7), (%s, -7))"
                " AS line (player_id, amount) WHERE e.id > %s",
                [a, b, entry.pk],
            )
            posting = time.perf_counter() - posting_started
            assert cursor.rowcount == BULK_POSTINGS
    # The commit runs the balance check (0002) once per posting: linear, and most of the time.
    whole = time.perf_counter() - started
    assert Posting.objects.filter(entry__memo="bulk").count() == BULK_POSTINGS
    assert posting < 20, f"{BULK_POSTINGS:,} postings written in {posting:.1f} s"
    assert whole < 40, f"{BULK_POSTINGS:,} postings written and committed in {whole:.1f} s"
