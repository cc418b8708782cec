"""The signed event export: how a club that runs on its own instance hands a finished
sanctioned event to its federation's instance (docs/architecture.md, "Event exchange").

A document of ``FORMAT``, ``VERSION`` 1: the federation, the club and the sanctioned event it
answers (as the federation's instance names them), the kind, tier and name, when it started,
the preset every game was played under, the players (by their id on the club's instance, with
their name), their places, and each finished game's finishing order and ledger balances. It is
signed with Ed25519 over its canonical JSON (keys sorted, no spaces, UTF-8) without the
``signature`` field, by the key the federation gave the club (``key_id``)."""

from __future__ import annotations

import base64
import binascii
import json
import secrets
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, InvalidInput
from federation.held import (
    HeldEvent,
    finished,
    finished_games,
    game_ledger,
    rated_order,
    session_id_of,
    started_at,
)
from federation.models import ExportKey
from scoring.models import Game, RulePreset, Session
from tournaments.models import Tournament

FORMAT = "rummyclub.federation-event"
VERSION = 1
KEY_FORMAT = "rummyclub.federation-export-key"
#: Version 1's fields.
FIELDS = (
    "format", "version", "federation", "club", "event", "kind", "tier", "name", "started_at",
    "played_on", "preset", "players", "places", "games", "exported_at", "key_id", "signature",
)  # fmt: skip
#: A preset's fields that must match the federation's locked preset (its name and version may
#: differ between instances; the rules may not).
PRESET_RULES = ("format", "variant", "params")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii")


def _unb64(text: object, field: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(str(text).encode("ascii"))
    except (binascii.Error, ValueError, UnicodeEncodeError):
        raise InvalidInput(f"{field}: " + _("not base64"), code="bad_signature") from None


def canonical(document: dict[str, Any]) -> bytes:
    """What is signed: the document without its signature, as canonical JSON."""
    unsigned = {k: v for k, v in document.items() if k != "signature"}
    return json.dumps(
        unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def key_pair() -> tuple[str, str, str]:
    """A new key: its id, the private half (for the club) and the public one (kept here)."""
    private = Ed25519PrivateKey.generate()
    raw = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return f"k-{secrets.token_hex(8)}", _b64(raw), _b64(public)


def sign(document: dict[str, Any], private_key: str) -> dict[str, Any]:
    private = Ed25519PrivateKey.from_private_bytes(_unb64(private_key, "private_key"))
    return {**document, "signature": _b64(private.sign(canonical(document)))}


def signature_valid(document: dict[str, Any], public_key: str) -> bool:
    if not isinstance(document.get("signature"), str):
        return False
    signature = _unb64(document["signature"], "signature")
    try:
        Ed25519PublicKey.from_public_bytes(_unb64(public_key, "public_key")).verify(
            signature, canonical(document)
        )
    except (InvalidSignature, ValueError):
        return False
    return True


def preset_rules(preset: RulePreset) -> dict[str, Any]:
    return {"format": preset.format, "variant": preset.variant, "params": preset.params}


# --- on the club's own instance ---------------------------------------------------------------


def export_build(*, key: ExportKey, held: HeldEvent, event: int, tier: str) -> dict[str, Any]:
    """The signed export of a finished night or tournament of ``key``'s club, answering the
    federation's sanctioned event ``event`` of ``tier``."""
    results, played_on = finished(held, None)
    games = list(finished_games(session_id=session_id_of(held)))
    if not games:
        raise Conflict("event: " + _("it has no finished game"), code="session_not_finished")
    preset = games[0].preset
    refs = {int(ref) for ref in results["places"]}
    out_games = []
    for game in games:
        out = _game_out(game, rated_order(game))
        out_games.append(out)
        # Everyone the game ranks or whose account it holds (an abandoned game ranks nobody).
        refs.update(int(ref) for ref in out["ranks"] or {})
        refs.update(
            int(account.removeprefix("player:"))
            for accounts in out["ledger"].values()
            for account in accounts
            if account.startswith("player:")
        )
    names = dict(held.club.players.filter(pk__in=refs).values_list("id", "name"))
    document = {
        "format": FORMAT,
        "version": VERSION,
        "federation": key.federation,
        "club": key.club_there,
        "event": event,
        "kind": held.kind,
        "tier": tier,
        "name": _event_name(held),
        "started_at": started_at(held).isoformat(),
        "played_on": played_on.isoformat(),
        "preset": {
            "key": preset.key,
            "version": preset.version,
            "name": preset.name,
            **preset_rules(preset),
        },
        "players": [{"ref": str(pid), "name": names[pid]} for pid in sorted(refs)],
        "places": results["places"],
        "games": out_games,
        "exported_at": timezone.now().isoformat(),
        "key_id": key.key_id,
    }
    return sign(document, key.private_key)


def _game_out(game: Game, order: dict[int, int] | None) -> dict[str, Any]:
    return {
        "ranks": None if order is None else {str(p): r for p, r in sorted(order.items())},
        "ledger": game_ledger(game),
    }


def _event_name(held: HeldEvent) -> str:
    if held.tournament_id is not None:
        return Tournament.objects.get(pk=held.tournament_id).name
    return Session.objects.get(pk=session_id_of(held)).name


def key_document(document: object) -> dict[str, str]:
    """The key file the federation gave, read: a clear error naming what is missing."""
    if not isinstance(document, dict) or document.get("format") != KEY_FORMAT:
        words = _("not a %(format)s document") % {"format": KEY_FORMAT}
        raise InvalidInput("key: " + words, code="bad_export_key")
    fields = ("federation", "club", "key_id", "private_key")
    missing = [field for field in fields if not isinstance(document.get(field), str)]
    if missing:
        words = _("%(fields)s missing") % {"fields": ", ".join(missing)}
        raise InvalidInput("key: " + words, code="bad_export_key")
    try:
        Ed25519PrivateKey.from_private_bytes(_unb64(document["private_key"], "private_key"))
    except ValueError:
        raise InvalidInput(
            "private_key: " + _("not an Ed25519 key"), code="bad_export_key"
        ) from None
    return {field: document[field] for field in fields}


def when(text: object, field: str) -> datetime:
    try:
        found = datetime.fromisoformat(str(text))
    except ValueError:
        raise InvalidInput(f"{field}: " + _("not a date and time"), code="bad_export") from None
    if found.tzinfo is None:
        raise InvalidInput(f"{field}: " + _("give its time zone"), code="bad_export")
    return found
