"""The purse games go (scoring 0022 made their books the sessions' accounts, tournaments 0008
pointed the tournaments at the books): their seats, their standing rows of their own (a game's,
and the session's and season's of the format "purse": the rows of all formats keep the purse's
money, as the account's entries go on adding to them), their tables' links, the games and their
tables."""

from django.db import migrations


def purse_games_go(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    Seat = apps.get_model("scoring", "Seat")
    StandingRow = apps.get_model("scoring", "StandingRow")
    Table = apps.get_model("scoring", "Table")
    TableLink = apps.get_model("scoring", "TableLink")
    purses = list(Game.objects.filter(format="purse").values_list("pk", "table_id"))
    games = [pk for pk, _ in purses]
    StandingRow.objects.filter(scope="game", scope_id__in=games).delete()
    StandingRow.objects.filter(game_format="purse").delete()
    Seat.objects.filter(game_id__in=games).delete()
    Game.objects.filter(pk__in=games).delete()
    tables = [table for _, table in purses if not Game.objects.filter(table_id=table).exists()]
    TableLink.objects.filter(table_id__in=tables).delete()
    Table.objects.filter(pk__in=tables).delete()


def purse_games_back(apps, schema_editor):
    """Backwards, only where no account holds anything to give back as a game: the purse games
    are gone, and an account is not turned into one."""
    if apps.get_model("scoring", "SessionAccount").objects.exists():
        raise migrations.exceptions.IrreversibleError(
            "the sessions' accounts (tournaments' purses) cannot become purse games again"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0022_session_accounts"),
        ("tournaments", "0008_purse_is_a_book"),
    ]

    operations = [migrations.RunPython(purse_games_go, purse_games_back)]
