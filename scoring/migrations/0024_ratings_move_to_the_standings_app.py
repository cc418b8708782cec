"""The ratings' models (rated games, rating changes, ratings) now belong to the standings app
(standings 0001): their tables and rows stay as they are, so only the migration state changes."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0023_purse_games_go'),
        ('standings', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
        migrations.RemoveField(
            model_name='ratingchange',
            name='rated_game',
        ),
        migrations.RemoveField(
            model_name='rating',
            name='club',
        ),
        migrations.RemoveField(
            model_name='rating',
            name='player',
        ),
        migrations.RemoveField(
            model_name='ratingchange',
            name='player',
        ),
        migrations.DeleteModel(
            name='RatedGame',
        ),
        migrations.DeleteModel(
            name='Rating',
        ),
        migrations.DeleteModel(
            name='RatingChange',
        ),
            ],
            database_operations=[],
        ),
    ]
