"""Players signing themselves up and checking in from their phones: the director opens the
public sign-up (with an optional closing time); a player signs up by name and gets a personal
link (a random token, kept only as its SHA-256), and checks in at the venue with the short code
the projector and the desk show (it changes every ``CODE_MINUTES``; the current and the previous
one are taken), so nobody checks in from home. A name already on the club's roster is a claim
the desk confirms by checking that player in."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from clubs import selectors as club_selectors
from clubs import services as club_services
from config.errors import Conflict, InvalidInput, NotFoundError, TooManyRequests
from config.names import name_checked, require_length
from tournaments.changes import E, audit, lock, state_word
from tournaments.models import Entry, Tournament
from tournaments.services.entries import entry_add, entry_check_in

#: How long a check-in code is shown before the next (the previous one is still taken).
CODE_MINUTES = 5
CODE_DIGITS = 4
#: Sign-ups and check-in tries a client address may make in ``LIMIT_WINDOW_SECONDS`` (a venue's
#: phones often share one address), and check-in tries for one entry (what stops guessing).
SIGNUP_LIMIT = 60
CHECK_IN_LIMIT = 200
CHECK_IN_ENTRY_LIMIT = 8
LIMIT_WINDOW_SECONDS = 600


def link_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _code_at(tournament: Tournament, window: int) -> str:
    digest = salted_hmac("tournaments.check-in-code", f"{tournament.pk}:{window}").hexdigest()
    return str(int(digest, 16) % 10**CODE_DIGITS).zfill(CODE_DIGITS)


def _window(at: datetime) -> int:
    return int(at.timestamp() // (CODE_MINUTES * 60))


def check_in_code(*, tournament: Tournament, at: datetime | None = None) -> str:
    """The check-in code shown now (on the projector and the desk)."""
    return _code_at(tournament, _window(at or timezone.now()))


def check_in_code_valid(*, tournament: Tournament, code: str, at: datetime | None = None) -> bool:
    """Whether ``code`` is the current code or the one before it."""
    now = _window(at or timezone.now())
    typed = "".join(str(code).split())
    return any(hmac.compare_digest(typed, _code_at(tournament, w)) for w in (now, now - 1))


def client_allowed(*, what: str, client_address: str, limit: int) -> bool:
    """Count one more ``what`` (sign-up, check-in try) from ``client_address`` (or for an
    entry); False once it has made more than ``limit`` in the window (counted whether refused
    or not)."""
    key = f"tournaments:{what}:{hashlib.sha256(client_address.encode()).hexdigest()}"
    cache.add(key, 0, timeout=LIMIT_WINDOW_SECONDS)
    try:
        return cache.incr(key) <= limit
    except ValueError:  # the window ended between the two calls
        cache.add(key, 1, timeout=LIMIT_WINDOW_SECONDS)
        return True


def signup_accepting(tournament: Tournament, at: datetime | None = None) -> bool:
    """Whether the public sign-up takes entries now."""
    return (
        tournament.status == Tournament.Status.REGISTRATION
        and tournament.signup_open
        and (
            tournament.signup_closes_at is None
            or (at or timezone.now()) < tournament.signup_closes_at
        )
    )


@transaction.atomic
def signup_settings_set(
    *, tournament: Tournament, actor: AbstractBaseUser, open: bool, closes_at: datetime | None
) -> Tournament:
    """The director opens (or closes) the public sign-up, with an optional closing time."""
    tournament = lock(tournament)
    if open and tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict(
            _("sign-up: the tournament is %(status)s; players sign up only before the start")
            % {"status": state_word(tournament.get_status_display())},
            code="entries_closed",
        )
    if open and closes_at is not None and closes_at <= timezone.now():
        raise InvalidInput(_("closing time: give a time still to come"), code="bad_closing_time")
    tournament.signup_open = open
    tournament.signup_closes_at = closes_at if open else None
    tournament.save(update_fields=["signup_open", "signup_closes_at"])
    audit(tournament, actor, "signup_settings", open=open, closes_at=str(closes_at or ""))
    return tournament


@dataclass
class SignedUp:
    entry: Entry
    token: str  # the personal link's token: given once, kept only as its hash


@transaction.atomic
def player_sign_up(*, tournament: Tournament, name: str, signup_key: str) -> SignedUp:
    """A player signs up on the public page. The same form sent again (``signup_key``: a double
    tap) gives the same entry a fresh link; a name already entered is refused (the desk has that
    player's link). A name on the club's roster enters that player as a claim the desk confirms
    at check-in; any other name is a new player of the club."""
    tournament = lock(tournament)
    key = "".join(str(signup_key).split())[:64]
    if len(key) < 16:
        raise InvalidInput(
            _("the sign-up form is out of date: load the page again"), code="bad_form"
        )
    again = tournament.entries.select_related("player").filter(signup_key=key).first()
    if again is not None:
        return SignedUp(again, _new_link(again))
    if not signup_accepting(tournament):
        raise Conflict(_("sign-up is closed: ask the desk"), code="signup_closed")
    typed = name_checked(name, field="your name")
    if not typed:
        raise InvalidInput(_("your name: type your name as the club knows you"), code="bad_name")
    require_length(typed, field="your name", limit=80)
    player = club_selectors.player_named(club=tournament.club, name=typed)
    if player is not None and tournament.entries.filter(player=player).exists():
        raise Conflict(
            _("%(name)s is signed up already: ask the desk for your link") % {"name": player.name},
            code="already_entered",
        )
    claim = player is not None
    if player is None:
        player = club_services.player_create(club=tournament.club, actor=None, name=typed)
    entry = entry_add(tournament=tournament, actor=None, player=player, self_signed_up=True)
    entry.signup_key = key
    entry.roster_claim = claim
    entry.save(update_fields=["signup_key", "roster_claim"])
    return SignedUp(entry, _new_link(entry))


def _new_link(entry: Entry) -> str:
    token = secrets.token_urlsafe(24)
    entry.link_hash = link_hash(token)
    entry.save(update_fields=["link_hash"])
    return token


@transaction.atomic
def entry_link_issue(*, tournament: Tournament, actor: AbstractBaseUser, entry_id: int) -> str:
    """The desk gives an entrant their personal link (a new one: any older one stops working)."""
    tournament = lock(tournament)
    entry = tournament.entries.select_for_update().filter(pk=entry_id).first()
    if entry is None:
        raise NotFoundError(
            _("no entry #%(entry)s in %(tournament)s")
            % {"entry": entry_id, "tournament": tournament.name}
        )
    token = _new_link(entry)
    audit(tournament, actor, "entry_link", entry=entry.pk)
    return token


def player_check_in(*, tournament: Tournament, entry: Entry, code: str) -> Entry:
    """The player checks in from their phone with the code shown at the venue (a few tries an
    entry in the window: the code is short)."""
    if not client_allowed(
        what="check-in-entry",
        client_address=f"entry:{entry.pk}:{entry.created_at.isoformat()}",
        limit=CHECK_IN_ENTRY_LIMIT,
    ):
        raise TooManyRequests(
            _("too many check-in tries for %(name)s: ask the desk") % {"name": entry.player.name},
            retry_after=LIMIT_WINDOW_SECONDS,
        )
    if not check_in_code_valid(tournament=tournament, code=code):
        raise InvalidInput(
            _(
                "check-in code: that is not the code on the screen (it changes every "
                "%(minutes)s minutes): type the one shown now"
            )
            % {"minutes": CODE_MINUTES},
            code="bad_check_in_code",
        )
    if entry.roster_claim:
        raise Conflict(
            _("%(name)s is a name on the club's roster: the desk checks you in")
            % {"name": entry.player.name},
            code="desk_confirms",
        )
    if entry.status == E.CHECKED_IN:
        return entry  # checked in already (a second tap)
    return entry_check_in(tournament=tournament, actor=None, entry_id=entry.pk)
