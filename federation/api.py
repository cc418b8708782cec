"""The federation's API: the public lists and a player's page, the rating officer's queue and
decisions, and a member club's requests. Thin views over ``federation.services`` and
``federation.selectors``."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api_kit.permissions import ClubScopedAPIView
from clubs.signin.token_scopes import TokenScopePermission
from config.api_input import input_valid
from config.errors import NotFoundError
from config.openapi import api_operation
from federation import refusals, selectors, services
from federation.models import Federation, PlayerLink, PlayerMerge, SanctionedEvent
from federation.serializers import (
    FederationAnswerInput,
    FederationDecisionInput,
    FederationEventOutput,
    FederationLinkDecisionInput,
    FederationLinkInput,
    FederationLinkOutput,
    FederationMembershipOutput,
    FederationMergeInput,
    FederationMergeOutput,
    FederationPeriodOutput,
    FederationPlayerOutput,
    FederationQueueOutput,
    FederationRankingOutput,
    FederationRatingListOutput,
    FederationReasonInput,
    FederationSanctionInput,
)
from scoring.models import Session
from tournaments.models import Tournament

PERIOD = OpenApiParameter(
    "period", int, description="A published period's index (the latest when left out)."
)


class PublicFederationApi(APIView):
    """Anyone may read a federation's lists (a token needs the read scope)."""

    permission_classes = [TokenScopePermission]
    federation: Federation

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.federation = selectors.federation_get(slug=kwargs["federation_slug"])


class OfficerApi(APIView):
    """The federation's rating officers only: others are refused (403)."""

    federation: Federation

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.federation = selectors.officer_federation(
            user=request.user, slug=kwargs["federation_slug"]
        )


class RankingApi(PublicFederationApi):
    @api_operation(
        operation_id="federation_ranking",
        responses=FederationRankingOutput,
        description="The ranking list today: place points x tier x decay, best N.",
    )
    def get(self, request: Request, federation_slug: str) -> Response:
        today = timezone.localdate()
        rows = selectors.ranking_rows(federation=self.federation, as_of=today)
        return Response(FederationRankingOutput({"as_of": today, "results": rows}).data)


class RatingListApi(PublicFederationApi):
    @api_operation(
        operation_id="federation_ratings",
        responses=FederationRatingListOutput,
        parameters=[PERIOD],
        description="A published rating list.",
    )
    def get(self, request: Request, federation_slug: str) -> Response:
        raw = request.query_params.get("period")
        index = None if raw is None else _period_index(raw)
        rows = selectors.rating_rows(federation=self.federation, index=index)
        return Response(FederationRatingListOutput(rows).data)


def _period_index(raw: str) -> int:
    if not raw.isdigit() or len(raw) > 6:
        raise refusals.no_period(repr(raw))
    return int(raw)


class RatingPreviewApi(PublicFederationApi):
    @api_operation(
        operation_id="federation_ratings_preview",
        responses=FederationRatingListOutput,
        description="The next rating list as it stands (not yet published).",
    )
    def get(self, request: Request, federation_slug: str) -> Response:
        rows = selectors.rating_rows(federation=self.federation, preview=True)
        return Response(FederationRatingListOutput(rows).data)


class PlayerApi(PublicFederationApi):
    @api_operation(
        operation_id="federation_player",
        responses=FederationPlayerOutput,
        description="A player's ranking line and published ratings, period by period.",
    )
    def get(self, request: Request, federation_slug: str, player_id: int) -> Response:
        player = selectors.player_get(federation=self.federation, player_id=player_id)
        row = selectors.player_row(
            federation=self.federation, player=player, as_of=timezone.localdate()
        )
        return Response(FederationPlayerOutput(row).data)


class QueueApi(OfficerApi):
    @api_operation(
        operation_id="federation_queue",
        responses=FederationQueueOutput,
        description="Proposed links, asked and submitted events, duplicate candidates.",
    )
    def get(self, request: Request, federation_slug: str) -> Response:
        return Response(
            FederationQueueOutput(selectors.queue_rows(federation=self.federation)).data
        )


def _event(federation: Federation, event_id: int) -> SanctionedEvent:
    found = federation.events.select_related("club").filter(pk=event_id).first()
    if found is None:
        words = _("no event #%(number)s in %(federation)s")
        raise NotFoundError(words % {"number": event_id, "federation": federation.name})
    return found


def _event_out(event: SanctionedEvent) -> dict[str, Any]:
    event.refresh_from_db()
    return dict(FederationEventOutput(selectors.event_row(event)).data)


class LinkDecideApi(OfficerApi):
    @api_operation(
        operation_id="federation_link_decide",
        request=FederationLinkDecisionInput,
        responses=FederationLinkOutput,
        description="Confirm or refuse a club's proposal.",
    )
    def post(self, request: Request, federation_slug: str, link_id: int) -> Response:
        data = input_valid(FederationLinkDecisionInput, request.data)
        link = PlayerLink.objects.filter(federation=self.federation, pk=link_id).first()
        if link is None:
            raise refusals.no_proposal(link_id)
        target = data["federation_player"]
        link = services.link_decide(
            actor=request.user,
            link=link,
            confirm=data["confirm"],
            reason=data["reason"],
            federation_player=None
            if target is None
            else selectors.player_get(federation=self.federation, player_id=target),
        )
        return Response(FederationLinkOutput(link).data)


class SanctionDecideApi(OfficerApi):
    @api_operation(
        operation_id="federation_sanction_decide",
        request=FederationDecisionInput,
        responses=FederationEventOutput,
        description="Sanction an asked event, or refuse it.",
    )
    def post(self, request: Request, federation_slug: str, event_id: int) -> Response:
        data = input_valid(FederationDecisionInput, request.data)
        event = services.sanction_decide(
            actor=request.user,
            event=_event(self.federation, event_id),
            approve=data["approve"],
            reason=data["reason"],
        )
        return Response(_event_out(event))


class ReleaseApi(OfficerApi):
    @api_operation(
        operation_id="federation_event_release",
        request=None,
        responses=FederationEventOutput,
        description="Release a submitted event: it counts on both lists.",
    )
    def post(self, request: Request, federation_slug: str, event_id: int) -> Response:
        event = services.event_release(actor=request.user, event=_event(self.federation, event_id))
        return Response(_event_out(event))


class ReturnApi(OfficerApi):
    @api_operation(
        operation_id="federation_event_return",
        request=FederationReasonInput,
        responses=FederationEventOutput,
        description="Return a submission with a reason.",
    )
    def post(self, request: Request, federation_slug: str, event_id: int) -> Response:
        data = input_valid(FederationReasonInput, request.data)
        event = services.event_return(
            actor=request.user, event=_event(self.federation, event_id), reason=data["reason"]
        )
        return Response(_event_out(event))


class MergeApi(OfficerApi):
    @api_operation(
        operation_id="federation_merge",
        request=FederationMergeInput,
        responses={201: FederationMergeOutput},
        description="Merge a duplicate into a player.",
    )
    def post(self, request: Request, federation_slug: str) -> Response:
        data = input_valid(FederationMergeInput, request.data)
        merge = services.player_merge(
            actor=request.user,
            source=selectors.player_get(federation=self.federation, player_id=data["source"]),
            target=selectors.player_get(federation=self.federation, player_id=data["target"]),
        )
        return Response(FederationMergeOutput(merge).data, status=status.HTTP_201_CREATED)


class UnmergeApi(OfficerApi):
    @api_operation(
        operation_id="federation_unmerge",
        request=None,
        responses=FederationMergeOutput,
        description="Undo a merge; its record is kept.",
    )
    def post(self, request: Request, federation_slug: str, merge_id: int) -> Response:
        merge = PlayerMerge.objects.filter(federation=self.federation, pk=merge_id).first()
        if merge is None:
            raise NotFoundError(_("no merge #%(number)s") % {"number": merge_id})
        return Response(
            FederationMergeOutput(services.player_unmerge(actor=request.user, merge=merge)).data
        )


class PublishApi(OfficerApi):
    @api_operation(
        operation_id="federation_period_publish",
        request=None,
        responses={201: FederationPeriodOutput},
        description="Publish the next rating period.",
    )
    def post(self, request: Request, federation_slug: str) -> Response:
        period = services.period_publish(actor=request.user, federation=self.federation)
        out = {
            "index": period.index,
            "starts_on": period.starts_on,
            "ends_on": period.ends_on,
            "published": True,
        }
        return Response(FederationPeriodOutput(out).data, status=status.HTTP_201_CREATED)


# --- a member club's side -----------------------------------------------------------------------


class ClubFederationApi(ClubScopedAPIView):
    federation: Federation

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.federation = selectors.federation_get(slug=kwargs["federation_slug"])


class AnswerApi(ClubFederationApi):
    write_role = "owner"

    @api_operation(
        operation_id="federation_invitation_answer",
        request=FederationAnswerInput,
        responses=FederationMembershipOutput,
        description="The club's owner answers an invitation.",
    )
    def post(self, request: Request, club_slug: str, federation_slug: str) -> Response:
        data = input_valid(FederationAnswerInput, request.data)
        member = services.club_answer(
            actor=request.user, federation=self.federation, club=self.club, accept=data["accept"]
        )
        return Response(FederationMembershipOutput(member).data)


class LinkProposeApi(ClubFederationApi):
    @api_operation(
        operation_id="federation_link_propose",
        request=FederationLinkInput,
        responses={201: FederationLinkOutput},
        description="Propose a club player as a federation player.",
    )
    def post(self, request: Request, club_slug: str, federation_slug: str) -> Response:
        data = input_valid(FederationLinkInput, request.data)
        player = self.club.players.filter(pk=data["player"]).first()
        if player is None:
            raise refusals.no_player(data["player"], self.club.name)
        target = data["federation_player"]
        link = services.link_propose(
            actor=request.user,
            federation=self.federation,
            player=player,
            date_of_birth=data["date_of_birth"],
            email=data["email"],
            federation_player=None
            if target is None
            else selectors.player_get(federation=self.federation, player_id=target),
        )
        return Response(FederationLinkOutput(link).data, status=status.HTTP_201_CREATED)


class SanctionRequestApi(ClubFederationApi):
    @api_operation(
        operation_id="federation_sanction_request",
        request=FederationSanctionInput,
        responses={201: FederationEventOutput},
        description="Ask, before it starts, for a night or tournament to count.",
    )
    def post(self, request: Request, club_slug: str, federation_slug: str) -> Response:
        data = input_valid(FederationSanctionInput, request.data)
        session = tournament = None
        if data["session_id"] is not None:
            session = Session.objects.filter(club=self.club, pk=data["session_id"]).first()
            if session is None:
                raise refusals.no_night(data["session_id"], self.club)
        if data["tournament_id"] is not None:
            tournament = Tournament.objects.filter(club=self.club, pk=data["tournament_id"]).first()
            if tournament is None:
                raise refusals.no_tournament(data["tournament_id"], self.club)
        event = services.sanction_request(
            actor=request.user,
            federation=self.federation,
            club=self.club,
            tier=data["tier"],
            session=session,
            tournament=tournament,
            held_elsewhere=data.get("held_elsewhere", ""),
            name=data["name"],
        )
        return Response(_event_out(event), status=status.HTTP_201_CREATED)


class SubmitApi(ClubFederationApi):
    @api_operation(
        operation_id="federation_event_submit",
        request=None,
        responses=FederationEventOutput,
        description="Submit a finished sanctioned event (or a correction) to the officer.",
    )
    def post(
        self, request: Request, club_slug: str, federation_slug: str, event_id: int
    ) -> Response:
        event = self.federation.events.filter(club=self.club, pk=event_id).first()
        if event is None:
            raise refusals.no_event_of(event_id, self.club)
        event = services.event_submit(actor=request.user, event=event)
        return Response(_event_out(event))
