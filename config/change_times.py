"""``updated_at``: when a row last changed, kept by the database itself.

The services change rows in many ways that skip ``auto_now`` (``QuerySet.update()``,
``bulk_update``, ``save(update_fields=...)``), so a trigger stamps the row instead: on
PostgreSQL before every insert and every update that changes the row, with ``clock_timestamp()``
(one clock for every web and worker process, and distinct times within one transaction); on
SQLite (the embedded default) after every update, a write that changes nothing included. No
write path can forget it, including ones written later.

A migration adds the field, fills existing rows from the times each row already has
(``fill``), then ``touch_triggers`` for its table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import migrations, models
from django.db.models import F
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

_POSTGRES_FUNCTION = """
CREATE OR REPLACE FUNCTION rummyclub_touch_updated_at() RETURNS trigger AS $$
BEGIN
    NEW.updated_at := clock_timestamp();
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
"""


def updated_at_field(**kwargs: Any) -> models.DateTimeField:
    """The field itself: set on insert (the database stamps it again), then by the database."""
    return models.DateTimeField(
        default=timezone.now,
        editable=False,
        help_text="When the row last changed (kept by the database).",
        **kwargs,
    )


def _postgres(table: str) -> list[str]:
    return [
        _POSTGRES_FUNCTION,
        f"""CREATE TRIGGER {table}_touch_insert BEFORE INSERT ON {table}
            FOR EACH ROW EXECUTE FUNCTION rummyclub_touch_updated_at();""",
        # A write that leaves the row as it was is no change.
        f"""CREATE TRIGGER {table}_touch_update BEFORE UPDATE ON {table}
            FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*)
            EXECUTE FUNCTION rummyclub_touch_updated_at();""",
    ]


def _sqlite(table: str) -> list[str]:
    # Django's own text form of a time (six decimals), so times compare as text do.
    return [
        f"""CREATE TRIGGER {table}_touch_update AFTER UPDATE ON {table}
            FOR EACH ROW WHEN NEW.updated_at IS OLD.updated_at
            BEGIN
                UPDATE {table} SET updated_at = strftime('%Y-%m-%d %H:%M:%f', 'now') || '000'
                WHERE id = NEW.id;
            END;""",
    ]


def _drop(table: str, vendor: str) -> list[str]:
    on = f" ON {table}" if vendor == "postgresql" else ""
    return [
        f"DROP TRIGGER IF EXISTS {table}_touch_insert{on};",
        f"DROP TRIGGER IF EXISTS {table}_touch_update{on};",
    ]


def touch_triggers(*tables: str) -> migrations.RunPython:
    """The migration operation that makes the database keep ``updated_at`` on ``tables``."""

    def forward(apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        make = {"postgresql": _postgres, "sqlite": _sqlite}.get(vendor)
        if make is None:
            return
        for table in tables:
            for statement in _drop(table, vendor) + make(table):
                schema_editor.execute(statement, params=None)

    def backward(apps: Any, schema_editor: Any) -> None:
        for table in tables:
            for statement in _drop(table, schema_editor.connection.vendor):
                schema_editor.execute(statement, params=None)

    return migrations.RunPython(forward, backward)


def fill(app_label: str, model_name: str, times: Sequence[str]) -> Callable[[Any, Any], None]:
    """A migration step setting each existing row's ``updated_at`` to the latest of its own
    ``times`` (columns; empty ones skipped), the best the rows already say of their last change."""

    def forward(apps: Any, schema_editor: Any) -> None:
        model = apps.get_model(app_label, model_name)
        first = F(times[0])
        latest: Any = first
        if len(times) > 1:
            # SQLite's MAX() is NULL when any part is: each empty time stands in as the first.
            latest = Greatest(*(Coalesce(F(name), first) for name in times))
        model.objects.using(schema_editor.connection.alias).update(updated_at=latest)

    return forward


_SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now') || '000'"


def _parent_updates(parent: str, where: str, row: str, now: str) -> str:
    return f"UPDATE {parent} SET updated_at = {now} WHERE {where.format(row=row)};"


def touch_parent_triggers(
    name: str, *, table: str, parent: str, where: str, insert_delete: bool = True,
    update_of: Sequence[str] = (),
) -> migrations.RunPython:  # fmt: skip
    """The migration operation that moves ``parent``'s ``updated_at`` when a row of ``table``
    that shows in it (a count, a name) is inserted or deleted (``insert_delete``) or has one of
    the ``update_of`` columns changed. ``where`` picks the parent rows, with ``{row}`` standing
    for the changed row (NEW or OLD)."""

    events = (["INSERT", "DELETE"] if insert_delete else []) + (["UPDATE"] if update_of else [])
    changed = " OR ".join(f"OLD.{column} IS DISTINCT FROM NEW.{column}" for column in update_of)

    def postgres() -> list[str]:
        now = "clock_timestamp()"
        body = (
            f"IF TG_OP <> 'DELETE' THEN {_parent_updates(parent, where, 'NEW', now)} END IF;\n"
            f"IF TG_OP <> 'INSERT' THEN {_parent_updates(parent, where, 'OLD', now)} END IF;"
        )
        statements = [
            f"""CREATE OR REPLACE FUNCTION {name}() RETURNS trigger AS $$
            BEGIN
                {body}
                RETURN NULL;
            END;
            $$ LANGUAGE plpgsql;"""
        ]
        for event in events:
            on = f"UPDATE OF {', '.join(update_of)}" if event == "UPDATE" else event
            when = f" WHEN ({changed})" if event == "UPDATE" else ""
            statements.append(
                f"""CREATE TRIGGER {name}_{event.lower()} AFTER {on} ON {table}
                FOR EACH ROW{when} EXECUTE FUNCTION {name}();"""
            )
        return statements

    def sqlite() -> list[str]:
        rows = {"INSERT": ["NEW"], "DELETE": ["OLD"], "UPDATE": ["NEW", "OLD"]}
        statements = []
        for event in events:
            on = f"UPDATE OF {', '.join(update_of)}" if event == "UPDATE" else event
            when = f" WHEN {changed.replace('IS DISTINCT FROM', 'IS NOT')}" if update_of else ""
            when = when if event == "UPDATE" else ""
            updates = " ".join(_parent_updates(parent, where, r, _SQLITE_NOW) for r in rows[event])
            statements.append(
                f"""CREATE TRIGGER {name}_{event.lower()} AFTER {on} ON {table}
                FOR EACH ROW{when} BEGIN {updates} END;"""
            )
        return statements

    def drop(vendor: str) -> list[str]:
        on = f" ON {table}" if vendor == "postgresql" else ""
        drops = [f"DROP TRIGGER IF EXISTS {name}_{e.lower()}{on};" for e in events]
        return drops + ([f"DROP FUNCTION IF EXISTS {name}();"] if vendor == "postgresql" else [])

    return trigger_operation(postgres=postgres, sqlite=sqlite, drop=drop)


def trigger_operation(
    *,
    postgres: Callable[[], list[str]],
    sqlite: Callable[[], list[str]],
    drop: Callable[[str], list[str]],
) -> migrations.RunPython:
    """The migration operation that makes a set of triggers: each statement of ``drop`` (by
    vendor) then those the vendor's builder gives; backwards, ``drop`` alone. Other databases
    get none."""

    def forward(apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        make = {"postgresql": postgres, "sqlite": sqlite}.get(vendor)
        if make is None:
            return
        for statement in drop(vendor) + make():
            schema_editor.execute(statement, params=None)

    def backward(apps: Any, schema_editor: Any) -> None:
        for statement in drop(schema_editor.connection.vendor):
            schema_editor.execute(statement, params=None)

    return migrations.RunPython(forward, backward)
