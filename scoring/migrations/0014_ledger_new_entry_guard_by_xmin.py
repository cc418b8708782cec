"""A ledger entry gains postings only in the transaction that wrote it (scoring 0011), now decided
from the entry row itself, in constant time per posting.

0011 noted every new entry's id in a transaction-local setting and searched that growing list on
each posting: a transaction writing n postings took time in n². Here the posting's trigger reads
the entry row's ``xmin`` (the id of the transaction that wrote it; entries are never updated, so
it stays the writer's) and accepts the posting only if that is one of this transaction's own ids:

- its top-level id, ``pg_current_xact_id()`` (an ``xid8``; the cast to ``xid`` takes its low 32
  bits, as ``xmin`` is);
- or the id of one of its savepoints (Django's nested ``atomic()``), which PostgreSQL assigns
  after the top-level one: the 32-bit ``xmin`` is widened to an ``xid8`` by its distance after
  the top-level id, and ``pg_xact_status`` answers 'in progress' for it. A row the trigger can
  see whose writer is still in progress is this transaction's own: another transaction's
  uncommitted rows are invisible.

Anything else (an entry committed by another transaction, earlier or meanwhile, or no such entry)
is refused as before. The list's trigger on ledger entries and its function go; the setting they
filled was transaction-local and leaves nothing behind."""

from django.db import migrations

ENTRY_IS_NEW = """
CREATE OR REPLACE FUNCTION scoring_posting_entry_is_new() RETURNS trigger AS $$
DECLARE
    writer xid;
    top xid8;
    after_top bigint;
BEGIN
    SELECT xmin INTO writer FROM scoring_ledgerentry WHERE id = NEW.entry_id;
    IF FOUND THEN
        top := pg_current_xact_id();
        IF writer = top::xid THEN
            RETURN NEW;
        END IF;
        -- A savepoint's id comes after the top-level one (modulo 2^32, as xids wrap).
        after_top := (writer::text::bigint - (top::text::bigint % 4294967296) + 4294967296)
            % 4294967296;
        IF after_top < 2147483648
           AND pg_xact_status((top::text::bigint + after_top)::text::xid8) = 'in progress' THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'ledger entry % was written by an earlier transaction: no postings can be added to it', NEW.entry_id
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""

FORWARD = [
    "DROP TRIGGER IF EXISTS scoring_ledgerentry_note_new ON scoring_ledgerentry;",
    "DROP FUNCTION IF EXISTS scoring_ledgerentry_note_new();",
    ENTRY_IS_NEW,  # the posting's trigger (0011) keeps its name and now calls this
]

# 0011's list, as it was.
BACKWARD = [
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
    CREATE TRIGGER scoring_ledgerentry_note_new AFTER INSERT ON scoring_ledgerentry
        FOR EACH ROW EXECUTE FUNCTION scoring_ledgerentry_note_new();
    """,
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
    dependencies = [("scoring", "0013_game_knockout_table_and_tiebreak")]

    operations = [migrations.RunPython(forward, backward)]
