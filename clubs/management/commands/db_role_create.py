from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from config.database_role import role_statements


class Command(BaseCommand):
    help = (
        "The SQL that makes the app's own PostgreSQL role (rows of the app's tables, no table "
        "of its own, no superuser); printed, or run with --run as the tables' owner."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("name", help="the role's name, e.g. rummyclub_app")
        parser.add_argument(
            "--run", action="store_true", help="run it on this database instead of printing it"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("the app's role is a PostgreSQL role: set DATABASE_URL")
        try:
            statements = role_statements(
                name=options["name"], database=connection.settings_dict["NAME"]
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if not options["run"]:
            self.stdout.write("\n".join(f"{statement};" for statement in statements))
            return
        with transaction.atomic(), connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
        name = options["name"]
        self.stdout.write(
            self.style.SUCCESS(f"Created role {name}.")
            + f" Give it a password (psql: \\password {name}) and use it in DATABASE_URL."
        )
