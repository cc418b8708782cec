"""The ledger's models move here from scoring: the tables stay where they are (``db_table``), with
their indexes, constraints and guard triggers (scoring 0002, 0011, 0012, 0014), so this changes
the migration state only and the database not at all."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('clubs', '0011_updated_at'),
        ('scoring', '0019_standing_row_scope_statistics'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
        migrations.CreateModel(
            name='LedgerEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('deal', 'Deal result'), ('reversal', 'Reversal of a corrected result'), ('entry_fee', 'Entry fee'), ('rejoin', 'Rejoin'), ('payout', 'Prize payout'), ('opening', 'Opening chips'), ('settlement', 'Match settlement'), ('refund', 'Pot refunded')], max_length=12)),
                ('memo', models.CharField(blank=True, max_length=200)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('deal', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='scoring.deal')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='scoring.game')),
                ('reverses', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reversed_by', to='ledger.ledgerentry')),
                ('submission', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='scoring.submission')),
            ],
            options={
                'verbose_name_plural': 'ledger entries',
                'db_table': 'scoring_ledgerentry',
                'ordering': ['id'],
            },
        ),
        migrations.CreateModel(
            name='Posting',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('quantity', models.CharField(choices=[('points', 'Points'), ('chips', 'Chips'), ('money', 'Money (minor units)')], max_length=8)),
                ('account', models.CharField(choices=[('player', 'Player'), ('club', 'Club'), ('game', 'Game (pot, bank or pool)')], max_length=8)),
                ('amount', models.BigIntegerField()),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='postings', to='ledger.ledgerentry')),
                ('game', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='postings', to='scoring.game')),
                ('player', models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='postings', to='clubs.player')),
            ],
            options={
                'db_table': 'scoring_posting',
                'ordering': ['id'],
                'indexes': [models.Index(fields=['game', 'quantity', 'player'], name='posting_game_balance'), models.Index(fields=['player', 'quantity'], name='posting_player_balance'), models.Index(condition=models.Q(('account', 'player')), fields=['game', '-entry'], name='posting_game_newest_entry')],
                'constraints': [models.CheckConstraint(condition=models.Q(models.Q(('account', 'player'), ('player__isnull', False)), models.Q(models.Q(('account', 'player'), _negated=True), ('player__isnull', True)), _connector='OR'), name='posting_player_account_has_player')],
            },
        ),
                ],
            database_operations=[],
        ),
    ]
