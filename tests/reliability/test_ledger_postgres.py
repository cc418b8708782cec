"""PostgreSQL guards the ledger itself: unbalanced entries fail at commit, postings never change."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from scoring.ledger import Line
from scoring.models import LedgerEntry, Posting, Quantity
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
        new_entry = LedgerEntry.objects.create(game_id=entry.game_id, kind="deal")
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO scoring_posting (entry_id, game_id, quantity, account, player_id,"
                " amount) VALUES (%s, %s, 'points', 'player', %s, 5)",
                [new_entry.pk, entry.game_id, posting.player_id],
            )
        # Still inside the transaction the row is there: the check waits for the commit.
        assert Posting.objects.filter(entry=new_entry).count() == 1
    assert not LedgerEntry.objects.filter(pk=new_entry.pk).exists()


def test_balanced_raw_sql_commits(entry):
    a, b = entry.postings.order_by("id").values_list("player_id", flat=True)
    with transaction.atomic(), connection.cursor() as cursor:
        new_entry = LedgerEntry.objects.create(game_id=entry.game_id, kind="deal")
        cursor.execute(
            "INSERT INTO scoring_posting (entry_id, game_id, quantity, account, player_id, amount)"
            " VALUES (%s, %s, 'chips', 'player', %s, 7), (%s, %s, 'chips', 'player', %s, -7)",
            [new_entry.pk, entry.game_id, a, new_entry.pk, entry.game_id, b],
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
