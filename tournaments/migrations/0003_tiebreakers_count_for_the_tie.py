"""Tie-breakers played before ``Game.breaks_tie``: marked as such, and their amounts and tallies
taken back out of their night's and season's standing rows (they count for the tie only; the
game's own rows stay), so the kept rows agree with a recomputation from the ledger."""

from django.db import migrations
from django.db.models import F

TOTAL_FIELDS = (
    "points", "chips", "money_minor", "deals_played", "deals_won", "drops", "full_counts",
    "points_conceded",
)  # fmt: skip


def tiebreakers_count_for_the_tie(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    StandingRow = apps.get_model("scoring", "StandingRow")
    RoundTable = apps.get_model("tournaments", "RoundTable")
    ids = list(RoundTable.objects.exclude(tiebreaker=None).values_list("tiebreaker_id", flat=True))
    games = Game.objects.filter(pk__in=ids, breaks_tie=False).select_related("table__session")
    for game in games:
        session = game.table.session
        scopes = [("session", session.pk)]
        if session.season_id is not None:
            scopes.append(("season", session.season_id))
        for row in StandingRow.objects.filter(scope="game", scope_id=game.pk, game_format=""):
            taken = {name: F(name) - getattr(row, name) for name in TOTAL_FIELDS}
            for scope, scope_id in scopes:
                StandingRow.objects.filter(
                    scope=scope, scope_id=scope_id, game_format__in=["", game.format],
                    player_id=row.player_id,
                ).update(**taken)  # fmt: skip
    Game.objects.filter(pk__in=ids).update(breaks_tie=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_entry_prize_from_ledger"),
        ("scoring", "0013_game_knockout_table_and_tiebreak"),
    ]

    operations = [
        migrations.RunPython(tiebreakers_count_for_the_tie, migrations.RunPython.noop),
    ]
