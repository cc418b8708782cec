"""The ledger's models (entries and postings) now belong to the ledger app (ledger 0001): their
tables, guards and rows stay as they are, so only the migration state changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0001_initial'),
        ('scoring', '0019_standing_row_scope_statistics'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
        migrations.AlterField(
            model_name='playerresult',
            name='entry',
            field=models.ForeignKey(help_text='The ledger entry that counted this result (reversed when it is replaced).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='player_results', to='ledger.ledgerentry'),
        ),
        migrations.RemoveField(
            model_name='posting',
            name='entry',
        ),
        migrations.RemoveField(
            model_name='posting',
            name='game',
        ),
        migrations.RemoveField(
            model_name='posting',
            name='player',
        ),
        migrations.DeleteModel(
            name='LedgerEntry',
        ),
        migrations.DeleteModel(
            name='Posting',
        ),
                ],
            database_operations=[],
        ),
    ]
