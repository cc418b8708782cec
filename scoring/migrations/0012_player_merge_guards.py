"""Postings and player results stay append-only, with one exception: a player merged into another
(two roster entries for one person) hands their lines to that player. The row may change its
player only, and only from a player whose ``merged_into`` is the new one in the same club: every
amount, entry and balance is what it was."""

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION scoring_append_only_but_merge() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE'
       AND NEW.player_id IS DISTINCT FROM OLD.player_id
       AND (to_jsonb(NEW) - 'player_id') = (to_jsonb(OLD) - 'player_id')
       AND EXISTS (
           SELECT 1 FROM clubs_player merged JOIN clubs_player kept ON kept.id = NEW.player_id
           WHERE merged.id = OLD.player_id AND merged.merged_into_id = kept.id
             AND merged.club_id = kept.club_id
       ) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION '% rows are append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""

FORWARD = [
    FUNCTION,
    "DROP TRIGGER IF EXISTS scoring_posting_append_only ON scoring_posting;",
    """
    CREATE TRIGGER scoring_posting_append_only BEFORE UPDATE OR DELETE ON scoring_posting
        FOR EACH ROW EXECUTE FUNCTION scoring_append_only_but_merge();
    """,
    "DROP TRIGGER IF EXISTS scoring_playerresult_append_only ON scoring_playerresult;",
    """
    CREATE TRIGGER scoring_playerresult_append_only BEFORE UPDATE OR DELETE ON scoring_playerresult
        FOR EACH ROW EXECUTE FUNCTION scoring_append_only_but_merge();
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS scoring_posting_append_only ON scoring_posting;",
    """
    CREATE TRIGGER scoring_posting_append_only BEFORE UPDATE OR DELETE ON scoring_posting
        FOR EACH ROW EXECUTE FUNCTION scoring_refuse_change();
    """,
    "DROP TRIGGER IF EXISTS scoring_playerresult_append_only ON scoring_playerresult;",
    """
    CREATE TRIGGER scoring_playerresult_append_only BEFORE UPDATE OR DELETE ON scoring_playerresult
        FOR EACH ROW EXECUTE FUNCTION scoring_refuse_change();
    """,
    "DROP FUNCTION IF EXISTS scoring_append_only_but_merge();",
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
    dependencies = [
        ("scoring", "0011_ledger_history_guards"),
        ("clubs", "0006_player_merged_into"),
    ]

    operations = [migrations.RunPython(forward, backward)]
