"""A club written out as its archive (docs/archive.md): every kind's rows in the order an
import writes them, read in one snapshot of the database."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.db import connection, models, transaction
from django.db.models import Q
from django.utils import timezone

from archive.format import END, header, line_dump
from archive.kinds import (
    KINDS,
    LEDGER_AFTER,
    LEDGER_ENTRY,
    USER,
    USER_FIELDS,
    Kind,
    archived_fields,
)
from clubs.models import Club
from ledger.archive import club_entries
from scoring.models import Game, RulePreset
from tournaments.models import Tournament


def _plain(value: Any) -> Any:
    """A column's value as JSON holds it: times in full (to the microsecond), decimals and
    UUIDs as text."""
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    return value


def _rows(kind: Kind, club: Club) -> models.QuerySet[Any]:
    rows = kind.model._default_manager.filter(**{kind.club_lookup: club.pk})
    if kind.model is RulePreset:
        # The instance's own presets that the club's games and tournaments were played under.
        used = set(
            Game.objects.filter(table__session__club=club).values_list("preset_id", flat=True)
        )
        for preset, final in Tournament.objects.filter(club=club).values_list(
            "preset_id", "final_preset_id"
        ):
            used.update((preset, final))
        rows = RulePreset.objects.filter(Q(club=club) | Q(club=None, pk__in=used))
    return rows.order_by("pk")


def _users(club: Club) -> models.QuerySet[Any]:
    """Every user an archived row names (members, players' accounts, who entered or did what)."""
    user_model = get_user_model()
    named: set[int] = set()
    for kind in KINDS:
        for field in archived_fields(kind):
            if field.is_relation and field.related_model is user_model:
                named.update(
                    _rows(kind, club)
                    .exclude(**{field.attname: None})
                    .values_list(field.attname, flat=True)
                )
    return user_model._default_manager.filter(pk__in=named).order_by("pk")


def _kind_lines(kind: Kind, club: Club) -> Iterator[dict[str, Any]]:
    fields = archived_fields(kind)
    for row in _rows(kind, club).iterator(chunk_size=1000):
        yield {
            "kind": kind.name,
            "id": row.pk,
            "fields": {f.attname: _plain(f.value_from_object(row)) for f in fields},
        }


def archive_lines(*, club: Club) -> Iterator[dict[str, Any]]:
    """Every row of the club, kind by kind (without the header and end lines)."""
    for user in _users(club):
        yield {"kind": USER, "id": user.pk, "fields": {f: getattr(user, f) for f in USER_FIELDS}}
    for kind in KINDS:
        yield from _kind_lines(kind, club)
        if kind.name == LEDGER_AFTER:
            for entry in club_entries(club_id=club.pk):
                yield {"kind": LEDGER_ENTRY, "id": entry.pop("id"), "fields": entry}


def club_export(*, club: Club, stream: IO[str], instance: str) -> int:
    """Write the club's archive to ``stream``; the rows written. One snapshot: on PostgreSQL a
    repeatable-read transaction, so a night played meanwhile is in it whole or not at all."""
    outermost = not connection.in_atomic_block
    rows = 0
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        exported_at = timezone.now().isoformat()
        stream.write(
            line_dump(header(instance=instance, club_slug=club.slug, exported_at=exported_at))
        )
        stream.write("\n")
        for line in archive_lines(club=club):
            stream.write(line_dump(line))
            stream.write("\n")
            rows += 1
        stream.write(line_dump({"kind": END, "rows": rows}))
        stream.write("\n")
    return rows
