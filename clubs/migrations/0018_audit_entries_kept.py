"""PostgreSQL guard on the audit log: an entry is never changed or deleted, except that a
deleted person's entries keep what they did without who (``actor`` set to null, as its foreign
key says). The app's role can then neither rewrite nor remove what happened."""

from django.db import migrations

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION clubs_auditentry_kept() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'UPDATE' AND NEW.actor_id IS NULL
           AND (to_jsonb(NEW) - 'actor_id') = (to_jsonb(OLD) - 'actor_id') THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'audit entry %: the audit log is kept as written (% refused)', OLD.id, TG_OP
            USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER clubs_auditentry_kept BEFORE UPDATE OR DELETE ON clubs_auditentry
        FOR EACH ROW EXECUTE FUNCTION clubs_auditentry_kept();
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS clubs_auditentry_kept ON clubs_auditentry;",
    "DROP FUNCTION IF EXISTS clubs_auditentry_kept();",
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
    dependencies = [("clubs", "0017_tombstones")]

    operations = [migrations.RunPython(forward, backward)]
