"""Many rows inserted at once without model instances (an import's tens of thousands of
postings and player results): one ``COPY`` on PostgreSQL, where building the instances and the
array parameters of ``bulk_create`` costs more than the database's work; ``bulk_create``
elsewhere. The table's triggers and constraints run as for any insert."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models


def rows_insert(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """Insert ``rows`` (each the values of ``columns``, the fields' attribute names such as
    ``entry_id``) into ``model``'s table. No id is read back."""
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(
            model(**dict(zip(columns, row, strict=True))) for row in rows
        )
        return
    column_of = {field.attname: field.column for field in model._meta.concrete_fields}
    names = [column_of[name] for name in columns]
    quote = connection.ops.quote_name
    sql = f"COPY {quote(model._meta.db_table)} ({', '.join(map(quote, names))}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)
