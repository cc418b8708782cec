"""The ratings' models move here from scoring: the tables stay where they are (``db_table``), with
their indexes and constraints (scoring 0008), so this changes the migration state only and the
database not at all."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('clubs', '0012_spent_authorization_code'),
        ('scoring', '0023_purse_games_go'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
        migrations.CreateModel(
            name='RatedGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('family', models.CharField(choices=[('indian', 'Indian rummy'), ('rummikub', 'Rummikub')], max_length=16)),
                ('finished_at', models.DateTimeField()),
                ('ranks', models.JSONField(help_text='Player id (as text) -> finishing place, 1 best.')),
                ('club', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.club')),
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='rated', to='scoring.game')),
            ],
            options={
                'db_table': 'scoring_ratedgame',
                'ordering': ['finished_at', 'game_id'],
            },
        ),
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('family', models.CharField(choices=[('indian', 'Indian rummy'), ('rummikub', 'Rummikub')], max_length=16)),
                ('mu', models.FloatField()),
                ('sigma', models.FloatField()),
                ('ordinal', models.FloatField(help_text='mu - 3 sigma: what the leaderboard ranks by.')),
                ('games', models.PositiveIntegerField()),
                ('club', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.club')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='clubs.player')),
            ],
            options={
                'db_table': 'scoring_rating',
            },
        ),
        migrations.CreateModel(
            name='RatingChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rank', models.PositiveSmallIntegerField()),
                ('mu_before', models.FloatField()),
                ('sigma_before', models.FloatField()),
                ('mu_after', models.FloatField()),
                ('sigma_after', models.FloatField()),
                ('games', models.PositiveIntegerField(help_text="The player's rated games after this one.")),
                ('player', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
                ('rated_game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='standings.ratedgame')),
            ],
            options={
                'db_table': 'scoring_ratingchange',
            },
        ),
        migrations.AddIndex(
            model_name='ratedgame',
            index=models.Index(fields=['club', 'family', 'finished_at', 'game'], name='rated_game_order'),
        ),
        migrations.AddIndex(
            model_name='rating',
            index=models.Index(models.F('club'), models.F('family'), models.OrderBy(models.F('ordinal'), descending=True), name='rating_leaderboard'),
        ),
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.UniqueConstraint(fields=('player', 'family'), name='rating_once_per_family'),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['player', 'rated_game'], name='rating_change_player'),
        ),
        migrations.AddConstraint(
            model_name='ratingchange',
            constraint=models.UniqueConstraint(fields=('rated_game', 'player'), name='rating_change_once_per_game'),
        ),
            ],
            database_operations=[],
        ),
    ]
