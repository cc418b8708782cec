"""Statistics on a standing row's scope taken together (PostgreSQL).

The planner estimated each column of a scope apart: a season's key is a small number that many
games' and nights' keys share. So it took a season of 10,000-20,000 rows for one row, and read
a table's deep page by sorting every row of the season rather than in the order of its index
(15 ms against 8 at 10,000 rows). Statistics on the three columns together give it the
season's real size."""

from django.db import migrations

CREATE = (
    "CREATE STATISTICS IF NOT EXISTS standing_row_scope_stats (dependencies, ndistinct, mcv)"
    " ON scope, scope_id, game_format FROM scoring_standingrow"
)
DROP = "DROP STATISTICS IF EXISTS standing_row_scope_stats"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # SQLite keeps no such statistics
    schema_editor.execute(CREATE, params=None)
    schema_editor.execute("ANALYZE scoring_standingrow", params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0018_posting_game_newest_entry")]

    operations = [migrations.RunPython(forward, backward)]
