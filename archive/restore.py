"""A club rebuilt from its archive (docs/archive.md), in one transaction: every row written with
a new id (the archive's ids renewed wherever they are named), the ledger's entries through the
ledger's writer, so the database's guards hold as for a club played here. A refusal names the
line at fault, and nothing is stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, models, transaction
from django.utils import timezone

from archive.format import ArchiveRefused, lines_read
from archive.kinds import (
    BY_NAME,
    KINDS,
    LEDGER_AFTER,
    LEDGER_ENTRY,
    USER,
    USER_FIELDS,
    IdMap,
    Kind,
    archived_fields,
    kind_of_model,
)
from clubs.audit import audit_record
from clubs.models import Club
from config.stored_times import times_as_stored
from ledger.writer import Line, ledger_entry_restore
from scoring.models import RulePreset

#: The order the kinds come in: users, each kind, the ledger's entries after the submissions.
ORDER = [USER] + [
    name
    for kind in KINDS
    for name in (kind.name, *([LEDGER_ENTRY] if kind.name == LEDGER_AFTER else []))
]
_BATCH = 500


@dataclass
class Restored:
    club: Club
    ids: IdMap
    rows: int
    source: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Pending:
    """A row converted, waiting for its kind's batch to be written."""

    line: int
    old_id: int
    instance: models.Model
    #: A reference to a row of the same kind, set once the kind is written: field -> old id.
    later: dict[str, int]


class _Restore:
    def __init__(self, *, slug: str | None, actor: AbstractBaseUser | None) -> None:
        self.slug = slug
        self.actor = actor
        self.ids = IdMap()
        self.kind_at = -1
        self.pending: list[_Pending] = []
        self.club: Club | None = None
        self.rows = 0

    def row(self, number: int, value: dict[str, Any]) -> None:
        name, old, fields = value.get("kind"), value.get("id"), value.get("fields")
        if name not in ORDER:
            raise ArchiveRefused(f"unknown kind {name!r}", line=number)
        if not isinstance(old, int) or isinstance(old, bool) or not isinstance(fields, dict):
            raise ArchiveRefused(
                "a row needs a whole-number id and an object of fields", line=number
            )
        at = ORDER.index(name)
        if at < self.kind_at:
            raise ArchiveRefused(
                f"{name} comes after {ORDER[self.kind_at]}: out of order", line=number
            )
        if at > self.kind_at:
            self.flush()
            self.kind_at = at
        self.rows += 1
        try:
            if name == USER:
                self._user(old, fields, number)
            elif name == LEDGER_ENTRY:
                self._entry(old, fields)
            else:
                self._pend(BY_NAME[name], number, old, fields)
        except LookupError as error:
            raise ArchiveRefused(f"{name} {old}: {error.args[0]}", line=number) from None
        except (ValidationError, ValueError, TypeError, KeyError, AttributeError) as error:
            raise ArchiveRefused(f"{name} {old}: {_said(error)}", line=number) from None
        if len(self.pending) >= _BATCH and not any(p.later for p in self.pending):
            self.flush()

    def _user(self, old: int, fields: dict[str, Any], number: int) -> None:
        username = fields.get("username")
        if not isinstance(username, str) or not username:
            raise ArchiveRefused(f"{USER} {old}: a user needs a username", line=number)
        user_model = get_user_model()
        user = user_model._default_manager.filter(username=username).first()
        if user is None:
            # Someone known here by name only: they set a password through "forgotten password".
            user = user_model(**{f: str(fields.get(f) or "") for f in USER_FIELDS})
            user.set_unusable_password()
            user.save()
        self.ids.add(USER, old, user.pk)

    def _entry(self, old: int, fields: dict[str, Any]) -> None:
        ids = self.ids

        def renewed(kind: str, value: Any) -> int | None:
            return None if value is None else ids.new(kind, value)

        lines = [
            Line(
                p["quantity"],
                p["account"],
                int(p["amount"]),
                renewed("clubs.player", p["player_id"]),
            )
            for p in fields["postings"]
        ]
        if not lines or any(isinstance(p["amount"], bool) for p in fields["postings"]):
            raise ValueError("an entry needs postings with whole-number amounts")
        entry = ledger_entry_restore(
            book_id=ids.new("ledger.book", fields["book_id"]),
            kind=fields["kind"],
            lines=lines,
            deal_id=renewed("scoring.deal", fields.get("deal_id")),
            submission_id=renewed("scoring.submission", fields.get("submission_id")),
            reverses_id=renewed(LEDGER_ENTRY, fields.get("reverses_id")),
            memo=fields.get("memo", ""),
            created_at=models.DateTimeField().to_python(fields["created_at"]),
        )
        ids.add(LEDGER_ENTRY, old, entry.pk)

    def _pend(self, kind: Kind, number: int, old: int, fields: dict[str, Any]) -> None:
        columns = {f.attname: f for f in archived_fields(kind)}
        unknown = sorted(set(fields) - set(columns))
        if unknown:
            raise ValueError(f"unknown fields {', '.join(unknown)}")
        values: dict[str, Any] = {}
        later: dict[str, int] = {}
        for attname, raw in fields.items():
            column = columns[attname]
            if column.is_relation and raw is not None:
                related = kind_of_model(column.related_model)  # type: ignore[arg-type]
                if related == kind.name:
                    later[attname] = int(raw)
                    raw = None
                else:
                    raw = self.ids.new(related, raw)
            elif not isinstance(column, models.JSONField):
                try:
                    raw = column.to_python(raw)
                except ValidationError as error:
                    raise ValueError(f"{column.name}: {_said(error)}") from None
            values[attname] = raw
        if kind.remap is not None:
            kind.remap(values, self.ids)
        instance = kind.model(**values)
        _changed_now(instance)
        if self._stands_for_existing(kind, old, instance, number):
            return
        if kind.renew is not None:
            kind.renew(instance)
        self.pending.append(_Pending(number, old, instance, later))

    def _stands_for_existing(
        self, kind: Kind, old: int, instance: models.Model, number: int
    ) -> bool:
        """The club (under its slug, or the one asked for), and the instance's own presets,
        which the archive names and this instance already has."""
        if isinstance(instance, Club):
            if self.club is not None:
                raise ArchiveRefused("a second club: an archive holds one", line=number)
            instance.slug = self.slug or instance.slug
            if Club.objects.filter(slug=instance.slug).exists():
                raise ArchiveRefused(
                    f"a club with the slug {instance.slug!r} is already here: import it under "
                    "another slug",
                    line=number,
                )
        if isinstance(instance, RulePreset) and instance.club_id is None:
            shared = RulePreset.objects.filter(
                club=None, key=instance.key, version=instance.version
            ).first()
            if shared is not None:
                self.ids.add(kind.name, old, shared.pk)
                return True
        return False

    def flush(self) -> None:
        """Write the rows pending (all of one kind), then their references to each other."""
        if not self.pending:
            return
        pending, self.pending = self.pending, []
        model = type(pending[0].instance)
        name = kind_of_model(model)
        try:
            with transaction.atomic(), times_as_stored(model):
                written = model._default_manager.bulk_create([p.instance for p in pending])
                for row, made in zip(pending, written, strict=True):
                    self.ids.add(name, row.old_id, made.pk)
                for row in pending:
                    if row.later:
                        changes = {f: self.ids.new(name, old) for f, old in row.later.items()}
                        model._default_manager.filter(pk=row.instance.pk).update(**changes)
        except LookupError as error:
            raise ArchiveRefused(f"{name}: {error.args[0]}", line=pending[0].line) from None
        except (IntegrityError, DatabaseError) as error:
            lines = f"lines {pending[0].line}-{pending[-1].line}"
            raise ArchiveRefused(f"{name} ({lines}) refused by the database: {error}") from None
        if isinstance(pending[0].instance, Club):
            self.club = pending[0].instance  # type: ignore[assignment]


def _changed_now(instance: models.Model) -> None:
    """A row's ``updated_at`` (left out of an archive: when it last changed on the instance it
    came from) is the time of the import, where the database does not stamp it itself: the
    stamp ``auto_now`` gives is off while the rows are written with their own times."""
    for column in type(instance)._meta.concrete_fields:
        if column.name == "updated_at" and getattr(column, "auto_now", False):
            setattr(instance, column.attname, timezone.now())


def _said(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return "; ".join(error.messages)
    if isinstance(error, KeyError):
        return f"{error.args[0]!r} is missing"
    return str(error)


def club_import(
    *, stream: IO[str], slug: str | None = None, actor: AbstractBaseUser | None = None
) -> Restored:
    """Rebuild the archive's club here; ``slug``: under another slug than the archive's."""
    try:
        with transaction.atomic():
            restore = _Restore(slug=slug, actor=actor)
            source: dict[str, Any] = {}
            for number, value in lines_read(stream):
                if number == 1:
                    source = value.get("source") or {}
                    continue
                restore.row(number, value)
            restore.flush()
            if restore.club is None:
                raise ArchiveRefused("the archive holds no club")
            audit_record(
                actor=actor, club=restore.club, action="club.import", obj=restore.club,
                after={"source": source, "rows": restore.rows},
            )  # fmt: skip
    except (
        IntegrityError
    ) as error:  # the database's checks at commit (a ledger that is not zero-sum)
        raise ArchiveRefused(f"refused by the database at commit: {error}") from None
    return Restored(club=restore.club, ids=restore.ids, rows=restore.rows, source=source)
