"""The standings' and ratings' API: thin views over the tables, the ratings and the club's order
of metrics (their routes keep the names they had in scoring: ``scoring:standings``, ...)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.api_kit.permissions import ClubScopedAPIView
from config.api_input import input_valid
from config.errors import InvalidInput
from config.fields import ID_MAX, query_bool, query_int
from config.openapi import PAGE_PARAMETERS, api_operation, int_query_parameter
from config.pagination import page_links, page_params, page_response
from rules.families import Family
from scoring.formats import FORMAT_ORDER
from standings import ratings, recompute, selectors, tables
from standings.metrics import METRICS, club_metrics, metric_order
from standings.serializers import (
    MetricOrderInput,
    MetricOrderOutput,
    PlayerRatingsOutput,
    RatedGamesOutput,
    RatingChangeOutput,
    RatingChangePage,
    RatingTableOutput,
    StandingsOutput,
)
from standings.services import standings_order_set

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
        deprecated=True,
        description="A player's rating, game by game: the rank, mu and sigma before and after, "
        "all in one list. Deprecated (sunset 2027-06-30): read "
        "`.../players/<id>/ratings/changes/`, the same changes in the paging shape.",
    )
    def get(self, request: Request, club_slug: str, player_id: int) -> Response:
        player = club_selectors.player_get(club=self.club, player_id=player_id)
        changes = list(ratings.player_rating_history(player=player))
        body = {"player": player.pk, "name": player.name, "changes": changes}
        return Response(PlayerRatingsOutput(body).data)


class PlayerRatingChangesApi(ClubScopedAPIView):
    @api_operation(
        operation_id="players_ratings_changes",
        parameters=PAGE_PARAMETERS,
        responses=RatingChangePage,
        description="A player's rating, game by game (the rank, mu and sigma before and after), "
        "a page at a time: by family, then in the order the games finished.",
    )
    def get(self, request: Request, club_slug: str, player_id: int) -> Response:
        player = club_selectors.player_get(club=self.club, player_id=player_id)
        changes = ratings.player_rating_changes(player=player)
        return page_response(
            request, changes, RatingChangeOutput, completed=ratings.rating_change_rows,
            player=player.pk, name=player.name,
        )  # fmt: skip


class MetricListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="standings_metrics",
        responses=MetricOrderOutput,
        description="The registry of tie-break metrics (stable ids) and the club's order.",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        order = [metric.id for metric in metric_order(self.club)]
        metrics = club_metrics(self.club)
        return Response(MetricOrderOutput({"order": order, "metrics": metrics}).data)

    @api_operation(
        operation_id="standings_metrics_set",
        request=MetricOrderInput,
        responses=MetricOrderOutput,
        description="Set the order of metrics that ranks the club's standings.",
    )
    def put(self, request: Request, club_slug: str) -> Response:
        data = input_valid(MetricOrderInput, request.data)
        club = standings_order_set(club=self.club, actor=request.user, order=data["order"])
        order = [metric.id for metric in metric_order(club)]
        metrics = club_metrics(club)
        return Response(MetricOrderOutput({"order": order, "metrics": metrics}).data)


METRIC_IDS_SCHEMA = {
    "type": "array",
    "items": {"type": "string", "enum": list(METRICS)},
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


def standings_for_request(club: Any, request: Request) -> tables.StandingsTable:
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
        return recompute.standings_table_as_of(
            club=club, scope=scope, scope_id=scope_id, as_of_entry=entry, metrics=metrics,
            game_format=game_format, limit=limit, offset=offset,
        )  # fmt: skip
    return tables.standings_table(
        club=club, scope=scope, scope_id=scope_id, metrics=metrics, limit=limit, offset=offset,
        game_format=game_format,
    )  # fmt: skip
