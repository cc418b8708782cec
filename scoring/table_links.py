"""Tables that enter their own results: a table link (its QR code on the table card) lets whoever
holds it enter that table's next deal, saying which seat they are, and confirm or dispute an
entry made from another seat. It grants nothing else: no other table, no other deal, no deal
already counted, no club page.

A link's token is never stored: it is an HMAC of the link's ``nonce`` under the server's secret
key, so the desk can show the same QR code again, and the database keeps only its SHA-256 digest
(what a request's token is looked up by). A revoked link is unknown (404); a link whose table has
no game in play, or whose night is closed, is gone (410). Requests through links are counted per
link and per client address (``table_link_allow``)."""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from clubs.audit import audit_record
from clubs.models import Club, Player
from clubs.page_kit.display import qr_svg as display_qr_svg
from config.errors import Conflict, Gone, InvalidInput, NotAllowed, NotFoundError, TooManyRequests
from scoring.deals import deal_create_with_result
from scoring.formats.reads import rejected_new_deal
from scoring.models import Deal, Game, Seat, Session, Submission, Table, TableEntry, TableLink
from scoring.submissions import submission_confirm_at_table, submission_dispute

_SALT = "rummyclub.table-link"
# Requests through one link, and requests with an unknown token from one address, per minute.
LINK_LIMIT_PER_MINUTE = 300
# Each phone's own share of its link's minute (by its device cookie; phones without one yet, by
# address): a phone over it is refused without counting against the link, so one phone cannot
# lock its table's other phones out.
PHONE_LIMIT_PER_MINUTE = 100
UNKNOWN_LIMIT_PER_MINUTE = 20


def link_token(link: TableLink) -> str:
    return salted_hmac(_SALT, link.nonce, algorithm="sha256").hexdigest()[:40]


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def link_path(link: TableLink) -> str:
    return f"/t/{link_token(link)}/"


# --- the phones a link is used on -----------------------------------------------------------------
# Each phone (or app) that opens a link gets a random device id of its own, kept signed in a
# cookie scoped to the link's path (``device_cookie``): the same phone after a reload, never
# shared between phones. An entry records its device, so that "another player confirms" can
# mean another phone (the link's mode ``confirm``; ``one_phone`` lets one phone do both).

DEVICE_COOKIE = "table-device"
DEVICE_MAX_AGE = 24 * 3600  # a night and its morning


def _device_signer(link: TableLink) -> signing.Signer:
    return signing.Signer(salt=f"{_SALT}.device.{link.pk}")


def device_cookie(link: TableLink) -> str:
    """The name of the cookie that keeps this link's device id on a phone."""
    return f"{DEVICE_COOKIE}-{link.pk}"


def device_of(*, link: TableLink, signed: str | None) -> tuple[str, str]:
    """The device a request comes from, by its cookie's signed value: ``(device, signed)``; a
    new device (and its signed value, to keep) when the cookie is absent or not this link's."""
    if signed:
        try:
            return _device_signer(link).unsign(signed), signed
        except signing.BadSignature:
            pass
    device = secrets.token_hex(8)
    return device, _device_signer(link).sign(device)


def device_names(*, link_id: int) -> dict[str, str]:
    """The link's phones by name ("phone A", "phone B"...), in the order they first entered or
    confirmed an entry; a phone that only looked has no name."""
    return device_names_by_link(link_ids=[link_id]).get(link_id, {})


def device_names_by_link(*, link_ids: Iterable[int]) -> dict[int, dict[str, str]]:
    """``device_names`` of several links, in one query."""
    names: dict[int, dict[str, str]] = {}
    rows = Submission.objects.filter(table_link_id__in=list(link_ids)).order_by("pk")
    for link, *devices in rows.values_list("table_link_id", "entered_device", "confirmed_device"):
        phones = names.setdefault(link, {})
        for device in devices:
            if device and device not in phones:
                phones[device] = f"phone {_letters(len(phones))}"
    return names


def _letters(index: int) -> str:
    """A, B, ... Z, AA, AB, ..."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG (no script, no image file), scaled by its box and
    named for a screen reader."""
    svg = display_qr_svg(url)
    return mark_safe(svg.replace("<svg ", '<svg class="qr" role="img" aria-label="QR code" ', 1))


# --- writes --------------------------------------------------------------------------------------


def _check_mode(mode: str) -> str:
    if mode == TableEntry.OFF:
        raise Conflict(
            _("table entry is off: turn it on in the club's (or tournament's) settings first"),
            code="table_entry_off",
        )
    if mode not in (TableEntry.CONFIRM, TableEntry.ONE_PHONE, TableEntry.TRUSTED):
        raise InvalidInput(
            "mode: "
            + _("%(mode)s is not one of confirm, one_phone, trusted") % {"mode": repr(mode)}
        )
    return mode


def link_keys_new(link: TableLink) -> None:
    """A new nonce and its token's digest for ``link`` (not saved): a new link's, or one
    rebuilt from a club's archive, which carries no live secret."""
    link.nonce = secrets.token_hex(16)
    link.digest = _digest(link_token(link))


def _new_link(table: Table, actor: AbstractBaseUser | None, mode: str) -> TableLink:
    link = TableLink(table=table, mode=mode, created_by=actor)
    link_keys_new(link)
    link.save()
    audit_record(
        actor=actor, club=table.session.club, action="table_link.create", obj=link,
        after={"table": table.pk, "mode": mode},
    )  # fmt: skip
    return link


@transaction.atomic
def table_links_ensure(
    *, tables: Iterable[Table], actor: AbstractBaseUser | None, mode: str
) -> list[TableLink]:
    """Each table's live link, created where it has none (a round's tables in bulk, or one)."""
    mode = _check_mode(mode)
    tables = list(tables)
    live = {
        link.table_id: link
        for link in TableLink.objects.select_for_update().filter(
            table__in=tables, revoked_at__isnull=True
        )
    }
    return [live.get(t.pk) or _new_link(t, actor, mode) for t in tables]


@transaction.atomic
def table_link_revoke(*, link: TableLink, actor: AbstractBaseUser) -> TableLink:
    """The link stops working at once (anyone holding it is told the desk withdrew it and to
    ask for the new one: 410); a new one can be made for the table."""
    link = TableLink.objects.select_for_update().select_related("table__session").get(pk=link.pk)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        audit_record(
            actor=actor, club=link.table.session.club, action="table_link.revoke", obj=link,
            after={"table": link.table_id},
        )  # fmt: skip
    return link


# --- reads ---------------------------------------------------------------------------------------


def table_link_get(*, club: Club, link_id: int) -> TableLink:
    link = TableLink.objects.filter(pk=link_id, table__session__club=club).first()
    if link is None:
        raise NotFoundError(
            _("no table link #%(id)s in %(club)s") % {"id": link_id, "club": club.name}
        )
    return link


def table_get(*, club: Club, table_id: int) -> Table:
    table = (
        Table.objects.select_related("session__club")
        .filter(pk=table_id, session__club=club)
        .first()
    )
    if table is None:
        raise NotFoundError(_("no table #%(id)s in %(club)s") % {"id": table_id, "club": club.name})
    return table


def tables_taking_entries(*, session: Session) -> list[Table]:
    """A night's tables, in order: those a link can be made for and a card printed."""
    return list(session.tables.all())


def table_links_live(*, tables: Iterable[int]) -> dict[int, TableLink]:
    """Table id -> its live link, for the tables that have one."""
    return {
        link.table_id: link
        for link in TableLink.objects.filter(table_id__in=list(tables), revoked_at__isnull=True)
    }


@dataclass
class LinkCard:
    """A table's link as the desk, the table card and the printed card show it."""

    link: TableLink
    url: str
    qr: SafeString


def link_card(*, link: TableLink, origin: str) -> LinkCard:
    """``origin``: the site as the browser asked for it (scheme and host), so the QR code opens
    the same site on a phone."""
    url = origin.rstrip("/") + link_path(link)
    return LinkCard(link, url, qr_svg(url))


def night_table_entry(*, club: Club) -> str:
    """A club night's table entry setting (a tournament has its own)."""
    return club.table_entry


logger = logging.getLogger("rummyclub.table_links")


def _counted(key: str) -> int:
    """One more request for ``key`` this minute; the count so far. Counted in the cache (Redis):
    when it cannot be reached nothing is counted and nothing refused (0), so a Redis outage
    does not turn the tables' phones away (the entry itself is stored in PostgreSQL)."""
    try:
        cache.add(key, 0, timeout=60)
        try:
            return cache.incr(key)
        except ValueError:  # the minute ended between the two calls
            cache.add(key, 1, timeout=60)
            return 1
    except (RedisError, OSError) as exc:
        logger.warning("table links: %s not counted (%s)", key, type(exc).__name__)
        return 0


def _phone_key(link: TableLink, cookies: Mapping[str, str], client_address: str) -> str:
    """Whom a request through ``link`` is counted as: its phone (the device cookie the link
    gave it, checked), or a phone without one yet, by its address."""
    signed = cookies.get(device_cookie(link))
    if signed:
        try:
            return f"table-link:{link.pk}:phone:{_device_signer(link).unsign(signed)}"
        except signing.BadSignature:
            pass
    return f"table-link:{link.pk}:new:{client_address}"


def table_link_resolve(
    *,
    token: str,
    client_address: str,
    cookies: Mapping[str, str] | None = None,
    known: Callable[[TableLink], None] | None = None,
) -> TableLink:
    """The live link a token names, counted: unknown, 404; revoked by the desk, its table
    finished or its night closed, 410; too many requests from this phone (its device cookie
    among ``cookies``) or through the link, or too many unknown tokens from this address within
    the minute, 429. ``known`` is told the link as soon as it is found, before any refusal (a
    page then speaks the club's language, its refusals included)."""
    link = (
        TableLink.objects.select_related("table__session__club")
        .filter(digest=_digest(token))
        .first()
        if 16 <= len(token) <= 64
        else None
    )
    if link is not None and known is not None:
        known(link)
    if link is not None and link.revoked_at is not None:
        raise Gone(
            _("this table link was withdrawn by the desk; ask the desk for the new one"),
            code="table_link_revoked",
        )
    if link is None:
        if _counted(f"table-link:unknown:{client_address}") > UNKNOWN_LIMIT_PER_MINUTE:
            raise TooManyRequests(_("too many unknown table links; wait a minute"), retry_after=60)
        raise NotFoundError(_("no such table link (it may have been replaced)"))
    if _counted(_phone_key(link, cookies or {}, client_address)) > PHONE_LIMIT_PER_MINUTE:
        raise TooManyRequests(_("too many requests from this phone; wait a minute"), retry_after=60)
    if _counted(f"table-link:{link.pk}") > LINK_LIMIT_PER_MINUTE:
        raise TooManyRequests(_("too many requests through this table link"), retry_after=60)
    if link.table.session.status != Session.Status.OPEN:
        raise Gone(_("this table's night is closed"), code="table_closed")
    if table_game(link=link) is None:
        raise Gone(_no_game_in_play(link.table_id), code="table_closed")
    return link


def _no_game_in_play(table_id: int) -> str:
    """Why a live link's table takes no entry now, in the words of what the table holds."""
    if Game.objects.filter(table_id=table_id).exists():
        return _("this table's game has ended; the link no longer enters results")
    return _("no game has started at this table yet; the link enters results once one has")


def table_game(*, link: TableLink) -> Game | None:
    """The game in play at the link's table (its latest: a tie-breaker played after the table's
    game), if any."""
    return (
        Game.objects.filter(table_id=link.table_id, status=Game.Status.OPEN)
        .select_related("preset", "table__session__club")
        .order_by("-pk")
        .first()
    )


@dataclass
class AtTable:
    """What the table's page shows: its game, seats, the deal waiting for a confirmation (if
    any) and whether a new deal can be entered now."""

    link: TableLink
    game: Game
    seats: list[Seat]
    waiting: Submission | None  # a deal's entry waiting for another seat (or a director)
    can_enter: bool


def table_view(*, link: TableLink) -> AtTable:
    game = table_game(link=link)
    if game is None:
        raise Gone(_("this table's game has ended"), code="table_closed")
    seats = list(game.seats.select_related("player").order_by("position"))
    waiting = (
        Submission.objects.filter(deal__game=game, status=Submission.Status.AWAITING_CONFIRMATION)
        .select_related("deal")
        .order_by("-pk")
        .first()
    )
    pending = Submission.objects.filter(deal__game=game, status=Submission.Status.PENDING).exists()
    return AtTable(link, game, seats, waiting, can_enter=waiting is None and not pending)


@dataclass
class TableDeal:
    """A deal of the table's game as its page lists it: counted, waiting for another player,
    disputed (the director decides it now), voided, or with no result yet."""

    number: int
    state: str


def table_deals_recent(*, game: Game, count: int = 5) -> list[TableDeal]:
    """The game's newest deals, newest first, each in the state the table sees."""
    deals = list(game.deals.order_by("-number").values_list("pk", "number", "status")[:count])
    disputed = set(
        Submission.objects.filter(
            deal_id__in=[pk for pk, _number, _status in deals],
            status=Submission.Status.AWAITING_CONFIRMATION,
        )
        .exclude(dispute="")
        .values_list("deal_id", flat=True)
    )
    states = {
        Deal.Status.FINAL: "counted",
        Deal.Status.AWAITING_CONFIRMATION: "waiting",
        Deal.Status.VOID: "voided",
    }
    return [
        TableDeal(number, "disputed" if pk in disputed else states.get(status, "open"))
        for pk, number, status in deals
    ]


def seat_at(*, game: Game, position: Any) -> Seat:
    """The seat the entrant says they are, by its number (1 first), refused when not one of the
    game's seats."""
    try:
        number = int(position)
    except (TypeError, ValueError):
        raise InvalidInput("seat: " + _("say which seat you are"), code="seat_required") from None
    seat = game.seats.select_related("player").filter(position=number).first()
    if seat is None:
        raise InvalidInput(
            "seat: " + _("this table has no seat %(number)s") % {"number": number},
            code="seat_unknown",
        )
    return seat


def table_entry_get(*, link: TableLink, submission_id: int) -> Submission:
    """An entry of the link's table's game in play (any other is unknown to the link)."""
    game = table_game(link=link)
    if game is None:
        raise Gone(_("this table's game has ended"), code="table_closed")
    return _submission_of(link, game, submission_id)


def _submission_of(link: TableLink, game: Game, submission_id: int) -> Submission:
    """A submission of the link's table's game in play; any other is unknown to the link."""
    submission = (
        Submission.objects.select_related("deal")
        .filter(pk=submission_id, deal__game=game, deal__game__table_id=link.table_id)
        .first()
    )
    if submission is None:
        raise NotFoundError(_("no entry #%(id)s at this table") % {"id": submission_id})
    return submission


# --- entering, confirming and disputing through the link ------------------------------------------


def table_deal_enter(
    *,
    link: TableLink,
    seat: Any,
    device: str,
    wild: str,
    dealer: Player | None,
    payload: dict[str, Any],
) -> tuple[Deal, Submission]:
    """The table's next deal (or the rejected one it must enter again) as entered by ``seat``
    on ``device``: validated after commit like any other entry; with the link's mode "confirm"
    (or "one_phone") it then waits for another seat (or a director)."""
    game = table_game(link=link)
    if game is None:
        raise Gone(_("this table's game has ended"), code="table_closed")
    at = seat_at(game=game, position=seat)
    if Submission.objects.filter(
        deal__game=game,
        status__in=[Submission.Status.PENDING, Submission.Status.AWAITING_CONFIRMATION],
    ).exists():  # one deal at a time: the table confirms (or the director decides) it first
        raise Conflict(
            _("the last entry is still waiting to be checked or confirmed"), code="entry_waiting"
        )
    if dealer is not None and not game.seats.filter(player=dealer).exists():
        raise InvalidInput(
            "dealer: " + _("%(name)s has no seat at this table") % {"name": repr(dealer.name)}
        )
    again = rejected_new_deal(game)
    deal, submission = deal_create_with_result(
        game=game, actor=None, wild=wild, dealer=dealer, number=None,
        is_tiebreaker=again.is_tiebreaker if again is not None else False,
        source=Submission.Source.TABLE, payload=payload, club=link.table.session.club,
        via=(link, at.position, device),
    )  # fmt: skip
    assert submission is not None
    return deal, submission


def table_entry_confirm(
    *, link: TableLink, submission_id: int, seat: Any, device: str
) -> Submission:
    """Another seat of the table accepts an entry waiting for confirmation, on ``device``: from
    then on it counts and the table can no longer change it (the director can). Unless the
    link trusts one phone per table, the phone that entered it cannot confirm it."""
    game = table_game(link=link)
    if game is None:
        raise Gone(_("this table's game has ended"), code="table_closed")
    submission = _submission_of(link, game, submission_id)
    at = seat_at(game=game, position=seat)
    if submission.dispute:
        raise NotAllowed(
            _("this entry was disputed: the director decides it now"), code="entry_disputed"
        )
    return submission_confirm_at_table(
        submission=submission, link=link, seat=at.position, device=device
    )


def table_entry_dispute(
    *, link: TableLink, submission_id: int, seat: Any, reason: str
) -> Submission:
    """Another seat says an entry is wrong, with the reason: it waits for the director."""
    game = table_game(link=link)
    if game is None:
        raise Gone(_("this table's game has ended"), code="table_closed")
    submission = _submission_of(link, game, submission_id)
    at = seat_at(game=game, position=seat)
    return submission_dispute(submission=submission, link=link, seat=at.position, reason=reason)
