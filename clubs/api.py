"""Clubs, members, players and invitations over HTTP: parse, call one service or selector,
render."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import player_import, selectors, services
from clubs.api_kit.permissions import ClubScopedAPIView
from clubs.filters import MemberFilterSet, PlayerFilterSet, TombstoneFilterSet
from clubs.models import Club, Role
from clubs.player_sheet import sheet_from_paste, sheet_read
from clubs.serializers import (
    ClubCreateInput,
    ClubOutput,
    ClubUpdateInput,
    InvitationReceivedOutput,
    MembershipCreateInput,
    MembershipJoinedOutput,
    MembershipOutput,
    MembershipRequestOutput,
    MembershipUpdateInput,
    PlayerCreateInput,
    PlayerImportInput,
    PlayerImportOutput,
    PlayerImportPreviewInput,
    PlayerImportPreviewOutput,
    PlayerOutput,
    PlayerUpdateInput,
    TombstoneOutput,
)
from clubs.signin import scopes as app_scopes
from clubs.signin.token_scopes import refuse_token_auth
from config.api_input import input_valid
from config.errors import InvalidInput
from config.filters import filtered
from config.openapi import PAGE_PARAMETERS, api_operation, page_of
from config.pagination import page_response


class ClubListApi(APIView):
    @api_operation(
        operation_id="clubs_list", parameters=PAGE_PARAMETERS, responses=page_of(ClubOutput)
    )
    def get(self, request: Request) -> Response:
        grant = app_scopes.token_grant(request.auth)
        clubs = selectors.club_list_for_user(
            user=request.user, club_ids=None if grant is None else grant.club_ids
        )
        return page_response(request, clubs, ClubOutput)

    @api_operation(
        operation_id="clubs_create", request=ClubCreateInput, responses={201: ClubOutput}
    )
    def post(self, request: Request) -> Response:
        data = input_valid(ClubCreateInput, request.data)
        club = services.club_create(
            owner=request.user,
            name=data["name"],
            slug=data.get("slug"),
            currency=data["currency"],
            timezone_name=data["timezone"],
            public_standings=data["public_standings"],
            requires_confirmation=data["requires_confirmation"],
            table_entry=data["table_entry"],
            points_only=data["points_only"],
            language=data["language"],
        )
        club.caller_role = Role.OWNER  # type: ignore[attr-defined]
        return Response(ClubOutput(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(ClubScopedAPIView):
    write_role = Role.OWNER

    @api_operation(operation_id="clubs_retrieve", responses=ClubOutput)
    def get(self, request: Request, club_slug: str) -> Response:
        return Response(ClubOutput(self.club).data)

    @api_operation(operation_id="clubs_update", request=ClubUpdateInput, responses=ClubOutput)
    def patch(self, request: Request, club_slug: str) -> Response:
        changes = input_valid(ClubUpdateInput, request.data)
        club = services.club_update(club=self.club, actor=request.user, **changes)
        club.caller_role = self.role  # type: ignore[attr-defined]
        self.club = club  # the answer shows money or not as the club now plays
        return Response(ClubOutput(club).data)


class MemberListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="members_list",
        filterset=MemberFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(MembershipOutput),
    )
    def get(self, request: Request, club_slug: str) -> Response:
        members = selectors.membership_list(club=self.club)
        members = filtered(MemberFilterSet, request.query_params, members)
        return page_response(request, members, MembershipOutput)

    @api_operation(
        operation_id="members_create",
        request=MembershipCreateInput,
        responses={202: MembershipRequestOutput},
        description="Invite an account to the club by its username; it joins once it accepts "
        "(`POST /api/v1/invitations/<id>/accept/`, or from its home page). The answer is the "
        "same whether or not such an account exists (or is already a member), so the API never "
        "tells which usernames exist; read the member list to see who is in.",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(MembershipCreateInput, request.data)
        services.invitation_for_account(
            club=self.club,
            actor=request.user,
            actor_role=self.role,
            username=data["username"],
            role=data["role"],
        )
        body = {"username": data["username"], "role": data["role"], "status": "invited"}
        return Response(MembershipRequestOutput(body).data, status=status.HTTP_202_ACCEPTED)


class MemberDetailApi(ClubScopedAPIView):
    @api_operation(operation_id="members_retrieve", responses=MembershipOutput)
    def get(self, request: Request, club_slug: str, membership_id: int) -> Response:
        membership = selectors.membership_get(club=self.club, membership_id=membership_id)
        return Response(MembershipOutput(membership).data)

    @api_operation(
        operation_id="members_update", request=MembershipUpdateInput, responses=MembershipOutput
    )
    def patch(self, request: Request, club_slug: str, membership_id: int) -> Response:
        data = input_valid(MembershipUpdateInput, request.data)
        membership = services.membership_change_role(
            membership=selectors.membership_get(club=self.club, membership_id=membership_id),
            actor=request.user,
            actor_role=self.role,
            role=data["role"],
        )
        return Response(MembershipOutput(membership).data)

    @api_operation(operation_id="members_destroy", responses={204: None})
    def delete(self, request: Request, club_slug: str, membership_id: int) -> Response:
        services.membership_remove(
            membership=selectors.membership_get(club=self.club, membership_id=membership_id),
            actor=request.user,
            actor_role=self.role,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="players_list",
        filterset=PlayerFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(PlayerOutput),
    )
    def get(self, request: Request, club_slug: str) -> Response:
        found = selectors.player_search(club=self.club, text="")  # the roster, in name order
        return page_response(
            request, filtered(PlayerFilterSet, request.query_params, found), PlayerOutput
        )

    @api_operation(
        operation_id="players_create", request=PlayerCreateInput, responses={201: PlayerOutput}
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(PlayerCreateInput, request.data)
        player = services.player_create(
            club=self.club,
            actor=request.user,
            name=data["name"],
            user=_member_account(self.club, data),
            **{field: data[field] for field in services.PLAYER_DETAILS if field in data},
        )
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(ClubScopedAPIView):
    # A player changes their own payment details; the service refuses them anything else.
    write_role = Role.PLAYER

    @api_operation(operation_id="players_retrieve", responses=PlayerOutput)
    def get(self, request: Request, club_slug: str, player_id: int) -> Response:
        return Response(
            PlayerOutput(selectors.player_get(club=self.club, player_id=player_id)).data
        )

    @api_operation(operation_id="players_update", request=PlayerUpdateInput, responses=PlayerOutput)
    def patch(self, request: Request, club_slug: str, player_id: int) -> Response:
        changes = input_valid(PlayerUpdateInput, request.data)
        if "username" in changes:
            changes["user"] = _member_account(self.club, changes)
            del changes["username"]
        player = services.player_update(
            player=selectors.player_get(club=self.club, player_id=player_id),
            actor=request.user,
            actor_role=self.role,
            **changes,
        )
        return Response(PlayerOutput(player).data)


class PlayerImportPreviewApi(ClubScopedAPIView):
    @api_operation(
        operation_id="players_import_preview",
        request=PlayerImportPreviewInput,
        responses=PlayerImportPreviewOutput,
        description="Read a sheet of players (a CSV text or a pasted list in `text`, or a CSV "
        "or XLSX file in `file_base64`) and answer each row as it will be stored, its errors by "
        "column, the roster players it matches and a default choice. Nothing is stored.",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(PlayerImportPreviewInput, request.data)
        if "file_base64" in data:
            content = _decoded_file(data["file_base64"])
            sheet = sheet_read(content=content, filename=data["filename"])
        elif "text" in data:
            sheet = sheet_from_paste(text=data["text"])
        else:
            raise InvalidInput("text: " + _("give the sheet as text or file_base64"))
        preview = player_import.rows_checked(club=self.club, sheet=sheet)
        return Response(PlayerImportPreviewOutput(_preview_body(preview)).data)


def _decoded_file(encoded: str) -> bytes:
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidInput(
            "file_base64: " + _("not base64"), details={"file_base64": "?"}
        ) from None


def _preview_body(preview: player_import.Preview) -> dict[str, Any]:
    rows = [
        {
            "row": row.number, "values": row.values, "errors": row.errors,
            "matches": [{"player": m.player_id, "name": m.name, "reasons": m.reasons,
                         "strong": m.strong} for m in row.matches],
            "choice": row.choice, "merge_into": row.merge_into, "choices": row.choices,
            "fills": row.fills,
        }
        for row in preview.rows
    ]  # fmt: skip
    return {"columns": preview.columns, "ignored": preview.ignored, "notes": preview.notes,
            "rows": rows}  # fmt: skip


class PlayerImportApi(ClubScopedAPIView):
    @api_operation(
        operation_id="players_import",
        request=PlayerImportInput,
        responses=PlayerImportOutput,
        description="Import the previewed rows with a choice each (merge into a player the row "
        "matches, new, or skip), all in one transaction after every row is checked again; a "
        "refusal names the row and the column and stores nothing.",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(PlayerImportInput, request.data)
        result = player_import.players_import(club=self.club, actor=request.user, rows=data["rows"])
        body = {"created": result.created, "merged": result.merged,
                "unchanged": result.unchanged, "skipped": result.skipped}  # fmt: skip
        return Response(PlayerImportOutput(body).data)


def _member_account(club: Club, data: dict[str, Any]) -> Any:
    """The member account a player is to be linked to (None: no link); 404 for a non-member."""
    username = data.get("username")
    return None if username is None else selectors.member_account_get(club=club, username=username)


class InvitationReceivedListApi(APIView):
    @api_operation(
        operation_id="invitations_received",
        parameters=PAGE_PARAMETERS,
        responses=page_of(InvitationReceivedOutput),
        description="Invitations made out to the caller's account and still open.",
    )
    def get(self, request: Request) -> Response:
        invitations = selectors.invitation_list_received(user=request.user)
        grant = app_scopes.token_grant(request.auth)
        if grant is not None:  # a token sees nothing of clubs it is not bound to
            invitations = invitations.filter(club_id__in=grant.club_ids)
        return page_response(request, invitations, InvitationReceivedOutput)


class InvitationAcceptApi(APIView):
    @api_operation(
        operation_id="invitations_accept",
        request=None,
        responses={201: MembershipJoinedOutput},
        description="Join the club with the invitation's role.",
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        refuse_token_auth(request, "accept an invitation")
        membership = services.invitation_accept_received(
            invitation_id=invitation_id, user=request.user
        )
        return Response(MembershipJoinedOutput(membership).data, status=status.HTTP_201_CREATED)


class InvitationDeclineApi(APIView):
    @api_operation(
        operation_id="invitations_decline",
        request=None,
        responses={204: None},
        description="Turn the invitation down; it can no longer be accepted.",
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        services.invitation_decline(invitation_id=invitation_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TombstoneListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="tombstones_list",
        filterset=TombstoneFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(TombstoneOutput),
        description="What left the club's lists: each deleted night, game, deal, submission, "
        "member, player, tournament or entry, and each player merged into another, oldest "
        "first. Sync it with `updated_since` as the lists (docs/api.md, Syncing).",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        gone = selectors.tombstone_list(club=self.club)
        gone = filtered(TombstoneFilterSet, request.query_params, gone)
        return page_response(request, gone, TombstoneOutput)
