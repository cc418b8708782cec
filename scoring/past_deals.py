"""Deals of the past counted at once (an import of past results, ``standings.result_import``):
each checked and scored by the game's rules and posted as a live entry is (the same handler's
check and ledger lines, a submission of version 1 accepted with its source), but written in a
few statements for the lot, so that thousands of deals import in seconds. No event is sent for
them: they are history, not news."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from clubs.audit import audit_record
from config.errors import InvalidInput
from ledger.writer import Line
from scoring.formats import handler_for, result_moved
from scoring.formats.base import require_open_game
from scoring.models import Deal, Game, Session, Submission
from scoring.nights import require_open_session
from scoring.posting import DealResult, deal_entries_create
from scoring.preset_rules import game_rules


@transaction.atomic
def past_deals_count(
    *, game: Game, actor: AbstractBaseUser, source: str, payloads: list[dict[str, Any]]
) -> list[Deal]:
    """The game's next deals with their results, counted: all or none. A result the rules
    refuse refuses the lot, naming its place in the list (``deals[i]``) and the reasons."""
    game = (
        Game.objects.select_for_update()
        .select_related("preset", "table__session__club")
        .get(pk=game.pk)
    )
    require_open_session(Session.objects.get(pk=game.table.session_id))
    require_open_game(game)
    rules = game_rules(game.preset)
    handler = handler_for(game)
    players = handler.next_deal_players(game=game, rules=rules, is_tiebreaker=False)
    first = (game.deals.aggregate(last=Max("number"))["last"] or 0) + 1
    now = timezone.now()
    deals, submissions, posted = [], [], []
    for index, payload in enumerate(payloads):
        deal = Deal(game=game, number=first + index, status=Deal.Status.FINAL, wild="")
        submission = Submission(
            deal=deal, version=1, status=Submission.Status.ACCEPTED, source=source,
            payload=payload, submitted_by=actor, validated_at=now,
        )  # fmt: skip
        checked = handler.submission_check(submission=submission, rules=rules, players=players)
        if not checked.evaluation.ok:
            raise InvalidInput(
                f"deals[{index}]: {checked.reasons[0]['message']}",
                details={"index": index, "reasons": checked.reasons},
            )
        lines, extra = handler.deal_lines(game=game, rules=rules, checked=checked)
        checked = dataclasses.replace(checked, result=result_moved(checked.result, lines))
        submission.result = {**(checked.result or {}), **extra}
        winner = checked.evaluation.winner
        results: list[DealResult] = [
            (score.player, score.outcome, score.points, score.player == winner)
            for score in checked.evaluation.scores
        ]
        deals.append(deal)
        submissions.append(submission)
        posted.append((lines, results))
    Deal.objects.bulk_create(deals)
    for deal, submission in zip(deals, submissions, strict=True):
        submission.deal = deal
    Submission.objects.bulk_create(submissions)
    counted: list[tuple[Deal, Submission, list[Line], list[DealResult]]] = [
        (deal, submission, lines, results)
        for deal, submission, (lines, results) in zip(deals, submissions, posted, strict=True)
    ]
    deal_entries_create(game=game, counted=counted)
    audit_record(
        actor=actor, club=game.table.session.club, action="deals.count_past", obj=game,
        after={"deals": [first, first + len(deals) - 1], "source": source},
    )  # fmt: skip
    return deals
