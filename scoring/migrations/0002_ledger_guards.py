"""PostgreSQL guards on the ledger: every entry balances per quantity at commit (a deferred
constraint trigger), and postings and entries can be neither updated nor deleted."""

from django.db import migrations

BALANCE_FUNCTION = """
CREATE OR REPLACE FUNCTION scoring_posting_check_balance() RETURNS trigger AS $$
DECLARE
    unbalanced RECORD;
BEGIN
    SELECT quantity, SUM(amount) AS total INTO unbalanced
    FROM scoring_posting
    WHERE entry_id = NEW.entry_id
    GROUP BY quantity
    HAVING SUM(amount) <> 0
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger entry % does not balance: % sum to %',
            NEW.entry_id, unbalanced.quantity, unbalanced.total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""

APPEND_ONLY_FUNCTION = """
CREATE OR REPLACE FUNCTION scoring_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% rows are append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""

FORWARD = [
    BALANCE_FUNCTION,
    APPEND_ONLY_FUNCTION,
    """
    CREATE CONSTRAINT TRIGGER scoring_posting_balanced
        AFTER INSERT ON scoring_posting
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION scoring_posting_check_balance();
    """,
    """
    CREATE TRIGGER scoring_posting_append_only
        BEFORE UPDATE OR DELETE ON scoring_posting
        FOR EACH ROW EXECUTE FUNCTION scoring_refuse_change();
    """,
    """
    CREATE TRIGGER scoring_ledgerentry_append_only
        BEFORE UPDATE OR DELETE ON scoring_ledgerentry
        FOR EACH ROW EXECUTE FUNCTION scoring_refuse_change();
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS scoring_ledgerentry_append_only ON scoring_ledgerentry;",
    "DROP TRIGGER IF EXISTS scoring_posting_append_only ON scoring_posting;",
    "DROP TRIGGER IF EXISTS scoring_posting_balanced ON scoring_posting;",
    "DROP FUNCTION IF EXISTS scoring_refuse_change();",
    "DROP FUNCTION IF EXISTS scoring_posting_check_balance();",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # elsewhere the ledger service's own check is the guard
    for statement in FORWARD:
        schema_editor.execute(statement, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for statement in BACKWARD:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(forward, backward)]
