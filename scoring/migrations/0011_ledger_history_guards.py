"""PostgreSQL guards on the ledger's history, beside those of 0002:

- TRUNCATE of postings, ledger entries, player results and submissions is refused (statement-level
  triggers; a flush by the test runner turns triggers off with session_replication_role).
- A ledger entry gains postings only in the transaction that wrote it: each new entry's id is noted
  in a transaction-local setting, and a posting for any other entry is refused.
- Player results never change (no UPDATE, no DELETE).
- Standing rows keep their club, scope, format and player (their totals move).
- Submissions keep what was entered (deal, version, payload, source, who) and their status moves
  only along the transitions the services make (a voided deal's counted version included)."""

from django.db import migrations

FUNCTIONS = [
    """
    CREATE OR REPLACE FUNCTION scoring_refuse_truncate() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '% keeps history: TRUNCATE refused', TG_TABLE_NAME
            USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE OR REPLACE FUNCTION scoring_ledgerentry_note_new() RETURNS trigger AS $$
    BEGIN
        PERFORM set_config(
            'rummyclub.new_entries',
            coalesce(current_setting('rummyclub.new_entries', true), '') || NEW.id || ',',
            true
        );
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE OR REPLACE FUNCTION scoring_posting_entry_is_new() RETURNS trigger AS $$
    BEGIN
        IF position(
            ',' || NEW.entry_id || ',' IN
            ',' || coalesce(current_setting('rummyclub.new_entries', true), '')
        ) = 0 THEN
            RAISE EXCEPTION 'ledger entry % was written by an earlier transaction: no postings can be added to it', NEW.entry_id
                USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE OR REPLACE FUNCTION scoring_standingrow_keep_identity() RETURNS trigger AS $$
    BEGIN
        IF NEW.club_id <> OLD.club_id OR NEW.scope <> OLD.scope
           OR NEW.scope_id <> OLD.scope_id OR NEW.game_format <> OLD.game_format
           OR NEW.player_id <> OLD.player_id THEN
            RAISE EXCEPTION 'standing row %: its scope and player cannot change', OLD.id
                USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE OR REPLACE FUNCTION scoring_submission_transition() RETURNS trigger AS $$
    BEGIN
        IF NEW.deal_id <> OLD.deal_id OR NEW.version <> OLD.version
           OR NEW.payload::jsonb <> OLD.payload::jsonb OR NEW.source <> OLD.source
           OR NEW.submitted_by_id IS DISTINCT FROM OLD.submitted_by_id THEN
            RAISE EXCEPTION 'submission %: what was entered cannot change', OLD.id
                USING ERRCODE = 'restrict_violation';
        END IF;
        IF NEW.status <> OLD.status AND NOT (
            (OLD.status = 'pending'
                AND NEW.status IN ('accepted', 'awaiting_confirmation', 'rejected', 'superseded'))
            OR (OLD.status = 'awaiting_confirmation'
                AND NEW.status IN ('accepted', 'rejected', 'superseded'))
            OR (OLD.status = 'accepted' AND NEW.status = 'superseded')
            OR (OLD.status IN ('accepted', 'awaiting_confirmation') AND NEW.status = 'voided')
        ) THEN
            RAISE EXCEPTION 'submission %: % -> % is not a transition', OLD.id, OLD.status, NEW.status
                USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
]

TRIGGERS = [
    *[
        f"""
        CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
            FOR EACH STATEMENT EXECUTE FUNCTION scoring_refuse_truncate();
        """
        for table in (
            "scoring_posting", "scoring_ledgerentry", "scoring_playerresult", "scoring_submission"
        )
    ],
    """
    CREATE TRIGGER scoring_ledgerentry_note_new AFTER INSERT ON scoring_ledgerentry
        FOR EACH ROW EXECUTE FUNCTION scoring_ledgerentry_note_new();
    """,
    """
    CREATE TRIGGER scoring_posting_entry_is_new BEFORE INSERT ON scoring_posting
        FOR EACH ROW EXECUTE FUNCTION scoring_posting_entry_is_new();
    """,
    """
    CREATE TRIGGER scoring_playerresult_append_only BEFORE UPDATE OR DELETE ON scoring_playerresult
        FOR EACH ROW EXECUTE FUNCTION scoring_refuse_change();
    """,
    """
    CREATE TRIGGER scoring_standingrow_keep_identity BEFORE UPDATE ON scoring_standingrow
        FOR EACH ROW EXECUTE FUNCTION scoring_standingrow_keep_identity();
    """,
    """
    CREATE TRIGGER scoring_submission_transition BEFORE UPDATE ON scoring_submission
        FOR EACH ROW EXECUTE FUNCTION scoring_submission_transition();
    """,
]

BACKWARD = [
    *[
        f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};"
        for table in (
            "scoring_posting", "scoring_ledgerentry", "scoring_playerresult", "scoring_submission"
        )
    ],
    "DROP TRIGGER IF EXISTS scoring_ledgerentry_note_new ON scoring_ledgerentry;",
    "DROP TRIGGER IF EXISTS scoring_posting_entry_is_new ON scoring_posting;",
    "DROP TRIGGER IF EXISTS scoring_playerresult_append_only ON scoring_playerresult;",
    "DROP TRIGGER IF EXISTS scoring_standingrow_keep_identity ON scoring_standingrow;",
    "DROP TRIGGER IF EXISTS scoring_submission_transition ON scoring_submission;",
    "DROP FUNCTION IF EXISTS scoring_submission_transition();",
    "DROP FUNCTION IF EXISTS scoring_standingrow_keep_identity();",
    "DROP FUNCTION IF EXISTS scoring_posting_entry_is_new();",
    "DROP FUNCTION IF EXISTS scoring_ledgerentry_note_new();",
    "DROP FUNCTION IF EXISTS scoring_refuse_truncate();",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # elsewhere the services are the guard
    for statement in [*FUNCTIONS, *TRIGGERS]:
        schema_editor.execute(statement, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for statement in BACKWARD:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0010_undo_and_paid_transfers")]

    operations = [migrations.RunPython(forward, backward)]
