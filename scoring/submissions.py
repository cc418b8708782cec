"""The life of a submission: validated once (by the ``validate_submission`` task), then accepted
(counted in the ledger), awaiting a second person's confirmation, or rejected with reasons.

Every decision about a deal is taken with the deal's row locked (``select_for_update``), so
versions submitted and validated concurrently are decided one at a time: the newest version that
passes wins, an older one never displaces a newer one, and the database allows at most one
accepted (and one awaiting) version per deal."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from clubs.models import Club, Role
from clubs.selectors import club_role, role_at_least
from config.errors import Conflict, InvalidInput, NotAllowed
from ledger.models import LedgerEntry
from outbox.selectors import outbox_last_written
from outbox.services import outbox_enqueue
from scoring.events import deal_event, deal_waiting_announce
from scoring.formats import Checked, GameEnd, handler_for, reason_dict, reasons_placed, result_moved
from scoring.formats.reason_words import reason_words
from scoring.lifecycle import game_end, result_changed
from scoring.models import Deal, Game, Submission, TableEntry, TableLink
from scoring.posting import ledger_entry_create, ledger_entry_reverse
from scoring.preset_rules import game_rules

logger = logging.getLogger(__name__)

S = Submission.Status


class _Lost(Exception):
    """Another run decided the submission first: roll back whatever this run wrote."""


def _lock_deal(deal_id: int) -> Deal:
    return (
        Deal.objects.select_for_update(of=("self",))
        .select_related("game__preset", "game__table__session__club")
        .get(pk=deal_id)
    )


def _check(deal: Deal, submission: Submission) -> Checked:
    """The submission checked by the game's rules; a result that passes says what the deal
    moves for each player (a version waiting for confirmation too, before it is counted)."""
    game = deal.game
    rules = game_rules(game.preset)
    handler = handler_for(game)
    checked = handler.submission_check(
        submission=submission, rules=rules, players=handler.deal_players(deal=deal, rules=rules)
    )
    if checked.reasons:
        seats = dict(game.seats.values_list("player_id", "position"))
        checked = dataclasses.replace(checked, reasons=reasons_placed(checked.reasons, seats))
    if not checked.evaluation.ok:
        return checked
    lines, _extra = handler.deal_lines(game=game, rules=rules, checked=checked)
    return dataclasses.replace(checked, result=result_moved(checked.result, lines))


def _claim(
    submission: Submission, status: str, *, from_status: str = S.PENDING, **fields: Any
) -> None:
    """Compare-and-set: move the submission from ``from_status`` to ``status`` or give up."""
    claimed = Submission.objects.filter(pk=submission.pk, status=from_status).update(
        status=status, **fields
    )
    if not claimed:
        raise _Lost
    submission.status = status
    for name, value in fields.items():
        setattr(submission, name, value)


def _decided(deal: Deal) -> dict[str, Submission]:
    """The deal's accepted and awaiting versions (at most one of each), by status."""
    return {
        row.status: row
        for row in deal.submissions.filter(status__in=[S.ACCEPTED, S.AWAITING_CONFIRMATION]).only(
            "pk", "version", "status"
        )
    }


def _count(
    *,
    deal: Deal,
    submission: Submission,
    checked: Checked,
    decided: dict[str, Submission],
    from_status: str,
    **claim: Any,
) -> None:
    """Make ``submission`` the deal's counted version, under the deal's lock: reverse the version
    it replaces, claim it (compare-and-set from ``from_status`` to accepted, with its result and
    the ``claim`` fields), post its lines and update the game. Raises ``_Lost`` when another run
    decided it first."""
    game = deal.game
    rules = game_rules(game.preset)
    handler = handler_for(game)
    lines, extra = handler.deal_lines(game=game, rules=rules, checked=checked)
    result = {**(checked.result or {}), **extra}
    previous = decided.get(S.ACCEPTED)
    if previous is not None and previous.pk != submission.pk:
        for entry in LedgerEntry.objects.filter(
            submission=previous, kind=LedgerEntry.Kind.DEAL, reversed_by__isnull=True
        ).select_related("book__game__table__session"):
            ledger_entry_reverse(entry=entry, submission=submission)
        Submission.objects.filter(pk=previous.pk).update(
            status=S.SUPERSEDED, superseded_by=submission
        )
    waiting = decided.get(S.AWAITING_CONFIRMATION)
    if waiting is not None and waiting.pk != submission.pk:
        # A director's correction of an entry still waiting at the table replaces it.
        Submission.objects.filter(pk=waiting.pk).update(
            status=S.SUPERSEDED, superseded_by=submission
        )
    _claim(submission, S.ACCEPTED, from_status=from_status, result=result, **claim)
    winner = checked.evaluation.winner
    counted = [
        (score.player, score.outcome, score.points, score.player == winner)
        for score in checked.evaluation.scores
    ]
    ledger_entry_create(
        game=game,
        kind=LedgerEntry.Kind.DEAL,
        lines=lines,
        deal=deal,
        submission=submission,
        memo=f"deal {deal.number} v{submission.version}",
        results=counted,
    )
    wild = (checked.result or {}).get("wild") or deal.wild
    Deal.objects.filter(pk=deal.pk).update(status=Deal.Status.FINAL, wild=wild)
    deal.status, deal.wild = Deal.Status.FINAL, wild
    submission.status, submission.result = S.ACCEPTED, result
    deal_event(
        deal=deal,
        submission=submission,
        name="deal.scored" if previous is None else "deal.corrected",
    )
    if game.status == Game.Status.FINISHED:  # a correction of a closed points table
        result_changed(game=game)
    elif game.breaks_tie or handler.game_decided(game=game, rules=rules):
        # A tournament's tie-breaker is one deal: it ends when that deal counts.
        game_end(game=game, actor=None, end=GameEnd.PLAYED_OUT)


def _link_mode(link_id: int | None) -> str | None:
    return TableLink.objects.filter(pk=link_id).values_list("mode", flat=True).first()


def _waits_for_confirmation(submission: Submission, club: Club) -> bool:
    """An entry through a table link waits as its link says; an import counts at once (the
    organiser confirmed its preview); any other waits as the club says."""
    if submission.source == Submission.Source.IMPORT:
        return False
    if submission.table_link_id is None:
        return club.requires_confirmation
    return _link_mode(submission.table_link_id) != TableEntry.TRUSTED


def submission_validate(*, submission_id: int) -> Submission:
    """Decide a pending submission. Safe to run twice or concurrently: only the run that moves it
    out of ``pending`` (a compare-and-set on its status, under the deal's lock) writes anything;
    a run that loses the race rolls back."""
    try:
        with transaction.atomic():
            # The submission and its deal in one statement, the deal's row locked. The status
            # read here may be older than the lock; the compare-and-set claim below settles it.
            submission = (
                Submission.objects.select_for_update(of=("deal",))
                .select_related("deal__game__preset", "deal__game__table__session__club")
                .defer("result", "reasons")
                .get(pk=submission_id)
            )
            if submission.status != S.PENDING:
                return submission
            deal = submission.deal
            club = deal.game.table.session.club
            now = timezone.now()
            # A deal still open has no accepted or awaiting version (both move it on, under
            # this lock), so the first version of a new deal needs no look at the others.
            decided = _decided(deal) if deal.status != Deal.Status.OPEN else {}
            newer = max(
                (s.version for s in decided.values() if s.version > submission.version),
                default=None,
            )
            if newer is not None:
                _claim(
                    submission,
                    S.SUPERSEDED,
                    validated_at=now,
                    reasons=[
                        reason_dict(
                            code="newer_version",
                            message=f"version {newer} of this deal was accepted first",
                        )
                    ],
                )
                return submission
            checked = _check(deal, submission)
            if not checked.evaluation.ok:
                _claim(submission, S.REJECTED, reasons=checked.reasons, validated_at=now)
                submission.status, submission.reasons = S.REJECTED, checked.reasons
                deal_event(deal=deal, submission=submission, name="deal.rejected")
                action, after = (
                    "submission.reject",
                    {"reasons": [r["code"] for r in checked.reasons]},
                )
            elif _waits_for_confirmation(submission, club):
                _claim(submission, S.AWAITING_CONFIRMATION, result=checked.result, validated_at=now)
                waiting = decided.get(S.AWAITING_CONFIRMATION)
                if waiting is not None:
                    Submission.objects.filter(pk=waiting.pk).update(
                        status=S.SUPERSEDED, superseded_by=submission
                    )
                if deal.status == Deal.Status.OPEN:
                    Deal.objects.filter(pk=deal.pk).update(status=Deal.Status.AWAITING_CONFIRMATION)
                deal_waiting_announce(deal=deal)
                action, after = "submission.validate", {"status": S.AWAITING_CONFIRMATION}
            else:
                _count(
                    deal=deal,
                    submission=submission,
                    checked=checked,
                    decided=decided,
                    from_status=S.PENDING,
                    validated_at=now,
                )
                action, after = "submission.accept", {"version": submission.version}
            audit_record(actor=None, club=club, action=action, obj=submission, after=after)
    except _Lost:
        return Submission.objects.get(pk=submission_id)
    return submission


def _confirm(
    *,
    submission: Submission,
    check: Callable[[Deal, Submission], None],
    actor: AbstractBaseUser | None,
    audit_after: dict[str, Any],
    repeated: Callable[[Submission], bool] = lambda submission: False,
    **claim: Any,
) -> Submission:
    """Count a submission waiting for confirmation, under its deal's lock, once ``check`` (who
    confirms) allows it. A confirmation ``repeated`` (the same one, sent again after its answer
    was lost) answers as the first did and does nothing more."""
    with transaction.atomic():
        deal = _lock_deal(submission.deal_id)
        submission = Submission.objects.get(pk=submission.pk)
        club = deal.game.table.session.club
        if submission.status == S.ACCEPTED and repeated(submission):
            return submission
        if submission.status != S.AWAITING_CONFIRMATION:
            raise Conflict(
                _(
                    "version %(version)s is %(status)s; only a submission waiting for "
                    "confirmation can be confirmed"
                )
                % {
                    "version": submission.version,
                    "status": submission.get_status_display().lower(),
                },
                code="not_awaiting_confirmation",
            )
        check(deal, submission)
        submission.deal = deal
        checked = _check(deal, submission)
        if not checked.evaluation.ok:  # the game moved on since it was validated
            raise Conflict(
                _("the result no longer checks out against the game: %(reason)s")
                % {"reason": reason_words(checked.reasons[0])},
                code="stale_submission",
                details={"reasons": [{**r, "message": reason_words(r)} for r in checked.reasons]},
            )
        try:
            _count(
                deal=deal,
                submission=submission,
                checked=checked,
                decided=_decided(deal),
                from_status=S.AWAITING_CONFIRMATION,
                confirmed_at=timezone.now(),
                **claim,
            )
        except _Lost:  # cannot happen under the deal's lock; kept as a guard
            raise Conflict(_("the submission changed meanwhile"), code="conflict") from None
        audit_record(
            actor=actor,
            club=club,
            action="submission.confirm",
            obj=submission,
            before={"status": S.AWAITING_CONFIRMATION},
            after={"status": S.ACCEPTED, **audit_after},
        )
    return Submission.objects.get(pk=submission.pk)


def submission_confirm(*, submission: Submission, actor: AbstractBaseUser) -> Submission:
    """A second person confirms a valid submission; from then on it counts."""

    def check(deal: Deal, submission: Submission) -> None:
        if submission.submitted_by_id == actor.pk:
            raise NotAllowed(
                _("the person who entered a result cannot also confirm it"),
                code="confirmer_is_submitter",
            )
        club = deal.game.table.session.club
        if not role_at_least(club_role(user=actor, club=club), Role.SCORER):
            raise NotAllowed(_("confirming needs the scorer role or above"))

    return _confirm(
        submission=submission, check=check, actor=actor, audit_after={}, confirmed_by=actor
    )


def submission_confirm_at_table(
    *, submission: Submission, link: TableLink, seat: int, device: str
) -> Submission:
    """Another seat of the table confirms an entry made through the table's link, on ``device``
    (``table_links.device_of``): another phone than the one it was entered on, unless the link
    trusts one phone per table (mode ``one_phone``)."""

    def check(deal: Deal, submission: Submission) -> None:
        if submission.table_link_id is None or submission.deal.game.table_id != link.table_id:
            raise NotAllowed(
                _("an entry made at the desk is confirmed at the desk"),
                code="not_a_table_entry",
            )
        if submission.entered_seat == seat:
            raise NotAllowed(
                _("seat %(seat)s entered this result: another player of the table confirms it")
                % {"seat": seat},
                code="confirmer_is_submitter",
            )
        if (
            submission.entered_device == device
            and _link_mode(submission.table_link_id) != TableEntry.ONE_PHONE
        ):
            raise NotAllowed(
                _(
                    "this phone entered the result: another player of the table confirms it on "
                    "their own phone (or the director does)"
                ),
                code="confirmer_is_entering_device",
            )

    def repeated(submission: Submission) -> bool:
        # The seat's confirmation sent again after its answer was lost, from whichever device:
        # a client that keeps no cookie is a new device on every request.
        return submission.table_link_id == link.pk and submission.confirmed_seat == seat

    return _confirm(
        submission=submission, check=check, actor=None, repeated=repeated,
        audit_after={"table_link": link.pk, "seat": seat}, confirmed_seat=seat,
        confirmed_device=device,
    )  # fmt: skip


def submission_dispute(
    *, submission: Submission, link: TableLink, seat: int, reason: str
) -> Submission:
    """Another seat of the table says an entry waiting for confirmation is wrong: it stays
    uncounted, with the reason, until a director confirms, corrects or rejects it."""
    reason = " ".join(reason.split())
    if not reason:
        raise InvalidInput(
            "reason: " + _("say what is wrong with the entry"), code="reason_required"
        )
    limit = Submission._meta.get_field("dispute").max_length or 300
    if len(reason) > limit:
        raise InvalidInput(
            "reason: "
            + _("at most %(limit)s characters, not %(given)s")
            % {"limit": limit, "given": len(reason)}
        )
    with transaction.atomic():
        deal = _lock_deal(submission.deal_id)
        submission = Submission.objects.get(pk=submission.pk)
        if (submission.dispute, submission.disputed_seat) == (reason, seat):
            return submission  # the same dispute sent again after its answer was lost
        if submission.status != S.AWAITING_CONFIRMATION or submission.table_link_id is None:
            raise Conflict(
                _("only an entry made at the table and waiting for confirmation can be disputed"),
                code="not_awaiting_confirmation",
            )
        if submission.entered_seat == seat:
            raise NotAllowed(
                _("seat %(seat)s entered this result: another player of the table disputes it")
                % {"seat": seat},
                code="disputer_is_submitter",
            )
        submission.dispute, submission.disputed_seat = reason, seat
        submission.disputed_at = timezone.now()
        submission.save(update_fields=["dispute", "disputed_seat", "disputed_at"])
        audit_record(
            actor=None, club=deal.game.table.session.club, action="submission.dispute",
            obj=submission, after={"table_link": link.pk, "seat": seat, "reason": reason},
        )  # fmt: skip
        deal_waiting_announce(deal=deal)
    return submission


def submission_reject_waiting(
    *, submission: Submission, actor: AbstractBaseUser, reason: str
) -> Submission:
    """A director rejects an entry waiting for confirmation: it never counts, and the deal waits
    for a new entry again (from the table or the desk)."""
    reason = " ".join(reason.split()) or "rejected by the director"
    with transaction.atomic():
        deal = _lock_deal(submission.deal_id)
        club = deal.game.table.session.club
        if not role_at_least(club_role(user=actor, club=club), Role.SCORER):
            raise NotAllowed(_("rejecting an entry needs the scorer role or above"))
        reasons = [reason_dict(code="rejected_by_director", message=reason)]
        claimed = Submission.objects.filter(
            pk=submission.pk, status=S.AWAITING_CONFIRMATION
        ).update(status=S.REJECTED, reasons=reasons)
        if not claimed:
            raise Conflict(
                _("only a submission waiting for confirmation can be rejected"),
                code="not_awaiting_confirmation",
            )
        if deal.status == Deal.Status.AWAITING_CONFIRMATION:
            Deal.objects.filter(pk=deal.pk).update(status=Deal.Status.OPEN)
        audit_record(
            actor=actor, club=club, action="submission.reject", obj=submission,
            before={"status": S.AWAITING_CONFIRMATION},
            after={"status": S.REJECTED, "reason": reason},
        )  # fmt: skip
    return Submission.objects.get(pk=submission.pk)


VALIDATE_TASK = "scoring.validate_submission"
# A validation still pending this long after its last message is sent again; with the sweep
# every 15 s a lost message is found within 45 s.
STALE_AFTER_SECONDS = 30


def _validation_key(submission_id: int) -> str:
    return f"submission:{submission_id}"


def submission_validation_send(*, submission_id: int) -> None:
    """Have a submission validated: an outbox message in the caller's transaction, published
    after the commit (or by the relay when the broker is down then)."""
    outbox_enqueue(task=VALIDATE_TASK, args=[submission_id], key=_validation_key(submission_id))


@transaction.atomic
def submissions_requeue_stale(*, older_than_seconds: int = STALE_AFTER_SECONDS) -> list[int]:
    """Send again the validation of submissions still pending ``older_than_seconds`` after their
    last message (a lost message, a worker killed mid-task). Validation is idempotent, so a
    duplicate costs nothing."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    pending = list(
        Submission.objects.filter(status=S.PENDING, submitted_at__lt=cutoff)
        .order_by("submitted_at")
        .values_list("pk", flat=True)[:1000]
    )
    last = outbox_last_written(keys=[_validation_key(pk) for pk in pending])
    stale = [pk for pk in pending if last.get(_validation_key(pk), cutoff) <= cutoff]
    for submission_id in stale:
        submission_validation_send(submission_id=submission_id)
    if stale:
        logger.warning("requeued %d stale pending submission(s)", len(stale))
    return stale
