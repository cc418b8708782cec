"""The API of a night's games: created, read, ended, deleted; their state, seats, and a pool
game's rejoins and splits."""

from __future__ import annotations

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api_kit.permissions import ClubScopedAPIView
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
from scoring.api.common import club_player
from scoring.filters import (
    GameFilterSet,
)
from scoring.formats.pool.moves import pool_rejoin, pool_split, pool_split_offer
from scoring.games import game_create, game_finish, seat_add, seat_remove
from scoring.serializers import (
    GameCreateInput,
    GameEndInput,
    GameOutput,
    GameStateOutput,
    RejoinInput,
    RejoinOutput,
    SeatCreateInput,
    SeatOutput,
    SplitInput,
    SplitOfferOutput,
    SplitOutput,
)
from scoring.undo import game_delete


class GameListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="games_create", request=GameCreateInput, responses={201: GameOutput}
    )
    def post(self, request: Request, club_slug: str, table_id: int) -> Response:
        data = input_valid(GameCreateInput, request.data)
        table = selectors.table_get(club=self.club, table_id=table_id)
        preset = selectors.preset_get(club=self.club, preset_id=data["preset"])
        players = [club_player(self.club, pk, "players") for pk in data["players"]]
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
        player = club_player(self.club, data["player"], "player")
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
        return Response(pool_split_offer(game=game))

    @api_operation(
        operation_id="pool_split_accept",
        request=SplitInput,
        responses=SplitOutput,
        description="Record a split every remaining player agrees to, and pay it out.",
    )
    def post(self, request: Request, club_slug: str, game_id: int) -> Response:
        data = input_valid(SplitInput, request.data)
        game = selectors.game_get(club=self.club, game_id=game_id, with_seats=False)
        agreed = [club_player(self.club, pk, "agreed") for pk in data["agreed"]]
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
            game=game, actor=request.user, player=club_player(self.club, data["player"], "player")
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
        seat_remove(
            game=game, actor=request.user, player=club_player(self.club, player_id, "player")
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
