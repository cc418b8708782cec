"""Several deals of a game entered in one request: all or none, each with its own result."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api_kit.permissions import ClubScopedAPIView
from clubs.models import Role
from clubs.signin import scopes as app_scopes
from config.api_input import input_valid
from config.openapi import api_operation
from scoring.api.common import club_player, result_payload, submission_source
from scoring.deals import BATCH_MAX, DealEntry, deals_create_batch
from scoring.models import Game, Submission
from scoring.serializers import DealCreateInput, DealOutput, SubmissionAccepted, submission_url


class DealBatchInput(serializers.Serializer[dict]):
    deals = DealCreateInput(
        many=True, min_length=1, max_length=BATCH_MAX,
        help_text=f"1 to {BATCH_MAX} deals of the game, in the order they were played.",
    )  # fmt: skip


class DealBatchItemOutput(serializers.Serializer[dict]):
    deal = DealOutput()
    submission = SubmissionAccepted(
        allow_null=True, help_text="The result's submission (null for a deal given none)."
    )


class DealBatchOutput(serializers.Serializer[dict]):
    deals = DealBatchItemOutput(many=True, help_text="One per deal given, in the same order.")


def _accepted_body(submission: Submission, club_slug: str) -> dict[str, Any]:
    return {
        "id": submission.pk,
        "deal": submission.deal_id,
        "version": submission.version,
        "status": submission.status,
        "url": submission_url(submission, club_slug),
    }


class DealBatchApi(ClubScopedAPIView):
    write_scope = app_scopes.SCORE
    write_role = Role.SCORER

    @api_operation(
        operation_id="deals_create_batch",
        request=DealBatchInput,
        responses={201: DealBatchOutput, 202: DealBatchOutput},
        description="Start several deals of the game in one request (1 to 50, in the order "
        "played), each as POST .../deals/ would: all or none. A refused deal refuses the "
        "batch, its place named (`deals[3]: ...`, `details.index`), and nothing is stored. "
        "Each deal given a result has its own submission, validated on its own: 202 when any "
        "result was given, 201 when none was. Honours `Idempotency-Key` as every write does.",
    )
    def post(self, request: Request, club_slug: str, game_id: int) -> Response:
        data = input_valid(DealBatchInput, request.data)
        entries = []
        for index, deal in enumerate(data["deals"]):
            dealer = deal.get("dealer")
            entries.append(
                DealEntry(
                    wild=deal.get("wild", ""),
                    dealer=club_player(self.club, dealer, f"deals[{index}].dealer")
                    if dealer
                    else None,
                    number=deal.get("number"),
                    is_tiebreaker=deal["tiebreaker"],
                    payload=result_payload(deal),
                )
            )
        done = deals_create_batch(
            club=self.club, game=Game(pk=game_id), actor=request.user,
            source=submission_source(request), entries=entries,
        )  # fmt: skip
        body = {
            "deals": [
                {
                    "deal": DealOutput(deal).data,
                    "submission": None if sub is None else _accepted_body(sub, club_slug),
                }
                for deal, sub in done
            ]
        }
        entered = any(sub is not None for _, sub in done)
        return Response(body, status=status.HTTP_202_ACCEPTED if entered else 201)
