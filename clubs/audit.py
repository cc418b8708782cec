"""The audit log: every service that changes state records who did what, with before and after."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models

from clubs.models import AuditEntry, Club


def audit_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    club: Club | None,
    action: str,
    obj: models.Model,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        club=club,
        action=action,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        before=before,
        after=after,
    )


def audit_records(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    club: Club | None,
    records: Iterable[tuple[str, models.Model, dict[str, Any] | None, dict[str, Any] | None]],
) -> list[AuditEntry]:
    """Many records of one actor and club written at once (an import): each given as (action,
    object, before, after), stored as ``audit_record`` stores one."""
    who = actor if actor is not None and actor.is_authenticated else None
    return AuditEntry.objects.bulk_create(
        AuditEntry(
            actor=who, club=club, action=action, object_type=obj._meta.label_lower,
            object_id=str(obj.pk), before=before, after=after,
        )
        for action, obj, before, after in records
    )  # fmt: skip


def snapshot(obj: models.Model, fields: list[str]) -> dict[str, Any]:
    """The named fields of ``obj`` as JSON-ready values, for before/after."""
    out: dict[str, Any] = {}
    for name in fields:
        value = getattr(obj, name)
        if isinstance(value, models.Model):
            value = value.pk
        elif value is not None and not isinstance(value, str | int | bool | float | list | dict):
            value = str(value)
        out[name] = value
    return out
