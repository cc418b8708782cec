"""Tombstones: the database writes one (``clubs.Tombstone``) when a synced row is deleted or a
player merged, in the same transaction, whichever service or cascade made the change; the
tombstone feed of the API lists them (docs/api.md, "Syncing")."""

from __future__ import annotations

from django.db import migrations

from config.change_times import trigger_operation

_TABLE = "clubs_tombstone"


def _insert(resource: str, club_sql: str, row: str, now: str, *, merged: bool = False) -> str:
    merged_into = f"{row}.merged_into_id" if merged else "NULL"
    kind = "merged" if merged else "deleted"
    club = club_sql.format(row=row)
    return (
        f"INSERT INTO {_TABLE} (club_id, resource, resource_id, kind, merged_into, updated_at) "
        f"SELECT club, '{resource}', {row}.id, '{kind}', {merged_into}, {now} "
        f"FROM (SELECT ({club}) AS club) AS owner WHERE club IS NOT NULL;"
    )


def tombstone_triggers(resource: str, *, table: str, club_sql: str) -> migrations.RunPython:
    """The migration operation that writes a tombstone of ``resource`` for each row deleted
    from ``table``; ``club_sql`` is the row's club id, ``{row}`` standing for the row (a row
    whose club is already gone, in a club's own deletion, leaves none)."""
    name = f"{table}_tombstone"
    merges = resource == "player"
    merge_when = "OLD.merged_into_id IS NULL AND NEW.merged_into_id IS NOT NULL"

    def postgres() -> list[str]:
        now = "clock_timestamp()"
        merge = _insert(resource, club_sql, "NEW", now, merged=True) if merges else "NULL;"
        statements = [
            f"""CREATE OR REPLACE FUNCTION {name}() RETURNS trigger AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN {_insert(resource, club_sql, "OLD", now)}
                ELSE {merge} END IF;
                RETURN NULL;
            END;
            $$ LANGUAGE plpgsql;""",
            f"""CREATE TRIGGER {name}_delete AFTER DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION {name}();""",
        ]
        if merges:
            statements.append(
                f"""CREATE TRIGGER {name}_merge AFTER UPDATE OF merged_into_id ON {table}
                FOR EACH ROW WHEN ({merge_when}) EXECUTE FUNCTION {name}();"""
            )
        return statements

    def sqlite() -> list[str]:
        now = "strftime('%Y-%m-%d %H:%M:%f', 'now') || '000'"
        statements = [
            f"""CREATE TRIGGER {name}_delete AFTER DELETE ON {table}
            FOR EACH ROW BEGIN {_insert(resource, club_sql, "OLD", now)} END;"""
        ]
        if merges:
            statements.append(
                f"""CREATE TRIGGER {name}_merge AFTER UPDATE OF merged_into_id ON {table}
                FOR EACH ROW WHEN {merge_when}
                BEGIN {_insert(resource, club_sql, "NEW", now, merged=True)} END;"""
            )
        return statements

    def drop(vendor: str) -> list[str]:
        on = f" ON {table}" if vendor == "postgresql" else ""
        drops = [f"DROP TRIGGER IF EXISTS {name}_{event}{on};" for event in ("delete", "merge")]
        return drops + ([f"DROP FUNCTION IF EXISTS {name}();"] if vendor == "postgresql" else [])

    return trigger_operation(postgres=postgres, sqlite=sqlite, drop=drop)
