"""A club night (a session): starting it in its season, what keeps it from closing, closing and
reopening it, and marking its settle-up's transfers paid. Keyword-only, atomic, audited."""

from __future__ import annotations

import dataclasses
import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.audit import audit_record, snapshot
from clubs.models import Club
from config.errors import Conflict, InvalidInput, NotFoundError
from config.names import name_checked, require_length
from scoring.events import session_closed_event
from scoring.figures import session_settlement
from scoring.formats import GameEnd, handler_for
from scoring.lifecycle import game_end
from scoring.models import Deal, Game, Season, Session, SessionAccount, Submission, TransferPaid
from scoring.preset_rules import game_rules


@transaction.atomic
def session_create(
    *, club: Club, actor: AbstractBaseUser, name: str, started_at: datetime | None = None
) -> Session:
    name = name_checked(name)
    if not name:
        raise InvalidInput("name: " + _("give the session a name, e.g. 'Friday 14 March'"))
    require_length(name, field="name", limit=Session._meta.get_field("name").max_length)
    started_at = started_at or timezone.now()
    session = Session.objects.create(
        club=club,
        name=name,
        started_at=started_at,
        created_by=actor,
        season=season_for(club=club, when=started_at),
    )
    audit_record(
        actor=actor,
        club=club,
        action="session.create",
        obj=session,
        after=snapshot(session, ["name", "started_at"]),
    )
    return session


# A deal (a Rummikub match's game: the format's ``words.unit``) that keeps the night open, by why:
# one whole sentence each, so that each language words it its own way.
_WAITING = {
    ("deal", "confirm"): gettext_lazy(
        "%(table)s: deal %(number)s has a valid result waiting for confirmation"
    ),
    ("deal", "wait"): gettext_lazy("%(table)s: deal %(number)s has a result being checked"),
    ("deal", "enter"): gettext_lazy("%(table)s: deal %(number)s has no counted result"),
    ("game", "confirm"): gettext_lazy(
        "%(table)s: game %(number)s has a valid result waiting for confirmation"
    ),
    ("game", "wait"): gettext_lazy("%(table)s: game %(number)s has a result being checked"),
    ("game", "enter"): gettext_lazy("%(table)s: game %(number)s has no counted result"),
}


@dataclass(frozen=True)
class CloseBlocker:
    """Something that keeps a night from closing, and the actions that resolve it."""

    kind: str  # "deal_waiting", "game_open" or "account_open"
    game_id: int | None  # None for an account
    table: str
    deal_id: int | None
    deal_number: int | None
    message: str
    actions: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "actions": list(self.actions)}


def session_close_blockers(*, session: Session) -> list[CloseBlocker]:
    """What keeps the session from closing: deals without a counted result (enter or confirm
    one, or void a deal never played) and games whose format cannot be ended by hand (refund
    the pot), and the night's accounts still holding money (a running tournament's purse: it
    is paid out or refunded by its tournament). Games the organiser may end by hand (a points
    table, a Rummikub match) do not block: closing ends them."""
    blockers: list[CloseBlocker] = []
    games = Game.objects.filter(table__session=session, status=Game.Status.OPEN).select_related(
        "table", "preset"
    )
    waiting = (
        Deal.objects.filter(
            game__in=games, status__in=[Deal.Status.OPEN, Deal.Status.AWAITING_CONFIRMATION]
        )
        .order_by("game_id", "number")
        .values("pk", "number", "status", "game_id")
    )
    pending = set(
        Submission.objects.filter(
            deal__in=[d["pk"] for d in waiting], status=Submission.Status.PENDING
        ).values_list("deal_id", flat=True)
    )
    by_game: dict[int, list[dict[str, Any]]] = {}
    for deal in waiting:
        by_game.setdefault(deal["game_id"], []).append(deal)
    for game in games:
        handler = handler_for(game)
        unit = handler.words.unit
        for deal in by_game.get(game.pk, []):
            if deal["status"] == Deal.Status.AWAITING_CONFIRMATION:
                actions: tuple[str, ...] = ("confirm",)
                state = "confirm"
            elif deal["pk"] in pending:
                actions, state = ("wait",), "wait"
            else:
                actions, state = ("enter_result", "void"), "enter"
            said = str(_WAITING[unit if unit == "game" else "deal", state]) % {
                "table": game.table.name, "number": deal["number"]
            }  # fmt: skip
            blockers.append(
                CloseBlocker(
                    "deal_waiting", game.pk, game.table.name, deal["pk"], deal["number"], said,
                    actions,
                )
            )  # fmt: skip
        ends = {ending.end for ending in handler.endings(game=game, rules=game_rules(game.preset))}
        if GameEnd.BY_ORGANISER not in ends:
            blockers.append(
                CloseBlocker(
                    "game_open", game.pk, game.table.name, None, None,
                    _("%(table)s: the %(format)s game is still being played")
                    % {"table": game.table.name, "format": game.get_format_display().lower()},
                    tuple(str(end) for end in sorted(ends)),
                )
            )  # fmt: skip
    for account in session.accounts.filter(status=SessionAccount.Status.OPEN):
        blockers.append(
            CloseBlocker(
                "account_open", None, account.name, None, None,
                _(
                    "%(account)s: it holds what was paid in until what it is kept for pays it "
                    "out or gives it back (a tournament's prizes, or its cancellation)"
                )
                % {"account": account.name},
                (),
            )
        )  # fmt: skip
    return blockers


@transaction.atomic
def session_close(*, session: Session, actor: AbstractBaseUser) -> Session:
    """Close the night: every game still open that its format lets the organiser end (a points
    table, a Rummikub match) ends through the game lifecycle; anything else still open refuses
    the close, listing what to do (``session_close_blockers``)."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status == Session.Status.CLOSED:
        raise Conflict(
            _("session %(name)s is already closed") % {"name": repr(session.name)},
            code="session_closed",
        )
    blockers = session_close_blockers(session=session)
    if blockers:
        raise Conflict(
            _("the night cannot close yet: %(blockers)s")
            % {"blockers": "; ".join(b.message for b in blockers)},
            code="session_not_finished",
            details={"blockers": [blocker.as_dict() for blocker in blockers]},
        )
    for game in Game.objects.filter(table__session=session, status=Game.Status.OPEN):
        game_end(game=game, actor=actor, end=GameEnd.BY_ORGANISER)
    session.status = Session.Status.CLOSED
    session.closed_at = timezone.now()
    session.save(update_fields=["status", "closed_at"])
    session_closed_event(session=session)
    audit_record(
        actor=actor,
        club=session.club,
        action="session.close",
        obj=session,
        before={"status": "open"},
        after={"status": "closed"},
    )
    return session


def season_for(*, club: Club, when: datetime) -> Season:
    """The club's season holding ``when`` (in the club's time zone); a calendar-year season is
    made when the club has none for that date."""
    day = timezone.localtime(when, zoneinfo.ZoneInfo(club.timezone)).date()
    season = club.seasons.filter(starts_on__lte=day, ends_on__gte=day).order_by("-starts_on")
    found = season.first()
    if found is not None:
        return found
    found, _created = Season.objects.get_or_create(
        club=club,
        name=str(day.year),
        defaults={"starts_on": date(day.year, 1, 1), "ends_on": date(day.year, 12, 31)},
    )
    return found


def require_open_session(session: Session) -> None:
    if session.status != Session.Status.OPEN:
        raise Conflict(
            _("session %(name)s is closed") % {"name": repr(session.name)}, code="session_closed"
        )


@transaction.atomic
def session_reopen(*, session: Session, actor: AbstractBaseUser) -> Session:
    """Reopen a closed night, for a late correction or a forgotten deal; close it again when
    done. Its games stay as they ended."""
    session = Session.objects.select_for_update().select_related("club").get(pk=session.pk)
    if session.status != Session.Status.CLOSED:
        raise Conflict(
            _("session %(name)s is open") % {"name": repr(session.name)}, code="session_open"
        )
    session.status, session.closed_at = Session.Status.OPEN, None
    session.save(update_fields=["status", "closed_at"])
    audit_record(
        actor=actor, club=session.club, action="session.reopen", obj=session,
        before={"status": "closed"}, after={"status": "open"},
    )  # fmt: skip
    return session


@transaction.atomic
def transfer_mark_paid(
    *, session: Session, actor: AbstractBaseUser, payer: str, payee: str, paid: bool = True
) -> TransferPaid | None:
    """Mark a transfer of the night's settle-up paid (who, when, for the amount it is now), or
    take the mark back. Only a transfer the settle-up lists can be marked."""
    session = Session.objects.select_for_update().select_related("club").get(pk=session.pk)
    if session.club.points_only:
        raise Conflict(
            _(
                "%(club)s plays for points only: its settle-up is in points, with no money to "
                "mark paid"
            )
            % {"club": session.club.name},
            code="points_only",
        )
    transfer = next(
        (t for t in session_settlement(session=session)
         if t.payer_key == payer and t.payee_key == payee),
        None,
    )  # fmt: skip
    if transfer is None:
        raise NotFoundError(
            "payer: "
            + _("no transfer from %(payer)s to %(payee)s in this settle-up")
            % {"payer": repr(payer), "payee": repr(payee)},
            code="no_transfer",
        )
    TransferPaid.objects.filter(session=session, payer=payer, payee=payee).delete()
    mark = None
    if paid:
        mark = TransferPaid.objects.create(
            session=session, payer=payer, payee=payee, amount_minor=transfer.amount_minor,
            marked_by=actor,
        )  # fmt: skip
    audit_record(
        actor=actor, club=session.club, action="transfer.paid" if paid else "transfer.unpaid",
        obj=session, after={"payer": payer, "payee": payee, "amount": transfer.amount_minor},
    )  # fmt: skip
    return mark
