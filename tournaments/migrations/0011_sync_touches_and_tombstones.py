# An entry's name, prize and chips move its updated_at; a deleted tournament or entry leaves a
# tombstone (config.change_times, config.tombstones).

from django.db import migrations

from config.change_times import touch_parent_triggers
from config.tombstones import tombstone_triggers


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0017_tombstones'),
        ('ledger', '0003_entries_and_postings_in_books'),
        ('scoring', '0027_sync_touches_and_tombstones'),
        ('tournaments', '0010_self_signup_and_fee_marks'),
    ]

    operations = [
        touch_parent_triggers(
            'clubs_player_touch_entry', table='clubs_player', parent='tournaments_entry',
            where='player_id = {row}.id', insert_delete=False, update_of=['name'],
        ),
        # The prize and the chips shown are read from the purse's postings.
        touch_parent_triggers(
            'scoring_posting_touch_entry', table='scoring_posting', parent='tournaments_entry',
            where='player_id = {row}.player_id AND tournament_id IN (SELECT id FROM '
            'tournaments_tournament WHERE purse_id = {row}.book_id)',
        ),
        tombstone_triggers('tournament', table='tournaments_tournament', club_sql='{row}.club_id'),
        tombstone_triggers(
            'entry', table='tournaments_entry',
            club_sql='(SELECT club_id FROM tournaments_tournament WHERE id = {row}.tournament_id)',
        ),
    ]
