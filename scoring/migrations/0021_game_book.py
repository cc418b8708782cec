"""Every game holds a book (ledger 0002), which its entries and postings will belong to. Each
existing game's book takes the game's own id, so that the ledger's rows, which name the game,
name its book too without being rewritten (ledger 0003 renames their column)."""

import django.db.models.deletion
from django.db import migrations, models

BOOKS = """
INSERT INTO ledger_book (id, club_id, owner, created_at)
SELECT g.id, s.club_id, 'game', g.started_at
FROM scoring_game g
JOIN scoring_table t ON t.id = g.table_id
JOIN scoring_session s ON s.id = t.session_id
"""


def books_for_games(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(BOOKS)
        cursor.execute("UPDATE scoring_game SET book_id = id")
        if schema_editor.connection.vendor == "postgresql":
            # New books are numbered after the games' (the ids were given, not drawn).
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence('ledger_book', 'id'),"
                " COALESCE(MAX(id), 0) + 1, false) FROM ledger_book"
            )
            # The foreign keys' deferred checks run now: the columns change next, in this
            # transaction, which PostgreSQL refuses while checks are pending.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def no_books(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("UPDATE scoring_game SET book_id = NULL")
        cursor.execute("DELETE FROM ledger_book")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0002_book"),
        ("scoring", "0020_ledger_models_move_to_the_ledger_app"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="book",
            field=models.OneToOneField(
                null=True, on_delete=django.db.models.deletion.PROTECT, related_name="game",
                to="ledger.book",
            ),
        ),
        migrations.RunPython(books_for_games, no_books),
        migrations.AlterField(
            model_name="game",
            name="book",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT, related_name="game", to="ledger.book"
            ),
        ),
    ]
