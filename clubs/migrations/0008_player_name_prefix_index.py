"""The roster searched by the start of a name (the pickers' type-ahead and the "all players"
page): ``lower(name) LIKE 'ra%'`` within a club, served on PostgreSQL by a B-tree whose operator
class compares strings byte by byte (``text_pattern_ops``), which a prefix ``LIKE`` can use under
any collation. Only roster players (not merged away) are searched, so only they are indexed.
SQLite has no operator classes and searches its small test rosters without one."""

from django.db import migrations

CREATE = (
    "CREATE INDEX IF NOT EXISTS player_name_prefix ON clubs_player "
    "(club_id, lower(name) text_pattern_ops) WHERE merged_into_id IS NULL"
)
DROP = "DROP INDEX IF EXISTS player_name_prefix"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("clubs", "0007_invitation_to_an_account")]

    operations = [migrations.RunPython(forward, backward)]
