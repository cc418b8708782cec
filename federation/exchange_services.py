"""The event exchange's writes. On the federation's instance: a member club's owner is given
an export key (the federation keeps its public half), and a club's organiser imports the signed
export of an event it held on its own instance, checked before it is submitted to the officer.
On the club's own instance: the key installed, and an export made. Keyword-only, atomic,
audited."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from clubs.models import Club, Player, Role
from config.api_input import UNKNOWN_FIELD, unknown_fields_refuse
from config.errors import Conflict, InvalidInput, NotFoundError
from federation.exchange import (
    FIELDS,
    FORMAT,
    KEY_FORMAT,
    PRESET_RULES,
    VERSION,
    export_build,
    key_document,
    key_pair,
    preset_rules,
    signature_valid,
    when,
)
from federation.held import HeldEvent
from federation.models import ExportKey, Federation, MemberClub, RemotePlayer, SanctionedEvent
from federation.services import (
    _club_role,
    _event_locked,
    _member,
    event_submission_store,
    event_submittable_check,
)
from scoring.models import Session
from tournaments.models import Tournament

#: ``None``: the instance's operator at the command line.
Actor = User | None


def _role(actor: Actor, club: Club, needed: str) -> None:
    if actor is not None:
        _club_role(actor, club, needed)


# --- on the federation's instance --------------------------------------------------------------


def export_key_issue(*, actor: User, federation: Federation, club: Club) -> dict[str, str]:
    """A new export key for a member club (the one before stops working): the key file its
    owner installs on the club's own instance. Only its public half is kept here."""
    _club_role(actor, club, Role.OWNER)
    _member(federation, club)
    key_id, private_key, public_key = key_pair()
    with transaction.atomic():
        member = MemberClub.objects.select_for_update().get(federation=federation, club=club)
        member.export_key_id = key_id
        member.export_public_key = public_key
        member.export_key_issued_at = timezone.now()
        member.save(update_fields=["export_key_id", "export_public_key", "export_key_issued_at"])
        audit_record(
            actor=actor,
            club=club,
            action="federation.export_key_issue",
            obj=member,
            after={"key_id": key_id},
        )
    return {
        "format": KEY_FORMAT,
        "federation": federation.slug,
        "club": club.slug,
        "key_id": key_id,
        "private_key": private_key,
    }


def event_import(*, actor: User, event: SanctionedEvent, document: Any) -> SanctionedEvent:
    """The club's organiser imports the signed export of an event it held on its own instance:
    checked (its version, its signature by the club's key, that it answers this sanction and
    was played under the federation's preset after it was asked for, that each game's ledger
    sums to zero), then submitted to the officer as ``event_submit`` would."""
    _club_role(actor, event.club, Role.ORGANISER)
    with transaction.atomic():
        event = _event_locked(event.pk)
        results, played_on = _checked(document, event)
        event_submittable_check(event)
        results = _roster_keyed(event.club, document["players"], results)
        event_submission_store(event, results, played_on)
        audit_record(
            actor=actor,
            club=event.club,
            action="federation.event_import",
            obj=event,
            after={
                "version": event.version,
                "players": len(results["places"]),
                "key_id": document["key_id"],
            },
        )
    return event


def _checked(document: Any, event: SanctionedEvent) -> tuple[dict[str, Any], date]:
    if not isinstance(document, dict):
        raise InvalidInput("export: " + _("a JSON object"), code="bad_export")
    if document.get("version", VERSION) == VERSION:  # another version: refused as such below
        unknown = {name: [UNKNOWN_FIELD] for name in document if name not in FIELDS}
        if unknown:
            unknown_fields_refuse(unknown, list(FIELDS))
    if document.get("format") != FORMAT:
        words = _("not a %(format)s document") % {"format": FORMAT}
        raise InvalidInput("format: " + words, code="bad_export")
    if document.get("version") != VERSION:
        words = _(
            "this instance reads version %(version)s of the event export; "
            "this one is version %(found)s"
        ) % {"version": VERSION, "found": repr(document.get("version"))}
        raise InvalidInput("version: " + words, code="export_version")
    _signed(document, event)
    federation = event.federation
    if not event.held_elsewhere:
        raise Conflict(
            "event: " + _("it is held on this instance; submit it instead"), code="held_here"
        )
    expected = {
        "federation": federation.slug,
        "club": event.club.slug,
        "event": event.pk,
        "kind": event.held_elsewhere,
        "tier": event.tier,
    }
    for field, value in expected.items():
        if document.get(field) != value:
            words = _("the export says %(found)s; the sanction, %(expected)s") % {
                "found": repr(document.get(field)),
                "expected": repr(value),
            }
            raise InvalidInput(f"{field}: " + words, code="export_mismatch")
    preset = document.get("preset")
    ours = preset_rules(federation.preset)
    if not isinstance(preset, dict) or {f: preset.get(f) for f in PRESET_RULES} != ours:
        words = _("its games are not played under %(preset)s") % {
            "preset": federation.preset.shown_name
        }
        raise InvalidInput("preset: " + words, code="bad_preset")
    if when(document.get("started_at"), "started_at") < event.created_at:
        raise InvalidInput(
            "started_at: " + _("the event started before it was asked to be sanctioned"),
            code="event_started",
        )
    try:
        played_on = date.fromisoformat(str(document.get("played_on")))
    except ValueError:
        raise InvalidInput("played_on: " + _("not a date"), code="bad_export") from None
    refs = _players(document.get("players"))
    return _results(document, refs), played_on


def _signed(document: dict[str, Any], event: SanctionedEvent) -> None:
    member = MemberClub.objects.filter(
        federation=event.federation, club=event.club, status=MemberClub.Status.MEMBER
    ).first()
    if member is None or not member.export_public_key:
        words = _("%(club)s has no export key: its owner asks for one")
        raise Conflict(words % {"club": event.club.name}, code="no_export_key")
    if document.get("key_id") != member.export_key_id:
        words = _("signed with %(found)s, not the club's key %(key)s") % {
            "found": repr(document.get("key_id")),
            "key": repr(member.export_key_id),
        }
        raise InvalidInput("key_id: " + words, code="bad_signature")
    if not signature_valid(document, member.export_public_key):
        raise InvalidInput(
            "signature: " + _("it does not match the export (changed since it was signed)"),
            code="bad_signature",
        )


def _players(players: Any) -> set[str]:
    if not isinstance(players, list):
        raise InvalidInput("players: " + _("a list"), code="bad_export")
    refs: set[str] = set()
    for index, row in enumerate(players):
        ok = isinstance(row, dict) and isinstance(row.get("ref"), str) and row["ref"]
        name = row.get("name") if isinstance(row, dict) else None
        if not ok or not isinstance(name, str) or not 0 < len(name.strip()) <= 80:
            raise InvalidInput(f"players[{index}]: " + _("a ref and a name"), code="bad_export")
        if row["ref"] in refs:
            words = _("%(ref)s twice") % {"ref": repr(row["ref"])}
            raise InvalidInput(f"players[{index}]: " + words, code="bad_export")
        refs.add(row["ref"])
    return refs


def _ranks(value: Any, refs: set[str], field: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise InvalidInput(f"{field}: " + _("player ref -> place"), code="bad_export")
    for ref, rank in value.items():
        if ref not in refs:
            words = _("%(ref)s is not among the players") % {"ref": repr(ref)}
            raise InvalidInput(f"{field}: " + words, code="bad_export")
        if not isinstance(rank, int) or isinstance(rank, bool) or rank < 1:
            raise InvalidInput(f"{field}.{ref}: " + _("a place from 1"), code="bad_export")
    return value


def _results(document: dict[str, Any], refs: set[str]) -> dict[str, Any]:
    """Places and rated games by the club's refs, each game's ledger checked to sum to zero."""
    places = _ranks(document.get("places"), refs, "places")
    if len(places) < 2:
        raise InvalidInput("places: " + _("two players or more"), code="bad_export")
    games = document.get("games")
    if not isinstance(games, list):
        raise InvalidInput("games: " + _("a list"), code="bad_export")
    rated = []
    for index, game in enumerate(games):
        field = f"games[{index}]"
        if not isinstance(game, dict):
            raise InvalidInput(f"{field}: " + _("an object"), code="bad_export")
        _ledger(game.get("ledger"), refs, f"{field}.ledger")
        if game.get("ranks") is not None:
            ranks = _ranks(game["ranks"], refs, f"{field}.ranks")
            if ranks:
                rated.append(ranks)
    return {"places": places, "games": rated}


def _ledger(ledger: Any, refs: set[str], field: str) -> None:
    if not isinstance(ledger, dict) or not ledger:
        raise InvalidInput(f"{field}: " + _("quantity -> account -> balance"), code="bad_export")
    for quantity, accounts in ledger.items():
        if not isinstance(accounts, dict):
            raise InvalidInput(f"{field}.{quantity}: " + _("account -> balance"), code="bad_export")
        for account, amount in accounts.items():
            known = account in ("game", "club") or (
                account.startswith("player:") and account[7:] in refs
            )
            if not known or not isinstance(amount, int) or isinstance(amount, bool):
                raise InvalidInput(
                    f"{field}.{quantity}.{account}: " + _("not a balance"), code="bad_export"
                )
        total = sum(accounts.values())
        if total != 0:
            words = _("sums to %(total)s, not zero") % {"total": total}
            raise InvalidInput(f"{field}.{quantity}: " + words, code="not_zero_sum")


def _roster_keyed(
    club: Club, players: list[dict[str, str]], results: dict[str, Any]
) -> dict[str, Any]:
    """The results by this instance's roster entries. A player of the club's instance met for
    the first time is the club's roster entry of the same name here (names are unique in a
    club) unless another player there already is; otherwise a new entry, named as there (with
    the ref when the name is taken), to be proposed to the registry like any other."""
    known = dict(RemotePlayer.objects.filter(club=club).values_list("ref", "player_id"))
    taken = set(known.values())
    for row in players:
        if row["ref"] in known:
            continue
        name = row["name"].strip()
        player = Player.objects.filter(club=club, name__iexact=name).first()
        if player is None or player.pk in taken:
            if player is not None:
                name = f"{name[:60]} ({row['ref'][:16]})"
            player = Player.objects.create(club=club, name=name)
        RemotePlayer.objects.create(club=club, ref=row["ref"], player=player)
        known[row["ref"]] = player.pk
        taken.add(player.pk)

    def keyed(ranks: dict[str, int]) -> dict[str, int]:
        return {str(pid): rank for pid, rank in sorted((known[r], v) for r, v in ranks.items())}

    return {
        "places": keyed(results["places"]),
        "games": [keyed(ranks) for ranks in results["games"]],
    }


# --- on the club's own instance ------------------------------------------------------------------


def export_key_install(*, actor: Actor, club: Club, document: Any) -> ExportKey:
    """The club's owner (or the instance's operator) installs the key its federation gave."""
    _role(actor, club, Role.OWNER)
    found = key_document(document)
    key, _created = ExportKey.objects.update_or_create(
        club=club,
        federation=found["federation"],
        defaults={
            "club_there": found["club"],
            "key_id": found["key_id"],
            "private_key": found["private_key"],
        },
    )
    audit_record(
        actor=actor,
        club=club,
        action="federation.export_key_install",
        obj=key,
        after={"federation": key.federation, "key_id": key.key_id},
    )
    return key


def export_make(
    *,
    actor: Actor,
    club: Club,
    federation: str,
    event: int,
    tier: str,
    session: Session | None = None,
    tournament: Tournament | None = None,
) -> dict[str, Any]:
    """The signed export of the club's finished night or tournament for ``federation``'s
    sanctioned event ``event``."""
    _role(actor, club, Role.ORGANISER)
    if (session is None) == (tournament is None):
        raise InvalidInput("event: " + _("name a night or a tournament"), code="bad_field")
    key = ExportKey.objects.filter(club=club, federation=federation).first()
    if key is None:
        words = _("no export key for %(federation)s: install the one it gave")
        raise NotFoundError(words % {"federation": repr(federation)})
    held = HeldEvent(
        club,
        None if session is None else session.pk,
        None if tournament is None else tournament.pk,
    )
    return export_build(key=key, held=held, event=event, tier=tier)
