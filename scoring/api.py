"""Sessions, tables, games, deals, submissions and scoreboards over HTTP.

Organisers set up sessions, tables and games; scorers (and above) enter and confirm results;
players of the club read; everyone else gets 404."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors as club_selectors
from clubs.api_kit.permissions import ClubScopedAPIView
from clubs.models import Player, Role
from clubs.signin import scopes as app_scopes
from config.api_input import input_valid
from config.errors import InvalidInput, NotFoundError
from config.fields import ID_MAX, query_bool, query_int
from config.filters import filtered
from config.openapi import (
    PAGE_PARAMETERS,
    api_operation,
    int_query_parameter,
    page_of,
)
from config.pagination import page_links, page_params, page_response
from rules.families import Family
from scoring import figures, ratings, selectors, standings, table_links
from scoring.club_settings import preset_create, standings_order_set
from scoring.deals import deal_create_with_result, submission_create
from scoring.filters import (
    ClubDealFilterSet,
    ClubSubmissionFilterSet,
    DealFilterSet,
    GameFilterSet,
    SessionFilterSet,
    SubmissionFilterSet,
)
from scoring.formats import FORMAT_ORDER, format_tagged, payload_field_names
from scoring.formats.reads import rejected_new_deal
from scoring.games import game_create, game_finish, seat_add, seat_remove, table_create
from scoring.models import Game, Session, Submission, TableLink
from scoring.nights import session_close, session_create, session_reopen, transfer_mark_paid
from scoring.pool_moves import pool_rejoin, pool_split
from scoring.serializers import (
    DealCreateInput,
    DealOutput,
    GameCreateInput,
    GameEndInput,
    GameOutput,
    GameStateOutput,
    MetricOrderInput,
    MetricOrderOutput,
    PlayerHistoryOutput,
    PlayerRatingsOutput,
    PresetCreateInput,
    PresetOutput,
    RatedGamesOutput,
    RatingTableOutput,
    RejoinInput,
    RejoinOutput,
    ScoreboardOutput,
    SeasonOutput,
    SeatCreateInput,
    SeatOutput,
    SessionCreateInput,
    SessionDetailOutput,
    SessionOutput,
    SettlementOutput,
    SplitInput,
    SplitOfferOutput,
    SplitOutput,
    StandingsOutput,
    SubmissionAccepted,
    SubmissionInput,
    SubmissionOutput,
    TableAtLinkOutput,
    TableCreateInput,
    TableDisputeInput,
    TableEntryInput,
    TableEntryOutput,
    TableLinkCreateInput,
    TableLinkOutput,
    TableOutput,
    TableSeatInput,
    TransferPaidInput,
    submission_url,
)
from scoring.submissions import submission_confirm
from scoring.undo import deal_delete, deal_void, game_delete, session_delete


def _player(club: Any, player_id: int, field: str) -> Player:
    player = club.players.filter(pk=player_id).first()
    if player is None:
        raise NotFoundError(
            f"{field}: no player #{player_id} on this club's roster", details={field: player_id}
        )
    return player


def _payload(data: dict[str, Any]) -> dict[str, Any] | None:
    """The submission as entered, in plain JSON types (``None`` when no result was given)."""
    payload: dict[str, Any] = {}
    for name in payload_field_names():
        if name in data:
            value = data[name]
            if isinstance(value, list):
                value = [dict(item) if isinstance(item, Mapping) else item for item in value]
            payload[name] = value
    if not payload:
        return None
    if data.get("wild"):
        payload["wild"] = data["wild"]
    return payload


def _source(request: Request) -> str:
    return Submission.Source.API if request.auth is not None else Submission.Source.WEB


def _accepted(submission: Submission, club_slug: str) -> Response:
    url = submission_url(submission, club_slug)
    body = {
        "id": submission.pk,
        "deal": submission.deal_id,
        "version": submission.version,
        "status": submission.status,
        "url": url,
    }
    return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": url})


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


class GameListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="games_create", request=GameCreateInput, responses={201: GameOutput}
    )
    def post(self, request: Request, club_slug: str, table_id: int) -> Response:
        data = input_valid(GameCreateInput, request.data)
        table = selectors.table_get(club=self.club, table_id=table_id)
        preset = selectors.preset_get(club=self.club, preset_id=data["preset"])
        players = [_player(self.club, pk, "players") for pk in data["players"]]
        game = game_create(
            table=table,
            actor=request.user,
            preset=preset,
            players=players,
            point_value_minor=data.get("point_value_minor"),
            entry_fee_minor=data.get("entry_fee_minor"),
        )
        game = selectors.game_get(club=self.club, game_id=game.pk)
        return Response(GameOutput(game).data, status=status.HTTP_201_CREATED)


class ClubGameListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="games_list",
        filterset=GameFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(GameOutput),
        description="The club's games, in the order they were set up.",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        games = filtered(GameFilterSet, request.query_params, selectors.game_list(club=self.club))
        return page_response(request, games, GameOutput)


class GameDetailApi(ClubScopedAPIView):
    @api_operation(operation_id="games_retrieve", responses=GameOutput)
    def get(self, request: Request, club_slug: str, game_id: int) -> Response:
        return Response(GameOutput(selectors.game_get(club=self.club, game_id=game_id)).data)

    @api_operation(
        operation_id="games_destroy",
        responses={204: None},
        description="Delete a game set up by mistake (409 `not_empty` once it has a deal or a "
        "fee in the ledger).",
    )
    def delete(self, request: Request, club_slug: str, game_id: int) -> Response:
        game = selectors.game_get(club=self.club, game_id=game_id)
        game_delete(game=game, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameStateApi(ClubScopedAPIView):
    @api_operation(
        operation_id="games_state",
        responses=GameStateOutput,
        description="The game as it stands, derived from the ledger. Points: each seat's points "
        "and money. Pool: scores, who is eliminated, rejoins, drops remaining, entries, prize "
        "pool, the split offers now open, the winner. Deals: chips, deals counted, whether a "
        "tie-breaker deal is needed, the winner. Rummikub: totals, games counted, the match "
        "limits, the leaders, and for International the settlement at the game's rate.",
    )
    def get(self, request: Request, club_slug: str, game_id: int) -> Response:
        game = selectors.game_get(club=self.club, game_id=game_id, with_seats=False)
        return Response(selectors.game_state(game=game).as_dict())


class GameFinishApi(ClubScopedAPIView):
    @api_operation(
        operation_id="games_finish",
        request=GameEndInput,
        responses=GameOutput,
        description="End a game by hand, a way its format offers now: close a points table, "
        "finish a Rummikub match (International settles pairwise), or abandon a pool or deals "
        "game (`end: abandoned`: its pot goes back to who paid it).",
    )
    def post(self, request: Request, club_slug: str, game_id: int) -> Response:
        data = input_valid(GameEndInput, request.data or {})
        game = selectors.game_get(club=self.club, game_id=game_id, with_seats=False)
        game_finish(game=game, actor=request.user, end=data["end"])
        return Response(GameOutput(selectors.game_get(club=self.club, game_id=game_id)).data)


class RejoinApi(ClubScopedAPIView):
    write_scope = app_scopes.SCORE

    @api_operation(operation_id="pool_rejoin", request=RejoinInput, responses={201: RejoinOutput})
    def post(self, request: Request, club_slug: str, game_id: int) -> Response:
        data = input_valid(RejoinInput, request.data)
        game = selectors.game_get(club=self.club, game_id=game_id, with_seats=False)
        player = _player(self.club, data["player"], "player")
        score = pool_rejoin(game=game, actor=request.user, player=player)
        return Response({"player": player.pk, "score": score}, status=status.HTTP_201_CREATED)


class SplitApi(ClubScopedAPIView):
    write_scope = app_scopes.SCORE

    @api_operation(
        operation_id="pool_split_offer",
        responses=SplitOfferOutput,
        description="The splits offered now, and what each would pay (minor units).",
    )
    def get(self, request: Request, club_slug: str, game_id: int) -> Response:
        game = selectors.game_get(club=self.club, game_id=game_id)
        return Response(selectors.pool_split_offer(game=game))

    @api_operation(
        operation_id="pool_split_accept",
        request=SplitInput,
        responses=SplitOutput,
        description="Record a split every remaining player agrees to, and pay it out.",
    )
    def post(self, request: Request, club_slug: str, game_id: int) -> Response:
        data = input_valid(SplitInput, request.data)
        game = selectors.game_get(club=self.club, game_id=game_id, with_seats=False)
        agreed = [_player(self.club, pk, "agreed") for pk in data["agreed"]]
        shares = pool_split(game=game, actor=request.user, kind=data["kind"], agreed=agreed)
        return Response(
            {"kind": data["kind"], "shares_minor": {str(k): v for k, v in shares.items()}}
        )


class SeatListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="seats_create", request=SeatCreateInput, responses={201: SeatOutput}
    )
    def post(self, request: Request, club_slug: str, game_id: int) -> Response:
        data = input_valid(SeatCreateInput, request.data)
        game = selectors.game_get(club=self.club, game_id=game_id)
        seat = seat_add(
            game=game, actor=request.user, player=_player(self.club, data["player"], "player")
        )
        return Response(SeatOutput(seat).data, status=status.HTTP_201_CREATED)


class SeatDetailApi(ClubScopedAPIView):
    @api_operation(
        operation_id="seats_destroy",
        responses={204: None},
        description="A player leaves a points table between deals: they play no later deal and "
        "keep what they won or lost.",
    )
    def delete(self, request: Request, club_slug: str, game_id: int, player_id: int) -> Response:
        game = selectors.game_get(club=self.club, game_id=game_id)
        seat_remove(game=game, actor=request.user, player=_player(self.club, player_id, "player"))
        return Response(status=status.HTTP_204_NO_CONTENT)


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
            dealer=_player(self.club, dealer, "dealer") if dealer else None,
            number=data.get("number"),
            is_tiebreaker=data["tiebreaker"],
            source=_source(request),
            payload=_payload(data),
        )
        if submission is not None:
            return _accepted(submission, club_slug)
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
        payload = _payload(data)
        assert payload is not None  # the serializer requires a result
        submission = submission_create(
            deal=deal, actor=request.user, source=_source(request), payload=payload
        )
        return _accepted(submission, club_slug)


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
    transfers = figures.session_settlement(session=session)
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
        history = figures.player_history(player=player, limit=limit, offset=offset)
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


FAMILY_PARAMETER = OpenApiParameter(
    "game_family", str, enum=[f.value for f in Family], default=Family.INDIAN.value,
    description="`indian` (points, pool and deals rummy) or `rummikub`.",
)  # fmt: skip


def _family(request: Request) -> str:
    return request.query_params.get("game_family") or Family.INDIAN.value


class RatingTableApi(ClubScopedAPIView):
    @api_operation(
        operation_id="ratings_list",
        parameters=[
            FAMILY_PARAMETER,
            OpenApiParameter(
                "provisional",
                bool,
                default=False,
                description="Include players with fewer than 5 rated games.",
            ),
            int_query_parameter(
                "as_of_session", description="The table as it stood after this session."
            ),
            *PAGE_PARAMETERS,
        ],
        responses=RatingTableOutput,
        description="The club's skill ratings in a game family (OpenSkill, Weng-Lin "
        "Plackett-Luce), ranked by ordinal (mu - 3 sigma); equal ordinals share a rank.",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        family = _family(request)
        as_of = _int_param(request, "as_of_session")
        try:
            provisional = query_bool(
                request.query_params.get("provisional"), name="provisional", default=False
            )
        except ValueError as exc:
            raise InvalidInput(str(exc), details={"provisional": str(exc)}) from None
        lines = ratings.rating_table(
            club=self.club, family=family, include_provisional=provisional, as_of_session=as_of
        )
        limit, offset = page_params(request)
        body = {
            "game_family": family,
            "as_of_session": as_of,
            **page_links(request, count=len(lines), limit=limit, offset=offset),
            "results": lines[offset : offset + limit],
        }
        return Response(RatingTableOutput(body).data)


class RatedGameListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="ratings_games",
        parameters=[
            FAMILY_PARAMETER,
            *PAGE_PARAMETERS,
        ],
        responses=RatedGamesOutput,
        description="The family's rated games in the order applied, each with its finishing "
        "order: the model's exact input, so anyone can replay the ratings.",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        family = _family(request)
        games = ratings.rated_games(club=self.club, family=family)
        limit, offset = page_params(request)
        body = {
            "game_family": family,
            **page_links(request, count=games.count(), limit=limit, offset=offset),
            "results": list(games[offset : offset + limit]),
        }
        return Response(RatedGamesOutput(body).data)


class PlayerRatingsApi(ClubScopedAPIView):
    @api_operation(
        operation_id="players_ratings",
        responses=PlayerRatingsOutput,
        description="A player's rating, game by game: the rank, mu and sigma before and after.",
    )
    def get(self, request: Request, club_slug: str, player_id: int) -> Response:
        player = club_selectors.player_get(club=self.club, player_id=player_id)
        changes = list(ratings.player_rating_history(player=player))
        body = {"player": player.pk, "name": player.name, "changes": changes}
        return Response(PlayerRatingsOutput(body).data)


class SeasonListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="seasons_list", parameters=PAGE_PARAMETERS, responses=page_of(SeasonOutput)
    )
    def get(self, request: Request, club_slug: str) -> Response:
        return page_response(request, selectors.season_list(club=self.club), SeasonOutput)


class MetricListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="standings_metrics",
        responses=MetricOrderOutput,
        description="The registry of tie-break metrics (stable ids) and the club's order.",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        order = [metric.id for metric in standings.metric_order(self.club)]
        return Response(
            MetricOrderOutput({"order": order, "metrics": list(standings.METRICS.values())}).data
        )

    @api_operation(
        operation_id="standings_metrics_set",
        request=MetricOrderInput,
        responses=MetricOrderOutput,
        description="Set the order of metrics that ranks the club's standings.",
    )
    def put(self, request: Request, club_slug: str) -> Response:
        data = input_valid(MetricOrderInput, request.data)
        club = standings_order_set(club=self.club, actor=request.user, order=data["order"])
        order = [metric.id for metric in standings.metric_order(club)]
        return Response(
            MetricOrderOutput({"order": order, "metrics": list(standings.METRICS.values())}).data
        )


METRIC_IDS_SCHEMA = {
    "type": "array",
    "items": {"type": "string", "enum": list(standings.METRICS)},
    "uniqueItems": True,
}


class StandingsApi(ClubScopedAPIView):
    @api_operation(
        operation_id="standings_retrieve",
        parameters=[
            OpenApiParameter("scope", str, enum=["season", "session", "game"], default="season"),
            int_query_parameter("id", description="The season, session or game (default: "
                             "the current season)."),
            OpenApiParameter("metrics", METRIC_IDS_SCHEMA, style="form", explode=False,
                             description="Comma-separated metric ids to rank by (default: the "
                             "club's order)."),
            OpenApiParameter("game_format", str, enum=FORMAT_ORDER,
                             description="Only the games of this format (seasons only): a "
                             "rummy point and a Rummikub score are not the same unit."),
            int_query_parameter("as_of_deal", description="Reproduce the table right after "
                             "this deal first counted."),
            int_query_parameter("as_of_session", description="Reproduce the table as it stood "
                             "at the end of this session."),
            *PAGE_PARAMETERS,
        ],
        responses=StandingsOutput,
    )  # fmt: skip
    def get(self, request: Request, club_slug: str) -> Response:
        table = standings_for_request(self.club, request)
        limit, offset = page_params(request)
        body = StandingsOutput(table).data
        body.update(page_links(request, count=table.count, limit=limit, offset=offset))
        return Response(body)


def _int_param(request: Request, name: str, default: int | None = None) -> int | None:
    """An id given as a query parameter (1 to 2^63-1), or ``default`` when absent."""
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return default
    try:
        return query_int(raw, name=name, low=1, high=ID_MAX, default=0)
    except ValueError as exc:
        raise InvalidInput(str(exc), details={name: str(exc)}) from None


def standings_for_request(club: Any, request: Request) -> standings.StandingsTable:
    """Read the standings query parameters (shared by the API and the public page)."""
    scope, scope_id = selectors.standings_scope(
        club=club,
        scope=request.query_params.get("scope") or "season",
        scope_id=_int_param(request, "id"),
    )
    game_format = selectors.standings_format(
        scope=scope, game_format=request.query_params.get("game_format")
    )
    raw_metrics = request.query_params.get("metrics")
    metrics = [m for m in raw_metrics.split(",") if m] if raw_metrics else None
    as_of_deal = _int_param(request, "as_of_deal")
    as_of_session = _int_param(request, "as_of_session")
    limit, offset = page_params(request)
    if as_of_deal is not None or as_of_session is not None:
        entry = selectors.ledger_entry_as_of(
            club=club, deal_id=as_of_deal, session_id=as_of_session
        )
        return standings.standings_table_as_of(
            club=club, scope=scope, scope_id=scope_id, as_of_entry=entry, metrics=metrics,
            game_format=game_format, limit=limit, offset=offset,
        )  # fmt: skip
    return standings.standings_table(
        club=club, scope=scope, scope_id=scope_id, metrics=metrics, limit=limit, offset=offset,
        game_format=game_format,
    )  # fmt: skip


# --- table links: made and revoked by the club's scorers; used by whoever holds one ------------


def link_body(request: Request, link: TableLink) -> dict[str, Any]:
    token = table_links.link_token(link)
    return {
        "id": link.pk, "table": link.table_id, "mode": link.mode, "token": token,
        "url": request.build_absolute_uri(table_links.link_path(link)),
        "api_url": request.build_absolute_uri(reverse("scoring:table-api", args=[token])),
        "created_at": link.created_at, "revoked_at": link.revoked_at,
    }  # fmt: skip


class TableLinkApi(ClubScopedAPIView):
    write_role = Role.SCORER
    read_role = Role.SCORER

    @api_operation(
        operation_id="table_links_list",
        parameters=PAGE_PARAMETERS,
        responses=page_of(TableLinkOutput),
        description="The table's live link, if it has one (a table has one at a time).",
    )
    def get(self, request: Request, club_slug: str, table_id: int) -> Response:
        table = table_links.table_get(club=self.club, table_id=table_id)
        live = table_links.table_links_live(tables=[table.pk]).get(table.pk)
        links = [link_body(request, live)] if live is not None else []
        return page_response(request, links, TableLinkOutput)

    @api_operation(
        operation_id="table_links_create",
        request=TableLinkCreateInput,
        responses={201: TableLinkOutput},
        description="The table's link (its live one when it has one): whoever holds its token "
        "enters and confirms that table's deals, and nothing else. Refused (409 "
        "table_entry_off) when the club has table entry off and no mode is given.",
    )
    def post(self, request: Request, club_slug: str, table_id: int) -> Response:
        data = input_valid(TableLinkCreateInput, request.data)
        table = table_links.table_get(club=self.club, table_id=table_id)
        mode = data.get("mode") or table_links.night_table_entry(club=self.club)
        (link,) = table_links.table_links_ensure(tables=[table], actor=request.user, mode=mode)
        return Response(link_body(request, link), status=status.HTTP_201_CREATED)


class TableLinkRevokeApi(ClubScopedAPIView):
    write_role = Role.SCORER

    @api_operation(
        operation_id="table_links_revoke",
        request=None,
        responses=TableLinkOutput,
        description="The link stops working at once: its token is then unknown (404).",
    )
    def post(self, request: Request, club_slug: str, link_id: int) -> Response:
        link = table_links.table_link_get(club=self.club, link_id=link_id)
        link = table_links.table_link_revoke(link=link, actor=request.user)
        return Response(link_body(request, link))


class TableLinkScopedApi(APIView):
    """Reached with a table link's token in the path and nothing else: the token is the only
    credential (no login, no API token), and grants that table only. Unknown or revoked: 404;
    the table's game over or its night closed: 410; too many requests: 429."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    link: TableLink

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.link = table_links.table_link_resolve(
            token=kwargs["token"], client_address=request.META.get("REMOTE_ADDR", "")
        )


def _entry_body(submission: Submission) -> dict[str, Any]:
    return {
        "id": submission.pk, "deal": submission.deal_id, "number": submission.deal.number,
        "version": submission.version, "status": submission.status,
        "entered_seat": submission.entered_seat, "confirmed_seat": submission.confirmed_seat,
        "dispute": submission.dispute,
    }  # fmt: skip


class TableApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_retrieve",
        responses=TableAtLinkOutput,
        description="The table as its players see it: its seats, the entry waiting for a "
        "confirmation (with the points the rules computed) and the next deal's number.",
    )
    def get(self, request: Request, token: str) -> Response:
        at = table_links.table_view(link=self.link)
        waiting = at.waiting
        latest = selectors.deal_list(game=at.game).last()
        again = rejected_new_deal(at.game)
        next_deal = again.number if again else (latest.number + 1 if latest else 1)
        return Response({
            "table": self.link.table.name, "session": self.link.table.session.name,
            "game": at.game.pk, "format": at.game.format, "mode": self.link.mode,
            "seats": [{"seat": s.position, "player": s.player_id, "name": s.player.name}
                      for s in at.seats],
            "next_deal": next_deal, "can_enter": at.can_enter,
            "waiting": None if waiting is None else {
                "id": waiting.pk, "deal": waiting.deal_id, "number": waiting.deal.number,
                "entered_seat": waiting.entered_seat, "dispute": waiting.dispute,
                "disputed_seat": waiting.disputed_seat,
                "result": format_tagged(at.game.format, waiting.result),
            },
        })  # fmt: skip


class TableDealApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_deals_create",
        request=TableEntryInput,
        responses={202: TableEntryOutput},
        description="Enter the table's next deal as the seat given: validated in the "
        "background as any entry; with the link's mode 'confirm' it then waits for another "
        "seat. Send an Idempotency-Key: a retry gets the first answer.",
    )
    def post(self, request: Request, token: str) -> Response:
        data = input_valid(TableEntryInput, request.data)
        club = self.link.table.session.club
        dealer = (
            club_selectors.player_get(club=club, player_id=data["dealer"])
            if data.get("dealer")
            else None
        )
        payload = _payload(data)
        assert payload is not None
        _deal, submission = table_links.table_deal_enter(
            link=self.link, seat=data["seat"], wild=data.get("wild", ""), dealer=dealer,
            payload=payload,
        )  # fmt: skip
        return Response(_entry_body(submission), status=status.HTTP_202_ACCEPTED)


class TableEntryApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_entries_retrieve",
        responses=TableEntryOutput,
        description="An entry of this table's game (its status once validated).",
    )
    def get(self, request: Request, token: str, submission_id: int) -> Response:
        submission = table_links.table_entry_get(link=self.link, submission_id=submission_id)
        return Response(_entry_body(submission))


class TableConfirmApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_entries_confirm",
        request=TableSeatInput,
        responses=TableEntryOutput,
        description="Another seat accepts the entry waiting for confirmation: it counts from "
        "then on. The seat that entered it is refused (403 confirmer_is_submitter), as is a "
        "disputed entry (403 entry_disputed: the director decides it).",
    )
    def post(self, request: Request, token: str, submission_id: int) -> Response:
        data = input_valid(TableSeatInput, request.data)
        submission = table_links.table_entry_confirm(
            link=self.link, submission_id=submission_id, seat=data["seat"]
        )
        return Response(_entry_body(submission))


class TableDisputeApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_entries_dispute",
        request=TableDisputeInput,
        responses=TableEntryOutput,
        description="Another seat says the entry waiting for confirmation is wrong, with the "
        "reason: it stays uncounted until a director confirms, corrects or rejects it.",
    )
    def post(self, request: Request, token: str, submission_id: int) -> Response:
        data = input_valid(TableDisputeInput, request.data)
        submission = table_links.table_entry_dispute(
            link=self.link, submission_id=submission_id, seat=data["seat"],
            reason=data["reason"],
        )  # fmt: skip
        return Response(_entry_body(submission))
