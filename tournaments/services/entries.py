"""Entries: registering (the waitlist beyond ``max_entries``, a late entry seated where it costs
least; the fee into the purse only when it is marked paid: ``services.fees``), checking in,
withdrawing and disqualifying (before the start a paid fee back and the first waitlisted player
in)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from config.errors import Conflict, NotFoundError
from tournaments.changes import E, audit, current_round, lock, state_word
from tournaments.figures import entries_counted
from tournaments.kinds import kind_for
from tournaments.models import Entry, Round, Tournament
from tournaments.services.draws import seat_late, unseat
from tournaments.services.fees import fee_mark_paid, fee_refund
from tournaments.services.tables import table_game_ended


@transaction.atomic
def entry_add(
    *, tournament: Tournament, actor: AbstractBaseUser | None, player: Player,
    affiliation: str = "", paid: bool = False, self_signed_up: bool = False,
) -> Entry:  # fmt: skip
    """Register a player; beyond ``max_entries`` the player waits. With ``paid`` the fee is
    marked paid (into the purse) at once, unless the player waits. Once running, a late entry
    is taken until ``late_entry_until_round`` is drawn and while it is a draft: the player sits
    at the table of that draw where they cost least. ``actor`` ``None``: the player signed up
    on the public page (``services.signup``)."""
    tournament = lock(tournament)
    if player.club_id != tournament.club_id:
        raise NotFoundError(
            "player: " + _("%(name)r is not on this club's roster") % {"name": player.name}
        )
    if not player.active:
        raise Conflict(
            "player: "
            + _("%(name)r is retired; restore them to enter them") % {"name": player.name},
            code="player_retired",
        )
    earlier = tournament.entries.filter(player=player).first()
    if earlier is not None:
        left = earlier.status in (E.WITHDRAWN, E.DISQUALIFIED)
        words = (
            _("%(name)r is %(status)s; reinstate them instead")
            if left
            else _("%(name)r is already entered")
        )
        status = state_word(earlier.get_status_display())
        raise Conflict(
            "player: " + words % {"name": player.name, "status": status}, code="already_entered"
        )
    late = tournament.status == Tournament.Status.RUNNING
    current = current_round(tournament) if late else None
    if late and (
        current is None
        or current.status != Round.Status.DRAFT
        or current.number > tournament.late_entry_until_round
    ):
        raise Conflict(
            _("entries closed: late entry is taken until round %(number)s is released")
            % {"number": tournament.late_entry_until_round},
            code="entries_closed",
        )
    if not late and tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict(
            _("entries closed: the tournament is %(status)s")
            % {"status": tournament.get_status_display()}
        )
    taken = (
        entries_counted(tournament=tournament)
        .exclude(status__in=[E.WITHDRAWN, E.DISQUALIFIED])
        .count()
    )
    full = tournament.max_entries is not None and taken >= tournament.max_entries
    status = E.WAITLISTED if full else (E.ACTIVE if late else E.REGISTERED)
    if late and full:
        raise Conflict(_("the tournament is full"), code="tournament_full")
    entry = Entry.objects.create(
        tournament=tournament, player=player, status=status, affiliation=affiliation.strip(),
        self_signed_up=self_signed_up,
    )  # fmt: skip
    if paid and status != E.WAITLISTED:
        fee_mark_paid(tournament=tournament, actor=actor, entry=entry)
    if late:
        assert current is not None
        entry.seed = (tournament.entries.exclude(seed=None).count() or 0) + 1
        entry.save(update_fields=["seed"])
        kind_for(tournament).late_entrant(tournament, entry)
        seat_late(tournament, current, entry)
    audit(tournament, actor, "entry", player=player.pk, status=status)
    return entry


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    entry = tournament.entries.select_for_update().filter(pk=entry_id).first()
    if entry is None:
        raise NotFoundError(
            _("no entry #%(entry)s in %(tournament)s")
            % {"entry": entry_id, "tournament": tournament.name}
        )
    return entry


@transaction.atomic
def entry_check_in(
    *, tournament: Tournament, actor: AbstractBaseUser | None, entry_id: int
) -> Entry:
    """A registered entrant is at the venue: by the director (``actor``), which also confirms
    who a roster claim is, or by the player with the venue's code (``services.signup``,
    ``actor`` ``None``)."""
    tournament = lock(tournament)
    entry = _entry(tournament, entry_id)
    if tournament.status != Tournament.Status.REGISTRATION or entry.status != E.REGISTERED:
        raise Conflict(
            _("%(name)s is %(status)s; only a registered entrant checks in, before the start")
            % {"name": entry.player.name, "status": state_word(entry.get_status_display())},
            code="not_registered",
        )
    entry.status = E.CHECKED_IN
    entry.checked_in_at = timezone.now()
    if actor is not None:
        entry.roster_claim = False
    entry.save(update_fields=["status", "checked_in_at", "roster_claim"])
    audit(tournament, actor, "check_in", entry=entry.pk, by_player=actor is None)
    return entry


@transaction.atomic
def entry_withdraw(
    *, tournament: Tournament, actor: AbstractBaseUser, entry_id: int, disqualify: bool = False,
    remarks: str = "",
) -> Entry:  # fmt: skip
    """An entrant leaves (or is disqualified). Before the start the fee goes back and the first
    waitlisted player takes the place; once running the fee stays, the entrant goes on no
    further (their seat's result at a table in play stands: they can no longer advance)."""
    tournament = lock(tournament)
    entry = _entry(tournament, entry_id)
    closed = (E.WITHDRAWN, E.DISQUALIFIED, E.NO_SHOW, E.ELIMINATED)
    if entry.status in closed or tournament.status in (
        Tournament.Status.FINISHED, Tournament.Status.CANCELLED,
    ):  # fmt: skip
        raise Conflict(
            _("%(name)s is %(status)s already")
            % {"name": entry.player.name, "status": state_word(entry.get_status_display())}
        )
    before_start = tournament.status == Tournament.Status.REGISTRATION
    held_a_place = entry.status != E.WAITLISTED
    entry.status = E.DISQUALIFIED if disqualify else E.WITHDRAWN
    entry.remarks = remarks.strip()[:200]
    entry.save(update_fields=["status", "remarks"])
    refunded = 0
    if before_start and held_a_place:
        if entry.fee_status == Entry.FeeStatus.PAID:
            refunded = fee_refund(tournament=tournament, actor=actor, entry=entry)
        waiting = tournament.entries.filter(status=E.WAITLISTED).order_by("created_at", "id")
        promoted = waiting.first()
        if promoted is not None:  # their fee is due: marked paid when they pay
            promoted.status = E.REGISTERED
            promoted.save(update_fields=["status"])
    else:
        current = current_round(tournament)
        if current is not None and current.status == Round.Status.DRAFT:
            unseat(current, entry.pk)
    audit(
        tournament, actor, "disqualify" if disqualify else "withdraw", entry=entry.pk,
        refund_minor=refunded, remarks=entry.remarks,
    )  # fmt: skip
    return entry


@transaction.atomic
def entries_check_in(
    *, tournament: Tournament, actor: AbstractBaseUser, entry_ids: list[int]
) -> list[Entry]:
    """The director checks in several entrants at once (the desk's list); those checked in
    already stay so. All or none: one that cannot check in refuses the lot."""
    tournament = lock(tournament)
    done = []
    for entry_id in dict.fromkeys(entry_ids):
        entry = _entry(tournament, entry_id)
        if entry.status == E.CHECKED_IN:
            done.append(entry)
            continue
        done.append(entry_check_in(tournament=tournament, actor=actor, entry_id=entry_id))
    return done


@transaction.atomic
def entry_reinstate(*, tournament: Tournament, actor: AbstractBaseUser, entry_id: int) -> Entry:
    """Undo a withdrawal (or a disqualification) before the entrant's next round is drawn: before
    the start they are registered again with their fee due (waiting when the field is full);
    while the round they left is a draft they sit in it again; while it is played they are back
    at their table (settled again if it already was). Once the round after it is drawn, refused."""
    tournament = lock(tournament)
    entry = _entry(tournament, entry_id)
    name = entry.player.name
    if entry.status not in (E.WITHDRAWN, E.DISQUALIFIED):
        raise Conflict(
            _("%(name)s is %(status)s, not withdrawn")
            % {"name": name, "status": state_word(entry.get_status_display())},
            code="not_withdrawn",
        )
    if tournament.status == Tournament.Status.REGISTRATION:
        taken = entries_counted(tournament=tournament).exclude(
            status__in=[E.WITHDRAWN, E.DISQUALIFIED]
        )
        full = tournament.max_entries is not None and taken.count() >= tournament.max_entries
        entry.status = E.WAITLISTED if full else E.REGISTERED
    elif tournament.status == Tournament.Status.RUNNING:
        entry.status = E.ACTIVE
        _seat_again(tournament, entry)
    else:
        state = state_word(tournament.get_status_display())
        raise Conflict(
            _("%(name)s cannot be reinstated: the tournament is %(status)s")
            % {"name": name, "status": state},
            code="reinstate_closed",
        )
    entry.remarks = ""
    entry.save(update_fields=["status", "remarks"])
    audit(tournament, actor, "reinstate", entry=entry.pk, status=entry.status)
    return entry


def _seat_again(tournament: Tournament, entry: Entry) -> None:
    """A leaver back where they left: the draft they were taken from, or the table they still
    sit at in the round being played. Refused once a round was drawn after they left."""
    current = current_round(tournament)
    assert current is not None  # a running tournament has its first round drawn
    if current.status == Round.Status.DRAFT and entry.pk in current.draw.get("left", []):
        current.draw = {**current.draw, "left": [e for e in current.draw["left"] if e != entry.pk]}
        seat_late(tournament, current, entry)
        return
    table = next(
        (t for t in current.tables.all() if entry.pk in current.draw["tables"][t.number - 1]),
        None,
    )
    if current.status != Round.Status.RELEASED or table is None:
        raise Conflict(
            _(
                "%(name)s cannot be reinstated: round %(number)s is drawn since they withdrew, "
                "and they are not in it"
            )
            % {"name": entry.player.name, "number": current.number},
            code="reinstate_closed",
        )
    if "advancing" in table.outcome:  # settled with them out: settled again with them in
        entry.save(update_fields=["status"])
        table.outcome = {}
        table.save(update_fields=["outcome"])
        table_game_ended(game_id=table.game_id)
