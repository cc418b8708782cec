"""Players imported from a sheet: read (``clubs.player_sheet``) -> previewed -> confirmed.

The preview stores nothing: it shows each row as it will be stored, its errors by column, the
roster players it matches (same name but for case, accents or spacing, the same words in another
order, a name one letter apart, the same email, phone or membership number) and a choice per
row: merge into a player it matches (their empty fields filled), new, or skip. The confirm takes
the rows back with their choices, checks them all again against the roster as it is then, and
writes them in one transaction, or nothing. A row that matches a player and adds nothing to
them writes nothing, so the same sheet imported twice changes nothing the second time."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_noop

from clubs.audit import snapshot
from clubs.models import AuditEntry, Club, Player, phone_kept, validate_phone, validate_upi_id
from clubs.name_match import NameIndex, name_key
from clubs.player_sheet import COLUMNS, Sheet
from clubs.services import PLAYER_FIELDS
from config.errors import Conflict, InvalidInput
from config.names import visible_name

MERGE, NEW, SKIP = "merge", "new", "skip"
CHOICES = (MERGE, NEW, SKIP)
#: The longest value each column keeps (its field's length).
LIMITS = {
    "name": 80, "nickname": 40, "email": 254, "phone": 16, "membership_number": 40,
    "upi_id": 300,
}  # fmt: skip
#: What a merge may fill: every column but the name, which stays the roster's.
FILLED = ("nickname", "email", "phone", "membership_number", "upi_id")
_EMAIL = EmailValidator()
#: The most roster players one row is said to match (the strongest).
MATCHES_SHOWN = 5


@dataclass
class Match:
    """A roster player a row may be: who, and why (strongest first)."""

    player_id: int
    name: str
    reasons: list[str]
    strong: bool


@dataclass
class Row:
    """One row as it will be stored, with what is wrong with it and what is to be done."""

    number: int
    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    matches: list[Match] = field(default_factory=list)
    choice: str = NEW
    merge_into: int | None = None
    fills: dict[str, str] = field(default_factory=dict)
    kept: dict[str, str] = field(default_factory=dict)

    @property
    def choices(self) -> list[str]:
        """What may be chosen for the row: a row with an error can only be skipped."""
        if self.errors:
            return [SKIP]
        return [*([MERGE] if self.matches else []), *([] if self.name_taken else [NEW]), SKIP]

    name_taken: bool = False


@dataclass
class Preview:
    columns: list[str]
    rows: list[Row]
    ignored: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def count(self, choice: str) -> int:
        return sum(1 for row in self.rows if row.choice == choice)

    @property
    def errors(self) -> int:
        return sum(1 for row in self.rows if row.errors)


@dataclass
class Result:
    created: list[Player]
    merged: list[Player]
    unchanged: int
    skipped: int


class _Roster:
    """The club's players as the import compares with them, read once."""

    def __init__(self, club: Club) -> None:
        self.players = {
            player.pk: player
            for player in Player.objects.filter(club=club).only(
                "pk", "name", "merged_into_id", *FILLED
            )
        }
        kept = [p for p in self.players.values() if p.merged_into_id is None]
        self.names = NameIndex((p.pk, p.name) for p in kept)
        self.taken = {p.name.lower(): p for p in self.players.values()}
        self.emails = _by((p.email.lower(), p.pk) for p in kept if p.email)
        self.phones = _by((_phone_tail(p.phone), p.pk) for p in kept if p.phone)
        self.numbers = {p.membership_number.lower(): p.pk for p in self.players.values()
                        if p.membership_number}  # fmt: skip


def _by(pairs: Iterable[tuple[str, int]]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for key, pk in pairs:
        found.setdefault(key, []).append(pk)
    return found


def _phone_tail(phone: str) -> str:
    """A phone number as compared: its last ten digits (with or without a country code or a
    leading 0, one number), or all of a shorter one."""
    digits = phone.lstrip("+")
    return digits[-10:]


def _tidied(cells: dict[str, str], points_only: bool) -> dict[str, str]:
    values = {column: " ".join(str(cells.get(column, "")).split()) for column in COLUMNS}
    values["name"] = visible_name(values["name"])
    values["phone"] = phone_kept(values["phone"])
    if points_only:
        values["upi_id"] = ""  # a club that plays for points only keeps no payment details
    return values


def _checked(values: dict[str, str]) -> dict[str, str]:
    """Each column's problem, in the words a person can act on."""
    errors = {column: gettext("a NUL character cannot be stored")
              for column, value in values.items() if "\x00" in value}  # fmt: skip
    if not values["name"] and "name" not in errors:
        errors["name"] = gettext("empty: every row needs a name")
    for column, limit in LIMITS.items():
        if len(values[column]) > limit and column not in errors:
            errors[column] = gettext("too long: at most %(limit)s characters (%(count)s)") % {
                "limit": limit,
                "count": len(values[column]),
            }
    checks = (("email", _EMAIL), ("phone", validate_phone), ("upi_id", validate_upi_id))
    for column, check in checks:
        if values[column] and column not in errors:
            try:
                check(values[column])
            except ValidationError as exc:
                errors[column] = gettext("not valid: %(why)s") % {"why": exc.messages[0]}
    return errors


def _matches(values: dict[str, str], roster: _Roster) -> list[Match]:
    reasons: dict[int, list[tuple[int, str]]] = {}

    def found(pks: Iterable[int], strength: int, why: str) -> None:
        for pk in pks:
            reasons.setdefault(pk, []).append((strength, why))

    key = name_key(values["name"])
    for pk in roster.names.same(key):
        exact = roster.players[pk].name == values["name"]
        found(
            [pk],
            0,
            gettext_noop("same name")
            if exact
            else gettext_noop("same name (case, accents or spacing)"),
        )
    found(roster.names.reordered(key), 1, gettext_noop("same name, words in another order"))
    if values["email"]:
        found(roster.emails.get(values["email"].lower(), []), 0, gettext_noop("same email"))
    if values["phone"]:
        found(roster.phones.get(_phone_tail(values["phone"]), []), 0, gettext_noop("same phone"))
    number = values["membership_number"].lower()
    if number and number in roster.numbers:
        pk = roster.numbers[number]
        if roster.players[pk].merged_into_id is None:
            found([pk], 0, gettext_noop("same membership number"))
    if not reasons:  # names a letter apart only when nothing surer found the person
        found(roster.names.similar(key), 2, gettext_noop("similar name"))
    matches = [
        Match(pk, roster.players[pk].name, [why for _, why in sorted(set(whys))],
              min(s for s, _ in whys) < 2)
        for pk, whys in reasons.items()
    ]  # fmt: skip
    matches.sort(key=lambda m: (not m.strong, -len(m.reasons), m.name.lower()))
    return matches[:MATCHES_SHOWN]


def _duplicate_words(column: str) -> str:
    """A row's column the same as an earlier row's, in the page's (or the API's) language."""
    return {
        "name": gettext("duplicate in the file: the same name as row %(row)s"),
        "email": gettext("duplicate in the file: the same email as row %(row)s"),
        "phone": gettext("duplicate in the file: the same phone as row %(row)s"),
        "membership_number": gettext(
            "duplicate in the file: the same membership number as row %(row)s"
        ),
    }[column]


def _duplicates_in_file(rows: list[Row]) -> None:
    """A row that is a person already named on an earlier row of the sheet is an error."""
    seen: dict[str, dict[str, int]] = {"name": {}, "email": {}, "phone": {},
                                       "membership_number": {}}  # fmt: skip
    for row in rows:
        keys = {
            "name": name_key(row.values["name"]),
            "email": row.values["email"].lower(),
            "phone": _phone_tail(row.values["phone"]) if row.values["phone"] else "",
            "membership_number": row.values["membership_number"].lower(),
        }
        for column, key in keys.items():
            if not key:
                continue
            earlier = seen[column].get(key)
            if earlier is not None and column not in row.errors:
                row.errors[column] = _duplicate_words(column) % {"row": earlier}
            else:
                seen[column].setdefault(key, row.number)


def _decide(row: Row, roster: _Roster, choice: str | None, merge_into: int | None) -> None:
    """The row's choice (the one asked, or the default), checked, and what a merge fills."""
    row.name_taken = row.values["name"].lower() in roster.taken
    if choice is None:  # the default: merge into a strong match, else new, an error skipped
        strong = [m for m in row.matches if m.strong]
        choice = SKIP if row.errors else (MERGE if strong or row.name_taken else NEW)
        merge_into = strong[0].player_id if strong else None
        if choice == MERGE and merge_into is None:
            choice = SKIP  # the name is a merged-away player's: nothing to merge into
    row.choice = choice
    if choice not in row.choices and row.errors:
        column, message = next(iter(row.errors.items()))
        raise InvalidInput(
            gettext("row %(number)s: %(column)s: %(message)s (the row can only be skipped)")
            % {"number": row.number, "column": column, "message": message},
            details={"rows": {str(row.number): row.errors}},
        )
    if choice not in row.choices:
        allowed = row.choices[0]
        for other in row.choices[1:]:
            allowed = gettext("%(one)s or %(other)s") % {"one": allowed, "other": other}
        why = gettext(
            "row %(number)s: choice: %(choice)s is not possible (its name is already on the "
            "roster); choose %(allowed)s"
        )
        raise InvalidInput(
            why % {"number": row.number, "choice": repr(choice), "allowed": allowed},
            details={"rows": {str(row.number): {"choice": row.choices}}},
        )
    if choice == MERGE:
        if merge_into not in {m.player_id for m in row.matches}:
            raise InvalidInput(
                gettext("row %(number)s: merge_into: choose one of the players this row matches")
                % {"number": row.number},
                details={"rows": {str(row.number): {"merge_into": merge_into}}},
            )
        row.merge_into = merge_into
        target = roster.players[merge_into]
        for column in FILLED:
            value, current = row.values[column], getattr(target, column)
            if value and not current:
                row.fills[column] = value
            elif value and current != value:
                row.kept[column] = current
    _number_owner_check(row, roster)


def _number_owner_check(row: Row, roster: _Roster) -> None:
    """A membership number stays one player's: a row may not give it to another."""
    number = row.values["membership_number"].lower()
    owner = roster.numbers.get(number) if number else None
    if owner is None or row.choice == SKIP or "membership_number" in row.errors:
        return
    if row.choice == NEW or (row.merge_into != owner and "membership_number" in row.fills):
        row.errors["membership_number"] = gettext("already %(name)s's") % {
            "name": roster.players[owner].name
        }
        row.choice, row.merge_into = SKIP, None
        row.fills = {}


def rows_checked(
    *, club: Club, sheet: Sheet, choices: dict[int, tuple[str, int | None]] | None = None
) -> Preview:
    """The sheet's rows as they will be stored: the preview (``choices`` None: each row's
    default) and the confirm's check (``choices``: each row's, by its number)."""
    roster = _Roster(club)
    rows = [Row(number, _tidied(cells, club.points_only)) for number, cells in sheet.rows]
    numbers = [row.number for row in rows]
    if len(set(numbers)) != len(numbers):
        raise InvalidInput(
            "rows: " + gettext("each row's number must be given once"), code="invalid"
        )
    for row in rows:
        row.errors = _checked(row.values)
    _duplicates_in_file(rows)
    for row in rows:
        row.matches = _matches(row.values, roster)
        asked = None if choices is None else choices.get(row.number, (SKIP, None))
        _decide(row, roster, *(asked or (None, None)))
    notes = []
    if club.points_only and "upi_id" in sheet.columns:
        notes.append(
            gettext("UPI ids are left out: %(club)s plays for points only.") % {"club": club.name}
        )
    _same_new_names(rows)
    return Preview(list(sheet.columns), rows, sheet.ignored, notes)


def _same_new_names(rows: list[Row]) -> None:
    """Two new players may not share a name (ignoring case): the file's duplicate check says
    so first; this holds it when choices were sent."""
    taken: dict[str, int] = {}
    for row in rows:
        if row.choice != NEW:
            continue
        earlier = taken.setdefault(row.values["name"].lower(), row.number)
        if earlier != row.number:
            raise InvalidInput(
                gettext("row %(number)s: name: the same as row %(earlier)s, also new")
                % {"number": row.number, "earlier": earlier},
                details={"rows": {str(row.number): {"name": row.values["name"]}}},
            )


def sheet_of_rows(rows: list[dict[str, Any]]) -> tuple[Sheet, dict[int, tuple[str, int | None]]]:
    """The rows a confirm sends back (their number, values, choice and the player to merge
    into) as a sheet and its choices."""
    sheet_rows = []
    choices: dict[int, tuple[str, int | None]] = {}
    for row in rows:
        number = int(row["row"])
        sheet_rows.append((number, {column: str(row.get(column) or "") for column in COLUMNS}))
        choices[number] = (row.get("choice") or SKIP, row.get("merge_into"))
    return Sheet({column: column for column in COLUMNS}, sheet_rows), choices


@transaction.atomic
def players_import(*, club: Club, actor: AbstractBaseUser, rows: list[dict[str, Any]]) -> Result:
    """Write the rows with their choices: new players created, matched players' empty fields
    filled, all in one transaction after every row is checked again (any row refused refuses
    the lot, naming the row and the column). Imports of one club run one at a time."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    sheet, choices = sheet_of_rows(rows)
    preview = rows_checked(club=club, sheet=sheet, choices=choices)
    for row in preview.rows:
        if row.errors and choices[row.number][0] != SKIP:  # refused now (a number taken)
            column, message = next(iter(row.errors.items()))
            raise InvalidInput(
                gettext("row %(number)s: %(column)s: %(message)s")
                % {"number": row.number, "column": column, "message": message},
                details={"rows": {str(row.number): row.errors}},
            )
    created = [_new_player(club, row.values) for row in preview.rows if row.choice == NEW]
    merged = _merges_written(club, actor, [row for row in preview.rows if row.fills])
    try:
        with transaction.atomic():
            Player.objects.bulk_create(created)
    except IntegrityError:
        raise Conflict(
            "name: " + gettext("a player of one of these names was added meanwhile: preview again"),
            code="name_taken",
        ) from None
    _audited(club, actor, created, "player.create")
    unchanged = sum(1 for row in preview.rows if row.choice == MERGE and not row.fills)
    return Result(created, merged, unchanged, preview.count(SKIP))


def _new_player(club: Club, values: dict[str, str]) -> Player:
    return Player(club=club, **values)


def _merges_written(club: Club, actor: AbstractBaseUser, rows: list[Row]) -> list[Player]:
    if not rows:
        return []
    players = Player.objects.select_for_update().in_bulk([row.merge_into for row in rows])
    befores = {}
    for row in rows:
        player = players[row.merge_into]  # type: ignore[index]
        befores[player.pk] = _shown(snapshot(player, PLAYER_FIELDS))
        for column, value in row.fills.items():
            setattr(player, column, value)
        # One small UPDATE each: bulk_update's CASE over every row and column cost five times
        # as much to build (docs/performance.md).
        Player.objects.filter(pk=player.pk).update(**row.fills)
    changed = list(players.values())
    _audited(club, actor, changed, "player.update", befores)
    return changed


def _shown(values: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without its empty fields: most of an imported player's are."""
    return {key: value for key, value in values.items() if value not in ("", None)}


def _audited(
    club: Club,
    actor: AbstractBaseUser | None,
    players: list[Player],
    action: str,
    befores: dict[int, dict[str, Any]] | None = None,
) -> None:
    AuditEntry.objects.bulk_create(
        AuditEntry(
            actor=actor, club=club, action=action, object_type="clubs.player",
            object_id=str(player.pk), before=(befores or {}).get(player.pk),
            after={**_shown(snapshot(player, PLAYER_FIELDS)), "source": "import"},
        )
        for player in players
    )  # fmt: skip
