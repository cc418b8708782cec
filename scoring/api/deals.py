"""The API of deals and their submissions: entered (202, validated in the background), read,
voided, deleted and confirmed."""

from __future__ import annotations

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api_kit.permissions import ClubScopedAPIView
from clubs.models import Role
from clubs.signin import scopes as app_scopes
from config.api_input import input_valid
from config.filters import filtered
from config.openapi import (
    PAGE_PARAMETERS,
    api_operation,
    page_of,
)
from config.pagination import page_response
from scoring import selectors
from scoring.api.common import club_player, result_payload, submission_source
from scoring.deals import deal_create_with_result, submission_create
from scoring.filters import (
    ClubDealFilterSet,
    ClubSubmissionFilterSet,
    DealFilterSet,
    SubmissionFilterSet,
)
from scoring.models import Game, Submission
from scoring.serializers import (
    DealCreateInput,
    DealOutput,
    SubmissionAccepted,
    SubmissionInput,
    SubmissionOutput,
    submission_url,
)
from scoring.submissions import submission_confirm
from scoring.undo import deal_delete, deal_void


def _accepted(request: Request, submission: Submission, club_slug: str) -> Response:
    # Absolute, as every other URL the API answers (the paging links, a table link's).
    url = request.build_absolute_uri(submission_url(submission, club_slug))
    body = {
        "id": submission.pk,
        "deal": submission.deal_id,
        "version": submission.version,
        "status": submission.status,
        "url": url,
    }
    return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": url})


class DealListApi(ClubScopedAPIView):
    write_scope = app_scopes.SCORE
    write_role = Role.SCORER

    @api_operation(
        operation_id="deals_list",
        filterset=DealFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(DealOutput),
    )
    def get(self, request: Request, club_slug: str, game_id: int) -> Response:
        game = selectors.game_get(club=self.club, game_id=game_id)
        deals = filtered(DealFilterSet, request.query_params, selectors.deal_list(game=game))
        return page_response(request, deals, DealOutput)

    @api_operation(
        operation_id="deals_create",
        request=DealCreateInput,
        responses={201: DealOutput, 202: SubmissionAccepted},
        description="Start the next deal. With `results`, its first submission is stored too "
        "and the answer is 202 with the submission's URL, as for POST .../submissions/.",
    )
    def post(self, request: Request, club_slug: str, game_id: int) -> Response:
        data = input_valid(DealCreateInput, request.data)
        dealer = data.get("dealer")
        deal, submission = deal_create_with_result(
            club=self.club,
            game=Game(pk=game_id),  # found and locked, within this club, by the service
            actor=request.user,
            wild=data.get("wild", ""),
            dealer=club_player(self.club, dealer, "dealer") if dealer else None,
            number=data.get("number"),
            is_tiebreaker=data["tiebreaker"],
            source=submission_source(request),
            payload=result_payload(data),
        )
        if submission is not None:
            return _accepted(request, submission, club_slug)
        return Response(DealOutput(deal).data, status=status.HTTP_201_CREATED)


class ClubDealListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="deals_list_club",
        filterset=ClubDealFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(DealOutput),
        description="Every deal of the club's games, in the order they were started.",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        deals = selectors.deal_list_in_club(club=self.club)
        return page_response(
            request, filtered(ClubDealFilterSet, request.query_params, deals), DealOutput
        )


class DealVoidApi(ClubScopedAPIView):
    write_scope = app_scopes.SCORE
    write_role = Role.ORGANISER

    @api_operation(
        operation_id="deals_void",
        request=None,
        responses=DealOutput,
        description="Void a deal that was never played (no counted, waiting or pending "
        "result): it keeps its number and counts for nothing.",
    )
    def post(self, request: Request, club_slug: str, deal_id: int) -> Response:
        deal = selectors.deal_get(club=self.club, deal_id=deal_id)
        return Response(DealOutput(deal_void(deal=deal, actor=request.user)).data)


class DealDetailApi(ClubScopedAPIView):
    write_scope = app_scopes.SCORE

    @api_operation(operation_id="deals_retrieve", responses=DealOutput)
    def get(self, request: Request, club_slug: str, deal_id: int) -> Response:
        return Response(DealOutput(selectors.deal_get(club=self.club, deal_id=deal_id)).data)

    @api_operation(
        operation_id="deals_destroy",
        responses={204: None},
        description="Delete a deal opened by mistake: one with no result ever entered (409 "
        "`deal_has_history` otherwise: void it instead).",
    )
    def delete(self, request: Request, club_slug: str, deal_id: int) -> Response:
        deal = selectors.deal_get(club=self.club, deal_id=deal_id)
        deal_delete(deal=deal, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SubmissionListApi(ClubScopedAPIView):
    write_scope = app_scopes.SCORE
    write_role = Role.SCORER

    @api_operation(
        operation_id="submissions_list",
        filterset=SubmissionFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(SubmissionOutput),
        description="A deal's versions, oldest first: a new version only ever joins the end, "
        "so a reader paging through misses none.",
    )
    def get(self, request: Request, club_slug: str, deal_id: int) -> Response:
        deal = selectors.deal_get(club=self.club, deal_id=deal_id)
        versions = selectors.submission_list(deal=deal)
        versions = filtered(SubmissionFilterSet, request.query_params, versions)
        return page_response(request, versions, SubmissionOutput)

    @api_operation(
        operation_id="submissions_create",
        request=SubmissionInput,
        responses={202: SubmissionAccepted},
        description="Enter a deal's result (a new version; a correction when one was accepted). "
        "It is validated in the background: poll the returned URL for its status and reasons.",
    )
    def post(self, request: Request, club_slug: str, deal_id: int) -> Response:
        data = input_valid(SubmissionInput, request.data)
        deal = selectors.deal_get(club=self.club, deal_id=deal_id)
        payload = result_payload(data)
        assert payload is not None  # the serializer requires a result
        submission = submission_create(
            deal=deal, actor=request.user, source=submission_source(request), payload=payload
        )
        return _accepted(request, submission, club_slug)


class ClubSubmissionListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="submissions_list_club",
        filterset=ClubSubmissionFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(SubmissionOutput),
        description="Every version of every deal's result in the club, in the order they were "
        "entered.",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        versions = selectors.submission_list_in_club(club=self.club)
        versions = filtered(ClubSubmissionFilterSet, request.query_params, versions)
        return page_response(request, versions, SubmissionOutput)


class SubmissionDetailApi(ClubScopedAPIView):
    @api_operation(operation_id="submissions_retrieve", responses=SubmissionOutput)
    def get(self, request: Request, club_slug: str, submission_id: int) -> Response:
        submission = selectors.submission_get(club=self.club, submission_id=submission_id)
        return Response(SubmissionOutput(submission).data)


class SubmissionConfirmApi(ClubScopedAPIView):
    write_scope = app_scopes.SCORE
    write_role = Role.SCORER

    @api_operation(operation_id="submissions_confirm", request=None, responses=SubmissionOutput)
    def post(self, request: Request, club_slug: str, submission_id: int) -> Response:
        submission = selectors.submission_get(club=self.club, submission_id=submission_id)
        submission = submission_confirm(submission=submission, actor=request.user)
        submission = selectors.submission_get(club=self.club, submission_id=submission.pk)
        return Response(SubmissionOutput(submission).data)
