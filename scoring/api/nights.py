"""The API of a club's nights: presets, sessions (open, close, reopen, delete), their tables,
transfers marked paid, the scoreboard and settle-up, the seasons and a player's history."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.api_kit.permissions import ClubScopedAPIView
from config.api_input import input_valid
from config.filters import filtered
from config.openapi import (
    PAGE_PARAMETERS,
    api_operation,
    page_of,
)
from config.pagination import page_links, page_params, page_response
from scoring import figures, selectors
from scoring.club_settings import preset_create
from scoring.filters import (
    SessionFilterSet,
)
from scoring.games import table_create
from scoring.history import player_history
from scoring.models import Session
from scoring.nights import session_close, session_create, session_reopen, transfer_mark_paid
from scoring.serializers import (
    PlayerHistoryOutput,
    PresetCreateInput,
    PresetOutput,
    ScoreboardOutput,
    SeasonOutput,
    SessionCreateInput,
    SessionDetailOutput,
    SessionOutput,
    SettlementOutput,
    TableCreateInput,
    TableOutput,
    TransferPaidInput,
)
from scoring.undo import session_delete


class PresetListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="presets_list", parameters=PAGE_PARAMETERS, responses=page_of(PresetOutput)
    )
    def get(self, request: Request, club_slug: str) -> Response:
        return page_response(request, selectors.preset_list(club=self.club), PresetOutput)

    @api_operation(
        operation_id="presets_create",
        request=PresetCreateInput,
        responses={201: PresetOutput},
        description="Create a club preset, or a new version of one with the same key.",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(PresetCreateInput, request.data)
        preset = preset_create(club=self.club, actor=request.user, **data)
        return Response(PresetOutput(preset).data, status=status.HTTP_201_CREATED)


class SessionListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="sessions_list",
        filterset=SessionFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(SessionOutput),
    )
    def get(self, request: Request, club_slug: str) -> Response:
        sessions = selectors.session_search(club=self.club)
        sessions = filtered(SessionFilterSet, request.query_params, sessions)

        def counted(page: list[Session]) -> list[Session]:
            return selectors.session_list_counted(club=self.club, sessions=page)

        return page_response(request, sessions, SessionOutput, completed=counted)

    @api_operation(
        operation_id="sessions_create", request=SessionCreateInput, responses={201: SessionOutput}
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(SessionCreateInput, request.data)
        session = session_create(club=self.club, actor=request.user, **data)
        session = selectors.session_list(club=self.club).get(pk=session.pk)
        return Response(SessionOutput(session).data, status=status.HTTP_201_CREATED)


class SessionDetailApi(ClubScopedAPIView):
    @api_operation(operation_id="sessions_retrieve", responses=SessionDetailOutput)
    def get(self, request: Request, club_slug: str, session_id: int) -> Response:
        session = selectors.session_get(club=self.club, session_id=session_id)
        return Response(SessionDetailOutput(session).data)

    @api_operation(
        operation_id="sessions_destroy",
        responses={204: None},
        description="Delete a night started by mistake (409 `not_empty` once anything was "
        "played or paid in it).",
    )
    def delete(self, request: Request, club_slug: str, session_id: int) -> Response:
        session = selectors.session_get(club=self.club, session_id=session_id)
        session_delete(session=session, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SessionReopenApi(ClubScopedAPIView):
    @api_operation(
        operation_id="sessions_reopen",
        request=None,
        responses=SessionOutput,
        description="Reopen a closed night (a late correction); close it again when done.",
    )
    def post(self, request: Request, club_slug: str, session_id: int) -> Response:
        session = selectors.session_get(club=self.club, session_id=session_id)
        session_reopen(session=session, actor=request.user)
        session = selectors.session_list(club=self.club).get(pk=session.pk)
        return Response(SessionOutput(session).data)


class TransferPaidApi(ClubScopedAPIView):
    @api_operation(
        operation_id="sessions_transfer_paid",
        request=TransferPaidInput,
        responses=SettlementOutput,
        description="Mark a settle-up transfer paid (`paid`: false takes the mark back); the "
        "settle-up answered shows each transfer's `paid` mark.",
    )
    def post(self, request: Request, club_slug: str, session_id: int) -> Response:
        data = input_valid(TransferPaidInput, request.data)
        session = selectors.session_get(club=self.club, session_id=session_id)
        transfer_mark_paid(
            session=session, actor=request.user, payer=data["payer"], payee=data["payee"],
            paid=data["paid"],
        )  # fmt: skip
        return Response(_settlement(session))


class SessionCloseApi(ClubScopedAPIView):
    @api_operation(
        operation_id="sessions_close",
        request=None,
        responses=SessionOutput,
        description="Close the night. Games still open that the organiser may end by hand end "
        "now (points tables close, Rummikub matches finish and settle). Anything else still "
        "open refuses the close with 409 `session_not_finished`, its `details.blockers` "
        "listing each deal without a counted result and each pool or deals game still "
        "played, with the `actions` that resolve it (`enter_result`, `void`, `confirm`, "
        "`wait`, `abandoned`).",
    )
    def post(self, request: Request, club_slug: str, session_id: int) -> Response:
        session = selectors.session_get(club=self.club, session_id=session_id)
        session_close(session=session, actor=request.user)
        session = selectors.session_list(club=self.club).get(pk=session.pk)
        return Response(SessionOutput(session).data)


class TableListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="tables_list", parameters=PAGE_PARAMETERS, responses=page_of(TableOutput)
    )
    def get(self, request: Request, club_slug: str, session_id: int) -> Response:
        session = selectors.session_get(club=self.club, session_id=session_id, with_tables=False)
        return page_response(request, selectors.table_list(session=session), TableOutput)

    @api_operation(
        operation_id="tables_create", request=TableCreateInput, responses={201: TableOutput}
    )
    def post(self, request: Request, club_slug: str, session_id: int) -> Response:
        data = input_valid(TableCreateInput, request.data)
        session = selectors.session_get(club=self.club, session_id=session_id)
        table = table_create(session=session, actor=request.user, name=data.get("name"))
        return Response(TableOutput(table).data, status=status.HTTP_201_CREATED)


class ScoreboardApi(ClubScopedAPIView):
    @api_operation(operation_id="sessions_scoreboard", responses=ScoreboardOutput)
    def get(self, request: Request, club_slug: str, session_id: int) -> Response:
        session = selectors.session_get(club=self.club, session_id=session_id, with_tables=False)
        return Response(ScoreboardOutput(figures.session_scoreboard(session=session)).data)


class SettlementApi(ClubScopedAPIView):
    @api_operation(operation_id="sessions_settlement", responses=SettlementOutput)
    def get(self, request: Request, club_slug: str, session_id: int) -> Response:
        session = selectors.session_get(club=self.club, session_id=session_id, with_tables=False)
        return Response(_settlement(session))


def _settlement(session: Any) -> dict[str, Any]:
    transfers = figures.session_settle_up(session=session)
    body = {"session": session.pk, "currency": session.club.currency, "transfers": transfers}
    return dict(SettlementOutput(body).data)


class PlayerHistoryApi(ClubScopedAPIView):
    @api_operation(
        operation_id="players_history",
        parameters=[
            *PAGE_PARAMETERS,
        ],
        responses=PlayerHistoryOutput,
    )
    def get(self, request: Request, club_slug: str, player_id: int) -> Response:
        player = club_selectors.player_get(club=self.club, player_id=player_id)
        limit, offset = page_params(request)
        history = player_history(player=player, limit=limit, offset=offset)
        body = {
            "player": player.pk,
            "name": player.name,
            "formats": history.formats,
            "total": history.total,
            "seasons": history.seasons,
            **page_links(request, count=history.count, limit=limit, offset=offset),
            "results": history.lines,
        }
        return Response(PlayerHistoryOutput(body).data)


class SeasonListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="seasons_list", parameters=PAGE_PARAMETERS, responses=page_of(SeasonOutput)
    )
    def get(self, request: Request, club_slug: str) -> Response:
        return page_response(request, selectors.season_list(club=self.club), SeasonOutput)
