"""The app's own PostgreSQL role: what it may do (read and write the rows of the app's tables,
use their sequences) and what it may not (own a table, and so disable the ledger's guard
triggers; create anything; be a superuser, who may turn every trigger off). And the deploy check
that warns when the app connects as a superuser."""

from __future__ import annotations

import re
from typing import Any

from django.core import checks
from django.db import DatabaseError, connection

ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
SUPERUSER_WARNING = "rummyclub.W001"


def role_statements(*, name: str, database: str) -> list[str]:
    """The SQL, run by the tables' owner once they exist, that makes ``name`` a login role with
    the app's privileges: rows of every table of the schema (and of the tables later migrations
    add, through the owner's default privileges) and their sequences, nothing more."""
    if not ROLE_NAME.match(name):
        raise ValueError(f"{name!r}: a role name is lower-case letters, digits and _")
    role, db = f'"{name}"', '"' + database.replace('"', '""') + '"'
    rows, sequences = "SELECT, INSERT, UPDATE, DELETE", "USAGE, SELECT, UPDATE"
    return [
        f"CREATE ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS",
        f"GRANT CONNECT ON DATABASE {db} TO {role}",
        f"GRANT USAGE ON SCHEMA public TO {role}",
        f"GRANT {rows} ON ALL TABLES IN SCHEMA public TO {role}",
        f"GRANT {sequences} ON ALL SEQUENCES IN SCHEMA public TO {role}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT {rows} ON TABLES TO {role}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT {sequences} ON SEQUENCES TO {role}",
    ]


def superuser_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Warn when the app's database connection is a PostgreSQL superuser's: the ledger's guard
    triggers would stop mistakes but not that role."""
    if connection.vendor != "postgresql":
        return []
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user"
            )
            user, is_superuser = cursor.fetchone()
    except DatabaseError:
        return []  # the database down is answered where it is used (503, /health/)
    if not is_superuser:
        return []
    return [
        checks.Warning(
            f"The app connects to PostgreSQL as {user!r}, a superuser: it can turn off the "
            "ledger's guard triggers.",
            hint="Create the app's own role with `manage.py db_role_create <name>` and set "
            "DATABASE_URL to it; run migrations as the tables' owner (MIGRATE_DATABASE_URL).",
            id=SUPERUSER_WARNING,
        )
    ]
