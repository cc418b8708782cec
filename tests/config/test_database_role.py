"""The app's own database role: the deploy check warns when the app connects as a superuser, and
a role made by ``db_role_create`` runs the app's writes but cannot turn the ledger's guard
triggers off."""

from __future__ import annotations

from io import StringIO

import psycopg
import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from config.database_role import SUPERUSER_WARNING, superuser_check
from ledger.models import LedgerEntry
from tests.scoring.helpers import new_game, play, results

pytestmark = pytest.mark.postgres
ROLE = "rummyclub_app_test"


def test_the_deploy_check_warns_when_the_app_connects_as_a_superuser(postgres):
    warnings = superuser_check()
    assert [w.id for w in warnings] == [SUPERUSER_WARNING]
    assert "superuser" in warnings[0].msg
    out = StringIO()
    call_command("check", "--deploy", stdout=out, stderr=out)
    assert SUPERUSER_WARNING in out.getvalue()


def _refused(statement: str) -> str:
    """PostgreSQL's "insufficient privilege" (42501: "permission denied ...", "must be owner
    ...") for ``statement``; its message."""
    with pytest.raises(DatabaseError) as refused, transaction.atomic(), connection.cursor() as c:
        c.execute(statement)
    cause = refused.value.__cause__
    assert isinstance(cause, psycopg.errors.InsufficientPrivilege), cause
    return str(cause)


def test_the_apps_role_writes_but_cannot_disable_the_ledger_triggers(postgres, standing):
    # The role is made in the test's transaction: rolled back with it, nothing left behind.
    out = StringIO()
    call_command("db_role_create", ROLE, "--run", stdout=out)
    assert f"Created role {ROLE}" in out.getvalue()
    with connection.cursor() as cursor:
        cursor.execute(f'SET LOCAL ROLE "{ROLE}"')  # as the app would connect, from here on
    assert superuser_check() == []
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"], point_value_minor=10)
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30))
    assert LedgerEntry.objects.filter(book__game=game).exists()
    table = LedgerEntry._meta.db_table
    assert "must be owner" in _refused(f"ALTER TABLE {table} DISABLE TRIGGER ALL")
    assert "must be owner" in _refused(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    assert "permission denied" in _refused("SET session_replication_role = replica")
    assert "permission denied" in _refused(f"TRUNCATE {table} CASCADE")
    assert "permission denied" in _refused("CREATE TABLE rummyclub_app_test_own (id int)")


def test_the_sql_is_printed_for_the_owner_to_run(postgres):
    out = StringIO()
    call_command("db_role_create", ROLE, stdout=out)
    sql = out.getvalue()
    assert f'CREATE ROLE "{ROLE}" LOGIN NOSUPERUSER' in sql
    assert "DISABLE" not in sql and "TRIGGER" not in sql and "TRUNCATE" not in sql
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_roles WHERE rolname = %s", [ROLE])
        assert cursor.fetchone()[0] == 0
