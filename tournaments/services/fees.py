"""An entry's fee: marked paid (at sign-up by the desk, at check-in or by the director), when it
goes into the purse; unmarked (a refund), when it goes back out of it. Only a paid fee is in the
purse, so the prize pool (``tournaments.figures``) counts the paid fees only. The postings are
the purse's (``tournaments.purse``, through the ledger's account services)."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, NotFoundError
from tournaments.changes import E, audit, lock, state_word
from tournaments.models import Entry, Tournament
from tournaments.purse import purse_pay_in, purse_refund

#: Whose fee can be marked paid: those holding a place in the field.
PAYABLE = (E.REGISTERED, E.CHECKED_IN, E.ACTIVE, E.ELIMINATED)
_SETTLED = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def _open_for_fees(tournament: Tournament) -> None:
    if tournament.status in _SETTLED:
        raise Conflict(
            _("fees: the tournament is %(status)s, its purse is settled")
            % {"status": state_word(tournament.get_status_display())},
            code="purse_settled",
        )


def fee_mark_paid(*, tournament: Tournament, actor: AbstractBaseUser | None, entry: Entry) -> Entry:
    """The entry's fee into the purse, marked paid by ``actor`` now (the caller holds the
    tournament's lock and the entry's row)."""
    _open_for_fees(tournament)
    if entry.status not in PAYABLE:
        raise Conflict(
            _("%(name)s is %(status)s: only an entrant with a place in the field pays the fee")
            % {"name": entry.player.name, "status": state_word(entry.get_status_display())},
            code="not_payable",
        )
    if entry.fee_status == Entry.FeeStatus.PAID:
        return entry  # marked twice (a double tap, two desks): paid once
    purse_pay_in(tournament=tournament, actor=actor, player=entry.player)
    entry.fee_status = Entry.FeeStatus.PAID
    entry.paid_at = timezone.now()
    entry.paid_by = actor  # type: ignore[assignment]
    entry.save(update_fields=["fee_status", "paid_at", "paid_by"])
    audit(tournament, actor, "fee_paid", entry=entry.pk, fee_minor=tournament.entry_fee_minor)
    return entry


def fee_refund(*, tournament: Tournament, actor: AbstractBaseUser, entry: Entry) -> int:
    """What the entry paid back out of the purse (the refund lines), its fee due again;
    returns the amount."""
    _open_for_fees(tournament)
    if entry.rebuys:  # the purse gives back all a player paid in: their rebuys' too
        raise Conflict(
            _("%(name)s bought back in: their fee stays in the purse with the rebuys")
            % {"name": entry.player.name},
            code="rebought",
        )
    refunded = purse_refund(tournament=tournament, actor=actor, player=entry.player)
    entry.fee_status = Entry.FeeStatus.DUE
    entry.paid_at = None
    entry.paid_by = None
    entry.save(update_fields=["fee_status", "paid_at", "paid_by"])
    audit(tournament, actor, "fee_refunded", entry=entry.pk, refund_minor=refunded)
    return refunded


def _locked_entries(tournament: Tournament, entry_ids: Iterable[int]) -> list[Entry]:
    wanted = list(dict.fromkeys(entry_ids))
    found = {
        e.pk: e
        for e in tournament.entries.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk__in=wanted)
        .order_by("pk")
    }
    missing = [pk for pk in wanted if pk not in found]
    if missing:
        raise NotFoundError(
            _("no entry #%(entry)s in %(tournament)s")
            % {"entry": missing[0], "tournament": tournament.name}
        )
    return [found[pk] for pk in wanted]


@transaction.atomic
def entries_mark_paid(
    *, tournament: Tournament, actor: AbstractBaseUser, entry_ids: Iterable[int]
) -> list[Entry]:
    """The director marks these entries' fees paid (one or many: the desk's list); those paid
    already stay as they are. All or none: one that cannot pay refuses the lot."""
    tournament = lock(tournament)
    entries = _locked_entries(tournament, entry_ids)
    return [fee_mark_paid(tournament=tournament, actor=actor, entry=e) for e in entries]


@transaction.atomic
def entry_unmark_paid(*, tournament: Tournament, actor: AbstractBaseUser, entry_id: int) -> Entry:
    """The director takes a paid mark off (a refund, or a mark made by mistake): the fee goes
    back out of the purse through its refund lines."""
    tournament = lock(tournament)
    (entry,) = _locked_entries(tournament, [entry_id])
    if entry.fee_status != Entry.FeeStatus.PAID:
        raise Conflict(
            _("%(name)s's fee is not marked paid") % {"name": entry.player.name}, code="not_paid"
        )
    fee_refund(tournament=tournament, actor=actor, entry=entry)
    return entry
