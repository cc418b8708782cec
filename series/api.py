"""The series' API: thin views over ``series.services`` and ``series.selectors``."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api_kit.permissions import ClubScopedAPIView
from config.api_input import input_valid
from config.openapi import api_operation
from series import selectors, services
from series.models import SeriesEvent
from series.serializers import (
    SeriesEventInput,
    SeriesEventOutput,
    SeriesEventsOutput,
    SeriesInput,
    SeriesListOutput,
    SeriesOutput,
    SeriesTableOutput,
)


def event_rows(events: list[SeriesEvent]) -> list[dict[str, Any]]:
    return [
        {
            "id": event.pk,
            "session_id": event.session_id,
            "tournament_id": event.tournament_id,
            "name": selectors.event_label(event),
            "tier": event.tier,
            "multiplier": event.series.tiers.get(event.tier, "1"),
        }
        for event in events
    ]


class SeriesListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="series_list",
        responses=SeriesListOutput,
        description="The club's season series, newest first.",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        found = list(selectors.series_list(club=self.club))
        return Response(SeriesListOutput({"results": found}).data)

    @api_operation(
        operation_id="series_create",
        request=SeriesInput,
        responses={201: SeriesOutput},
        description="A new series: its points by place (or by share of the field), tiers, "
        "best N, the minimum events to be ranked and the awards the club names.",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(SeriesInput, request.data)
        series = services.series_create(club=self.club, actor=request.user, **data)
        return Response(SeriesOutput(series).data, status=status.HTTP_201_CREATED)


class SeriesDetailApi(ClubScopedAPIView):
    @api_operation(
        operation_id="series_retrieve", responses=SeriesOutput, description="A series' settings."
    )
    def get(self, request: Request, club_slug: str, series_id: int) -> Response:
        series = selectors.series_get(club=self.club, series_id=series_id)
        return Response(SeriesOutput(series).data)

    @api_operation(
        operation_id="series_update",
        request=SeriesInput,
        responses=SeriesOutput,
        description="Change a series' settings (only the fields given); every event's points "
        "follow.",
    )
    def patch(self, request: Request, club_slug: str, series_id: int) -> Response:
        series = selectors.series_get(club=self.club, series_id=series_id)
        data = input_valid(SeriesInput, request.data, partial=True)
        series = services.series_update(series=series, actor=request.user, **data)
        return Response(SeriesOutput(series).data)


class SeriesEventListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="series_events_list",
        responses=SeriesEventsOutput,
        description="The series' events (nights and tournaments) and their tiers.",
    )
    def get(self, request: Request, club_slug: str, series_id: int) -> Response:
        series = selectors.series_get(club=self.club, series_id=series_id)
        rows = event_rows(selectors.series_events(series=series))
        return Response(SeriesEventsOutput({"results": rows}).data)

    @api_operation(
        operation_id="series_events_create",
        request=SeriesEventInput,
        responses={201: SeriesEventOutput},
        description="Add a night (session) or a tournament of the club to the series, of one "
        "of its tiers.",
    )
    def post(self, request: Request, club_slug: str, series_id: int) -> Response:
        series = selectors.series_get(club=self.club, series_id=series_id)
        data = input_valid(SeriesEventInput, request.data)
        event = services.series_event_add(
            series=series,
            actor=request.user,
            tier=data["tier"],
            session_id=data.get("session"),
            tournament_id=data.get("tournament"),
        )
        return Response(SeriesEventOutput(event_rows([event])[0]).data, status=201)


class SeriesEventDetailApi(ClubScopedAPIView):
    @api_operation(
        operation_id="series_events_destroy",
        responses={204: None},
        description="Take an event out of the series.",
    )
    def delete(self, request: Request, club_slug: str, series_id: int, event_id: int) -> Response:
        series = selectors.series_get(club=self.club, series_id=series_id)
        services.series_event_remove(series=series, actor=request.user, event_id=event_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


def table_body(table: selectors.SeriesTable) -> dict[str, Any]:
    return {
        "series": table.series,
        "events": event_rows(table.events),
        "lines": table.rows(),
        "awards": table.awards,
    }


class SeriesTableApi(ClubScopedAPIView):
    @api_operation(
        operation_id="series_table_retrieve",
        responses=SeriesTableOutput,
        description="The series table: each player's best N results added up (ranked once "
        "they played the minimum events; equal totals rank by more wins, then the best "
        "counted result, then share the rank), each result with its place and points, and the "
        "awards.",
    )
    def get(self, request: Request, club_slug: str, series_id: int) -> Response:
        series = selectors.series_get(club=self.club, series_id=series_id)
        table = selectors.series_table(series=series)
        return Response(SeriesTableOutput(table_body(table)).data)
