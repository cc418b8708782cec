"""PostgreSQL guards on the kept standing rows, beside their kept identity (0011): a row's totals
move only in a transaction that wrote ledger entries (every deal, correction, void and account
entry posts them with the totals, ``scoring.standing_rows``), or hands a merged player's rows to
the player they were merged into. An ``UPDATE`` of the totals on its own (by hand, or by code
that forgot the ledger) and a ``DELETE`` of a player's rows are refused.

The ledger entries' insert notes, once a statement, a transaction-local setting that the rows'
trigger reads. The setting proves only that the transaction wrote entries, as the services do:
it stops a stray write, not a role that sets it on purpose (the ledger's own rows are guarded
by their writer's transaction id, scoring 0014)."""

from django.db import migrations

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION scoring_note_ledger_written() RETURNS trigger AS $$
    BEGIN
        PERFORM set_config('rummyclub.ledger_written', 'on', true);
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER scoring_ledgerentry_note_written AFTER INSERT ON scoring_ledgerentry
        FOR EACH STATEMENT EXECUTE FUNCTION scoring_note_ledger_written();
    """,
    """
    CREATE OR REPLACE FUNCTION scoring_standingrow_moves_with_ledger() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            -- A merged player's rows, handed to the player kept.
            IF EXISTS (
                SELECT 1 FROM clubs_player WHERE id = OLD.player_id AND merged_into_id IS NOT NULL
            ) THEN
                RETURN OLD;
            END IF;
            RAISE EXCEPTION 'standing row %: kept totals are not deleted', OLD.id
                USING ERRCODE = 'restrict_violation';
        END IF;
        IF coalesce(current_setting('rummyclub.ledger_written', true), '') = 'on' THEN
            RETURN NEW;
        END IF;
        IF EXISTS (
            SELECT 1 FROM clubs_player
            WHERE id::text = coalesce(current_setting('rummyclub.merged_player', true), '')
              AND merged_into_id = NEW.player_id
        ) THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'standing row %: its totals move only with the ledger entries of the same transaction', OLD.id
            USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER scoring_standingrow_moves_with_ledger BEFORE UPDATE OR DELETE
        ON scoring_standingrow
        FOR EACH ROW EXECUTE FUNCTION scoring_standingrow_moves_with_ledger();
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS scoring_standingrow_moves_with_ledger ON scoring_standingrow;",
    "DROP FUNCTION IF EXISTS scoring_standingrow_moves_with_ledger();",
    "DROP TRIGGER IF EXISTS scoring_ledgerentry_note_written ON scoring_ledgerentry;",
    "DROP FUNCTION IF EXISTS scoring_note_ledger_written();",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # elsewhere the services are the guard
    for statement in FORWARD:
        schema_editor.execute(statement, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for statement in BACKWARD:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0027_sync_touches_and_tombstones")]

    operations = [migrations.RunPython(forward, backward)]
