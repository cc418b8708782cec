"""A session's accounts: a tournament's purse becomes a book the session holds
(``SessionAccount``), no longer a game of format "purse" at a table of its own. Each purse
game's book (its ledger, untouched) becomes the account's; the game, its seats and its table go
once the tournaments point at the books (tournaments 0008, then scoring 0023)."""

import django.db.models.deletion
from django.db import migrations, models


def accounts_for_purses(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    SessionAccount = apps.get_model("scoring", "SessionAccount")
    Book = apps.get_model("ledger", "Book")
    for game in Game.objects.filter(format="purse").select_related("table"):
        if game.status == "open":
            status = "open"
        else:
            status = "refunded" if game.end == "abandoned" else "paid_out"
        SessionAccount.objects.create(
            session_id=game.table.session_id, book_id=game.book_id, name=game.table.name,
            status=status, closed_at=game.finished_at,
        )
        Book.objects.filter(pk=game.book_id).update(owner="account")


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0003_entries_and_postings_in_books'),
        ('scoring', '0021_game_book'),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='format',
            field=models.CharField(choices=[('points', 'Points rummy'), ('pool', 'Pool rummy'), ('deals', 'Deals rummy'), ('rummikub', 'Rummikub')], max_length=16),
        ),
        migrations.AlterField(
            model_name='rulepreset',
            name='format',
            field=models.CharField(choices=[('points', 'Points rummy'), ('pool', 'Pool rummy'), ('deals', 'Deals rummy'), ('rummikub', 'Rummikub')], max_length=16),
        ),
        migrations.AlterField(
            model_name='standingrow',
            name='game_format',
            field=models.CharField(blank=True, choices=[('points', 'Points rummy'), ('pool', 'Pool rummy'), ('deals', 'Deals rummy'), ('rummikub', 'Rummikub')], db_default='', default='', max_length=16),
        ),
        migrations.CreateModel(
            name='SessionAccount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('status', models.CharField(choices=[('open', 'Open'), ('paid_out', 'Paid out'), ('refunded', 'Refunded')], default='open', max_length=12)),
                ('closed_at', models.DateTimeField(blank=True, null=True)),
                ('book', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='session_account', to='ledger.book')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='accounts', to='scoring.session')),
            ],
            options={
                'ordering': ['id'],
            },
        ),
            migrations.RunPython(accounts_for_purses, migrations.RunPython.noop),
    ]
