"""Rows written with the times they already have: an archive restored keeps when each thing
happened. ``auto_now_add`` and ``auto_now`` stamp the time of the write; inside
``times_as_stored`` the named models' fields take the value the row carries instead."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import models


@contextmanager
def times_as_stored(*model_classes: type[models.Model]) -> Iterator[None]:
    stamped = [
        field
        for model in model_classes
        for field in model._meta.concrete_fields
        if isinstance(field, models.DateField) and (field.auto_now or field.auto_now_add)
    ]
    kept = [(field, field.auto_now, field.auto_now_add) for field in stamped]
    for field in stamped:
        field.auto_now = field.auto_now_add = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for field, auto_now, auto_now_add in kept:
            field.auto_now, field.auto_now_add = auto_now, auto_now_add  # type: ignore[attr-defined]
