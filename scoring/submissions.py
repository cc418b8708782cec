"""The life of a submission: validated once (by the ``validate_submission`` task), then accepted
(counted in the ledger), awaiting a second person's confirmation, or rejected with reasons.

Every decision about a deal is taken with the deal's row locked (``select_for_update``), so
versions submitted and validated concurrently are decided one at a time: the newest version that
passes wins, an older one never displaces a newer one, and the database allows at most one
accepted (and one awaiting) version per deal."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from clubs.audit import audit_record
from clubs.models import Role
from clubs.selectors import club_role, role_at_least
from config.errors import Conflict, NotAllowed
from scoring.formats import handler_for
from scoring.ledger import ledger_entry_create, ledger_entry_reverse
from scoring.models import Deal, Game, LedgerEntry, PlayerResult, Submission
from scoring.presets import game_rules

logger = logging.getLogger(__name__)

S = Submission.Status


def _lock_deal(deal_id: int) -> Deal:
    return (
        Deal.objects.select_for_update(of=("self",))
        .select_related("game__preset", "game__table__session__club")
        .get(pk=deal_id)
    )


def _current(deal: Deal, status: str) -> Submission | None:
    return deal.submissions.filter(status=status).first()


def _count(
    *, deal: Deal, submission: Submission, lines_extra: dict[str, Any] | None = None
) -> None:
    """Make ``submission`` the deal's counted version: reverse the one it replaces, post its
    lines, update the game. The deal row is locked by the caller."""
    game = deal.game
    rules = game_rules(game.preset)
    handler = handler_for(game)
    previous = _current(deal, S.ACCEPTED)
    if previous is not None:
        for entry in LedgerEntry.objects.filter(
            submission=previous, kind=LedgerEntry.Kind.DEAL, reversed_by__isnull=True
        ):
            ledger_entry_reverse(entry=entry, submission=submission)
        Submission.objects.filter(pk=previous.pk).update(
            status=S.SUPERSEDED, superseded_by=submission
        )
    checked = handler.submission_check(
        submission=submission, rules=rules, players=handler.deal_players(deal=deal, rules=rules)
    )
    if not checked.evaluation.ok:  # the game moved on since validation: refuse, count nothing
        raise Conflict(
            "the deal no longer checks out against the game: " + checked.reasons[0]["message"],
            code="stale_submission",
            details={"reasons": checked.reasons},
        )
    lines, extra = handler.deal_lines(game=game, rules=rules, checked=checked)
    ledger_entry_create(
        game=game,
        kind=LedgerEntry.Kind.DEAL,
        lines=lines,
        deal=deal,
        submission=submission,
        memo=f"deal {deal.number} v{submission.version}",
    )
    session_id = game.table.session_id
    PlayerResult.objects.bulk_create(
        PlayerResult(
            submission=submission,
            deal=deal,
            game=game,
            session_id=session_id,
            player_id=score.player,
            outcome=score.outcome,
            points=score.points,
            won=score.player == checked.evaluation.winner,
        )
        for score in checked.evaluation.scores
    )
    result = {**(checked.result or {}), **extra}
    Submission.objects.filter(pk=submission.pk).update(status=S.ACCEPTED, result=result)
    submission.status, submission.result = S.ACCEPTED, result
    if checked.result and checked.result.get("wild"):
        deal.wild = checked.result["wild"]
    deal.status = Deal.Status.FINAL
    deal.save(update_fields=["status", "wild"])
    handler.game_after_deal(game=game, rules=rules)


def submission_validate(*, submission_id: int) -> Submission:
    """Decide a pending submission. Safe to run twice or concurrently: only the run that moves it
    out of ``pending`` (a compare-and-set on its status, under the deal's lock) writes anything."""
    submission = Submission.objects.select_related("deal").get(pk=submission_id)
    if submission.status != S.PENDING:
        return submission
    with transaction.atomic():
        deal = _lock_deal(submission.deal_id)
        submission = Submission.objects.get(pk=submission_id)
        if submission.status != S.PENDING:
            return submission  # another run decided it while we waited for the lock
        submission.deal = deal
        game: Game = deal.game
        club = game.table.session.club
        rules = game_rules(game.preset)
        handler = handler_for(game)
        now = timezone.now()

        newer_decided = deal.submissions.filter(
            version__gt=submission.version, status__in=[S.ACCEPTED, S.AWAITING_CONFIRMATION]
        ).exists()
        if newer_decided:
            claimed = Submission.objects.filter(pk=submission.pk, status=S.PENDING).update(
                status=S.SUPERSEDED,
                validated_at=now,
                reasons=[
                    {
                        "player": None,
                        "code": "newer_version",
                        "message": "a later version of this deal was accepted first",
                    }
                ],
            )
            return Submission.objects.get(pk=submission.pk) if claimed else submission

        checked = handler.submission_check(
            submission=submission,
            rules=rules,
            players=handler.deal_players(deal=deal, rules=rules),
        )
        if not checked.evaluation.ok:
            Submission.objects.filter(pk=submission.pk, status=S.PENDING).update(
                status=S.REJECTED, reasons=checked.reasons, validated_at=now
            )
            audit_record(
                actor=None,
                club=club,
                action="submission.reject",
                obj=submission,
                after={"reasons": [r["code"] for r in checked.reasons]},
            )
        elif club.requires_confirmation:
            waiting = _current(deal, S.AWAITING_CONFIRMATION)
            if waiting is not None:
                Submission.objects.filter(pk=waiting.pk).update(
                    status=S.SUPERSEDED, superseded_by=submission
                )
            Submission.objects.filter(pk=submission.pk, status=S.PENDING).update(
                status=S.AWAITING_CONFIRMATION, result=checked.result, validated_at=now
            )
            if deal.status == Deal.Status.OPEN:
                Deal.objects.filter(pk=deal.pk).update(status=Deal.Status.AWAITING_CONFIRMATION)
            audit_record(
                actor=None, club=club, action="submission.validate", obj=submission,
                after={"status": S.AWAITING_CONFIRMATION},
            )  # fmt: skip
        else:
            Submission.objects.filter(pk=submission.pk, status=S.PENDING).update(validated_at=now)
            _count(deal=deal, submission=submission)
            audit_record(
                actor=None, club=club, action="submission.accept", obj=submission,
                after={"status": S.ACCEPTED, "version": submission.version},
            )  # fmt: skip
    return Submission.objects.get(pk=submission_id)


def submission_confirm(*, submission: Submission, actor: AbstractBaseUser) -> Submission:
    """A second person confirms a valid submission; from then on it counts."""
    with transaction.atomic():
        deal = _lock_deal(submission.deal_id)
        submission = Submission.objects.get(pk=submission.pk)
        club = deal.game.table.session.club
        if submission.status != S.AWAITING_CONFIRMATION:
            raise Conflict(
                f"version {submission.version} is {submission.get_status_display().lower()}; "
                "only a submission waiting for confirmation can be confirmed",
                code="not_awaiting_confirmation",
            )
        if submission.submitted_by_id == actor.pk:
            raise NotAllowed(
                "the person who entered a result cannot also confirm it",
                code="confirmer_is_submitter",
            )
        if not role_at_least(club_role(user=actor, club=club), Role.SCORER):
            raise NotAllowed("confirming needs the scorer role or above")
        submission.deal = deal
        _count(deal=deal, submission=submission)
        now = timezone.now()
        Submission.objects.filter(pk=submission.pk).update(confirmed_by=actor, confirmed_at=now)
        audit_record(
            actor=actor,
            club=club,
            action="submission.confirm",
            obj=submission,
            before={"status": S.AWAITING_CONFIRMATION},
            after={"status": S.ACCEPTED},
        )
    return Submission.objects.get(pk=submission.pk)


STALE_AFTER_SECONDS = 300


def submissions_requeue_stale(*, older_than_seconds: int = STALE_AFTER_SECONDS) -> list[int]:
    """Send again the validation of submissions still pending after a while (a lost message, a
    worker killed mid-task). Validation is idempotent, so a duplicate costs nothing."""
    from config.celery import enqueue_on_commit
    from scoring.tasks import validate_submission

    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    stale = list(
        Submission.objects.filter(status=S.PENDING, submitted_at__lt=cutoff)
        .order_by("submitted_at")
        .values_list("pk", flat=True)[:1000]
    )
    for submission_id in stale:
        enqueue_on_commit(validate_submission, submission_id)
    if stale:
        logger.warning("requeued %d stale pending submission(s)", len(stale))
    return stale
