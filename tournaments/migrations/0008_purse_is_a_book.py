"""A tournament's purse is a book (its session's account, scoring 0022), no longer a game: the
column keeps its values (each purse game's book has the game's id)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0003_entries_and_postings_in_books'),
        ('tournaments', '0007_updated_at'),
        ('scoring', '0022_session_accounts'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournament',
            name='purse',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournament', to='ledger.book'),
        ),
    ]
