"""Taking back what was entered: voiding a deal (its counted result reversed in the ledger and
taken out of the standings) and deleting a deal, game, table or night set up by mistake, with
nothing posted. Keyword-only, atomic, audited."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from config.errors import Conflict
from ledger.books import books_discard
from ledger.models import LedgerEntry
from scoring.events import deal_event
from scoring.formats import handler_for
from scoring.games import game_lock
from scoring.lifecycle import correction_check, result_changed
from scoring.models import Deal, Game, Session, Submission, Table
from scoring.nights import require_open_session
from scoring.posting import ledger_entry_reverse
from scoring.preset_rules import game_rules


@transaction.atomic
def deal_void(*, deal: Deal, actor: AbstractBaseUser) -> Deal:
    """Void a deal: it keeps its number and its history and counts for nothing. A deal never
    played (opened by mistake, or left when the night ended) simply stops waiting; a counted
    deal has its ledger entries reversed and its results taken out of the standings, where its
    format would let it be corrected (any deal of a points table, the latest of a pool, deals
    game or match, and nothing a tournament round was built on). A deal being checked cannot be
    voided until it is decided."""
    deal = (
        Deal.objects.select_for_update(of=("self",))
        .select_related("game__table__session__club", "game__preset")
        .get(pk=deal.pk)
    )
    require_open_session(deal.game.table.session)
    if deal.status == Deal.Status.VOID:
        raise Conflict(
            _("deal %(number)s is already voided") % {"number": deal.number}, code="deal_void"
        )
    if deal.submissions.filter(status=Submission.Status.PENDING).exists():
        raise Conflict(
            _("a result of deal %(number)s is being checked; wait for it")
            % {"number": deal.number},
            code="submission_pending",
        )
    before = deal.status
    if deal.status != Deal.Status.OPEN:
        _deal_uncount(deal)
    Deal.objects.filter(pk=deal.pk).update(status=Deal.Status.VOID)
    deal.status = Deal.Status.VOID
    if before != Deal.Status.OPEN:
        deal_event(deal=deal, submission=None, name="deal.corrected")
    audit_record(
        actor=actor,
        club=deal.game.table.session.club,
        action="deal.void",
        obj=deal,
        before={"status": before},
        after={"status": Deal.Status.VOID},
    )
    return deal


def _deal_uncount(deal: Deal) -> None:
    """Take a decided deal's result out: the format and whatever was built on the game's result
    must allow it (as for a correction); its entries are reversed, its results leave the
    standings, and its counted or waiting version is marked voided."""
    game = deal.game
    rules = game_rules(game.preset)
    handler_for(game).correction_check(deal=deal, rules=rules)
    correction_check(game=game)
    for entry in LedgerEntry.objects.filter(
        deal=deal, kind=LedgerEntry.Kind.DEAL, reversed_by__isnull=True
    ).select_related("book__game__table__session"):
        ledger_entry_reverse(entry=entry, memo=f"deal {deal.number} voided")
    deal.submissions.filter(
        status__in=[Submission.Status.ACCEPTED, Submission.Status.AWAITING_CONFIRMATION]
    ).update(status=Submission.Status.VOIDED)
    if game.status == Game.Status.FINISHED:  # a closed points table: its order may change
        result_changed(game=game)


@transaction.atomic
def deal_delete(*, deal: Deal, actor: AbstractBaseUser) -> int:
    """Delete a deal opened by mistake: one that never had a result entered (with any version,
    even a refused one, it is voided instead, so its history stays). Later deals keep their
    numbers (a number is a label, and deals may be numbered with gaps). Returns the deal's id."""
    deal = (
        Deal.objects.select_for_update(of=("self",))
        .select_related("game__table__session__club")
        .get(pk=deal.pk)
    )
    require_open_session(deal.game.table.session)
    if deal.status != Deal.Status.OPEN or deal.submissions.exists() or deal.entries.exists():
        raise Conflict(
            _("deal %(number)s has a result entered; void it instead (its history stays)")
            % {"number": deal.number},
            code="deal_has_history",
        )
    deal_id = deal.pk
    audit_record(
        actor=actor, club=deal.game.table.session.club, action="deal.delete", obj=deal,
        before={"game": deal.game_id, "number": deal.number},
    )  # fmt: skip
    deal.delete()
    return deal_id


def delete_unless_held(obj: Any, held: str, named: dict[str, Any]) -> None:
    """Delete ``obj``; when something kept elsewhere holds it (a tournament's night or table),
    409 naming that rather than a server error: ``held``, the whole sentence of what ``obj`` is
    (``named``: its values) with ``%(holders)s``."""
    try:
        with transaction.atomic():
            obj.delete()
    except ProtectedError as exc:
        holders = sorted({str(held._meta.verbose_name) for held in exc.protected_objects})
        raise Conflict(
            held % {**named, "holders": " and a ".join(holders)},
            code="held",
            details={"held_by": holders},
        ) from None


def require_nothing_posted(games: Any, refused: str) -> None:
    """``refused``: the whole sentence saying what cannot be deleted."""
    if (
        LedgerEntry.objects.filter(book__game__in=games).exists()
        or Deal.objects.filter(game__in=games).exists()
    ):
        raise Conflict(refused, code="not_empty")


@transaction.atomic
def game_delete(*, game: Game, actor: AbstractBaseUser) -> int:
    """Delete a game set up by mistake: no deal and nothing in the ledger (no fee paid)."""
    game = game_lock(game)
    require_nothing_posted(
        [game],
        _("game #%(id)s has deals or money in the ledger; it cannot be deleted") % {"id": game.pk},
    )
    game_id = game.pk
    audit_record(
        actor=actor, club=game.table.session.club, action="game.delete", obj=game,
        before={"table": game.table_id, "format": game.format},
    )  # fmt: skip
    book_id = game.book_id
    delete_unless_held(
        game, _("game #%(id)s belongs to a %(holders)s; it goes with it"), {"id": game_id}
    )
    books_discard(book_ids=[book_id])
    return game_id


@transaction.atomic
def table_delete(*, table: Table, actor: AbstractBaseUser) -> int:
    """Delete a table with no game that has deals or money (its empty games go with it)."""
    table = Table.objects.select_for_update().select_related("session__club").get(pk=table.pk)
    require_open_session(table.session)
    require_nothing_posted(
        table.games.all(),
        _("table %(name)s has deals or money in the ledger; it cannot be deleted")
        % {"name": repr(table.name)},
    )
    table_id = table.pk
    audit_record(
        actor=actor, club=table.session.club, action="table.delete", obj=table,
        before={"session": table.session_id, "name": table.name},
    )  # fmt: skip
    book_ids = list(table.games.values_list("book_id", flat=True))
    delete_unless_held(
        table,
        _("table %(name)s belongs to a %(holders)s; it goes with it"),
        {"name": repr(table.name)},
    )
    books_discard(book_ids=book_ids)
    return table_id


@transaction.atomic
def session_delete(*, session: Session, actor: AbstractBaseUser) -> int:
    """Delete a night started by mistake: nothing played or paid in it."""
    session = Session.objects.select_for_update().select_related("club").get(pk=session.pk)
    require_nothing_posted(
        Game.objects.filter(table__session=session),
        _("%(name)s has deals or money in the ledger; it cannot be deleted")
        % {"name": repr(session.name)},
    )
    if LedgerEntry.objects.filter(book__session_account__session=session).exists():
        raise Conflict(
            _("%(name)s has money in its accounts; it cannot be deleted")
            % {"name": repr(session.name)},
            code="not_empty",
        )
    session_id = session.pk
    audit_record(
        actor=actor, club=session.club, action="session.delete", obj=session,
        before={"name": session.name, "status": session.status},
    )  # fmt: skip
    book_ids = [
        *Game.objects.filter(table__session=session).values_list("book_id", flat=True),
        *session.accounts.values_list("book_id", flat=True),
    ]
    delete_unless_held(
        session,
        _("%(name)s belongs to a %(holders)s; it goes with it"),
        {"name": repr(session.name)},
    )
    books_discard(book_ids=book_ids)
    return session_id
