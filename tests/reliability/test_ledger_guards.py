"""The ledger's history, guarded by PostgreSQL itself (scoring migrations 0010, 0011, 0028; the
audit log's, clubs 0018): raw SQL, as someone with a database console would write it, is
refused."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from ledger.models import LedgerEntry, Posting
from scoring.deals import deal_create, submission_create
from scoring.models import PlayerResult, StandingRow, Submission
from tests.scoring.conftest import make_night

# Committed for real: each test runs after the transaction that wrote the ledger ended, and
# the flush after it shows that the test runner can still empty the tables.
pytestmark = pytest.mark.usefixtures("postgres_tx")


def _refused(sql: str, params: list | None = None) -> str:
    with (
        pytest.raises(DatabaseError) as refused,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, params or [])
    return str(refused.value)


@pytest.fixture
def scored(standing):
    """One deal entered and counted."""
    night = make_night(standing)
    deal = deal_create(game=night.game, actor=standing.scorer)
    payload = {
        "results": night.results(
            Asha={"outcome": "loser", "points": 10},
            Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "loser", "points": 30},
            Dev={"outcome": "first_drop"},
            Esther={"outcome": "middle_drop"},
            Farid={"outcome": "winner"},
        )
    }
    submission = submission_create(deal=deal, actor=standing.scorer, source="api", payload=payload)
    submission.refresh_from_db()
    assert submission.status == "accepted"
    return night, submission


@pytest.mark.parametrize(
    "table",
    ["scoring_posting", "scoring_ledgerentry", "scoring_playerresult", "scoring_submission"],
)
def test_truncate_is_refused(scored, table):
    assert "TRUNCATE refused" in _refused(f"TRUNCATE {table} CASCADE")


def test_an_old_entry_cannot_gain_balanced_postings(scored):
    _, submission = scored
    entry = LedgerEntry.objects.get(submission=submission)
    posting = Posting.objects.filter(entry=entry).first()
    before = Posting.objects.filter(entry=entry).count()
    message = _refused(
        "INSERT INTO scoring_posting (entry_id, book_id, quantity, account, player_id, amount)"
        " VALUES (%s, %s, %s, %s, %s, 5), (%s, %s, %s, %s, %s, -5)",
        [entry.pk, posting.book_id, posting.quantity, posting.account, posting.player_id] * 2,
    )
    assert "earlier transaction" in message
    assert Posting.objects.filter(entry=entry).count() == before


def test_player_results_never_change(scored):
    _, submission = scored
    result = PlayerResult.objects.filter(submission=submission).first()
    assert "append-only" in _refused(
        "UPDATE scoring_playerresult SET points = points + 1 WHERE id = %s", [result.pk]
    )
    assert "append-only" in _refused("DELETE FROM scoring_playerresult WHERE id = %s", [result.pk])


def test_standing_rows_keep_their_scope_and_player(scored):
    night, _ = scored
    row = StandingRow.objects.filter(player_id=night.pid("Asha")).first()
    other = night.pid("Bilal")
    assert "cannot change" in _refused(
        "UPDATE scoring_standingrow SET player_id = %s WHERE id = %s", [other, row.pk]
    )
    assert "cannot change" in _refused(
        "UPDATE scoring_standingrow SET scope_id = scope_id + 1 WHERE id = %s", [row.pk]
    )


def test_standing_totals_move_only_with_the_ledger(scored, standing):
    """A row's totals by hand are refused (scoring 0028); a deal through the services, which
    posts its ledger entries in the same transaction, moves them."""
    night, _ = scored
    row = StandingRow.objects.filter(player_id=night.pid("Asha")).first()
    points = row.points
    assert "move only with the ledger" in _refused(
        "UPDATE scoring_standingrow SET points = points + 100 WHERE id = %s", [row.pk]
    )
    assert "not deleted" in _refused("DELETE FROM scoring_standingrow WHERE id = %s", [row.pk])
    row.refresh_from_db()
    assert row.points == points
    deal = deal_create(game=night.game, actor=standing.scorer)
    results = night.results(
        Asha={"outcome": "loser", "points": 40},
        Bilal={"outcome": "winner"},
        Chitra={"outcome": "first_drop"},
        Dev={"outcome": "first_drop"},
        Esther={"outcome": "first_drop"},
        Farid={"outcome": "first_drop"},
    )
    submission_create(deal=deal, actor=standing.scorer, source="api", payload={"results": results})
    row.refresh_from_db()
    assert row.points != points


def test_the_audit_log_is_kept_as_written(scored, standing):
    """No audit entry changes or goes (clubs 0018), except that a deleted person's entries
    keep what was done without who did it."""
    from clubs.models import AuditEntry

    entry = AuditEntry.objects.filter(club=standing.club).first()
    assert entry is not None
    assert "kept as written" in _refused(
        "UPDATE clubs_auditentry SET action = 'nothing' WHERE id = %s", [entry.pk]
    )
    assert "kept as written" in _refused("DELETE FROM clubs_auditentry WHERE id = %s", [entry.pk])
    assert "kept as written" in _refused(
        "UPDATE clubs_auditentry SET actor_id = NULL, after = '{}' WHERE id = %s", [entry.pk]
    )
    with connection.cursor() as cursor:  # the actor's own deletion (SET NULL) goes through
        cursor.execute("UPDATE clubs_auditentry SET actor_id = NULL WHERE id = %s", [entry.pk])
    entry.refresh_from_db()
    assert entry.actor_id is None and entry.action != "nothing"


def test_submissions_move_only_along_the_services_transitions(scored):
    _, submission = scored
    assert "not a transition" in _refused(
        "UPDATE scoring_submission SET status = 'pending' WHERE id = %s", [submission.pk]
    )
    assert "not a transition" in _refused(
        "UPDATE scoring_submission SET status = 'rejected' WHERE id = %s", [submission.pk]
    )
    assert "cannot change" in _refused(
        "UPDATE scoring_submission SET payload = '{}' WHERE id = %s", [submission.pk]
    )
    with connection.cursor() as cursor:  # accepted -> superseded is how a correction goes
        cursor.execute(
            "UPDATE scoring_submission SET status = 'superseded' WHERE id = %s", [submission.pk]
        )
    assert Submission.objects.get(pk=submission.pk).status == "superseded"
