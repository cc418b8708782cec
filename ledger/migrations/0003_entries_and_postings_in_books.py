"""Entries and postings belong to a book, not to a game: their ``game_id`` column becomes
``book_id`` (renamed, not rewritten: each game's book has the game's id, scoring 0021) and points
at the books. No row changes, so the ledger's guards (which refuse any change to a posting or an
entry) have nothing to refuse; the indexes on the column are made anew under their new names."""

import django.db.models.deletion
from django.db import migrations, models


LEDGER_TABLES = ("scoring_posting", "scoring_ledgerentry")
NAMES_ITS_GAME = """
UPDATE {table} SET book_id = (SELECT g.id FROM scoring_game g WHERE g.book_id = {table}.book_id)
WHERE EXISTS (SELECT 1 FROM scoring_game g WHERE g.book_id = {table}.book_id AND g.id <> g.book_id)
"""


def rows_name_their_games(apps, schema_editor):
    """Backwards: each entry and posting names its game again, where the game's book has an id
    of its own (books opened after this migration). On PostgreSQL the foreign key to the books
    goes first (the step before this one, backwards, points the column at the games) and the
    ledger's guards stand aside for the one statement that rewrites the column."""
    connection = schema_editor.connection
    postgres = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        for table in LEDGER_TABLES:
            if postgres:
                cursor.execute(
                    "SELECT c.conname FROM pg_constraint c JOIN pg_attribute a"
                    " ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)"
                    " WHERE c.conrelid = %s::regclass AND c.contype = 'f'"
                    " AND a.attname = 'book_id'",
                    [table],
                )
                for (name,) in cursor.fetchall():
                    cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            cursor.execute(NAMES_ITS_GAME.format(table=table))
            if postgres:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0002_book"),
        ("scoring", "0021_game_book"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="posting", name="posting_game_balance"),
        migrations.RemoveIndex(model_name="posting", name="posting_game_newest_entry"),
        migrations.RenameField(model_name="ledgerentry", old_name="game", new_name="book"),
        migrations.AlterField(
            model_name="ledgerentry",
            name="book",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="entries",
                to="ledger.book",
            ),
        ),
        migrations.RenameField(model_name="posting", old_name="game", new_name="book"),
        migrations.AlterField(
            model_name="posting",
            name="book",
            field=models.ForeignKey(
                db_index=False, on_delete=django.db.models.deletion.PROTECT,
                related_name="postings", to="ledger.book",
            ),
        ),
        migrations.AlterField(
            model_name="posting",
            name="account",
            field=models.CharField(
                choices=[
                    ("player", "Player"), ("club", "Club"),
                    ("game", "The book's own account (a pot, a bank, a pool)"),
                ],
                max_length=8,
            ),
        ),
        migrations.AddIndex(
            model_name="posting",
            index=models.Index(fields=["book", "quantity", "player"], name="posting_book_balance"),
        ),
        migrations.AddIndex(
            model_name="posting",
            index=models.Index(
                condition=models.Q(("account", "player")), fields=["book", "-entry"],
                name="posting_book_newest_entry",
            ),
        ),
        migrations.RunPython(migrations.RunPython.noop, rows_name_their_games),
    ]
