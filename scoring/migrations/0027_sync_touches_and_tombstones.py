# The counts, seats and names a night or a game shows move its updated_at; a deleted night,
# game, deal or submission leaves a tombstone (config.change_times, config.tombstones).

from django.db import migrations

from config.change_times import touch_parent_triggers
from config.tombstones import tombstone_triggers

_GAME_CLUB = (
    "(SELECT s.club_id FROM scoring_table t JOIN scoring_session s ON s.id = t.session_id "
    "WHERE t.id = {row}.table_id)"
)
_DEAL_CLUB = (
    "(SELECT s.club_id FROM scoring_game g JOIN scoring_table t ON t.id = g.table_id "
    "JOIN scoring_session s ON s.id = t.session_id WHERE g.id = {row}.game_id)"
)
_SUBMISSION_CLUB = (
    "(SELECT s.club_id FROM scoring_deal d JOIN scoring_game g ON g.id = d.game_id "
    "JOIN scoring_table t ON t.id = g.table_id JOIN scoring_session s ON s.id = t.session_id "
    "WHERE d.id = {row}.deal_id)"
)


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0017_tombstones'),
        ('scoring', '0026_submission_source_table'),
    ]

    operations = [
        # A night's table_count and deal_count.
        touch_parent_triggers(
            'scoring_table_touch_session', table='scoring_table', parent='scoring_session',
            where='id = {row}.session_id',
        ),
        touch_parent_triggers(
            'scoring_deal_touch_session', table='scoring_deal', parent='scoring_session',
            where='id = (SELECT t.session_id FROM scoring_game g JOIN scoring_table t '
            'ON t.id = g.table_id WHERE g.id = {row}.game_id)',
        ),
        # A game's seats, and each seat's player's name.
        touch_parent_triggers(
            'scoring_seat_touch_game', table='scoring_seat', parent='scoring_game',
            where='id = {row}.game_id', update_of=['player_id', 'position'],
        ),
        touch_parent_triggers(
            'clubs_player_touch_game', table='clubs_player', parent='scoring_game',
            where='id IN (SELECT game_id FROM scoring_seat WHERE player_id = {row}.id)',
            insert_delete=False, update_of=['name'],
        ),
        # A submission's submitted_by and confirmed_by are usernames.
        touch_parent_triggers(
            'auth_user_touch_submission', table='auth_user', parent='scoring_submission',
            where='(submitted_by_id = {row}.id OR confirmed_by_id = {row}.id)',
            insert_delete=False, update_of=['username'],
        ),
        tombstone_triggers('session', table='scoring_session', club_sql='{row}.club_id'),
        tombstone_triggers('game', table='scoring_game', club_sql=_GAME_CLUB),
        tombstone_triggers('deal', table='scoring_deal', club_sql=_DEAL_CLUB),
        tombstone_triggers('submission', table='scoring_submission', club_sql=_SUBMISSION_CLUB),
    ]
