"""The event exchange's API: on the federation's instance a member club's owner takes an
export key and its organisers import a signed export; on the club's own instance an organiser
downloads one. Thin views over ``federation.exchange_services``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api_kit.permissions import ClubScopedAPIView
from config.errors import InvalidInput
from config.fields import ID_MAX, query_int
from config.openapi import api_operation
from federation import exchange_services, refusals
from federation.api import ClubFederationApi, _event_out
from federation.serializers import (
    FederationEventExportSchema,
    FederationEventOutput,
    FederationExportKeyOutput,
)
from scoring.models import Session
from tournaments.models import Tournament


class ExportKeyApi(ClubFederationApi):
    write_role = "owner"

    @api_operation(
        operation_id="federation_export_key",
        request=None,
        responses={201: FederationExportKeyOutput},
        description="A new key to sign the club's event exports (the one before stops working): "
        "install it on the club's own instance. Its private half is shown this once.",
    )
    def post(self, request: Request, club_slug: str, federation_slug: str) -> Response:
        key = exchange_services.export_key_issue(
            actor=request.user, federation=self.federation, club=self.club
        )
        return Response(FederationExportKeyOutput(key).data, status=status.HTTP_201_CREATED)


class ImportApi(ClubFederationApi):
    @api_operation(
        operation_id="federation_event_import",
        request=FederationEventExportSchema,
        responses=FederationEventOutput,
        description="Import the signed export of an event held on the club's own instance: "
        "checked (version, signature, sanction, preset, sums to zero) and submitted to the "
        "officer.",
    )
    def post(
        self, request: Request, club_slug: str, federation_slug: str, event_id: int
    ) -> Response:
        event = self.federation.events.filter(club=self.club, pk=event_id).first()
        if event is None:
            raise refusals.no_event_of(event_id, self.club)
        # The document is read as sent: its signature covers every field, so nothing is
        # coerced before it is checked.
        event = exchange_services.event_import(
            actor=request.user, event=event, document=request.data
        )
        return Response(_event_out(event))


QUERY = [
    OpenApiParameter("federation", str, required=True, description="The federation's slug."),
    OpenApiParameter("event", int, required=True, description="The sanctioned event's id there."),
    OpenApiParameter("tier", str, required=True, description="The tier it was sanctioned at."),
    OpenApiParameter("session_id", int, description="The night (or give tournament_id)."),
    OpenApiParameter("tournament_id", int, description="The tournament."),
]


class ExportApi(ClubScopedAPIView):
    read_role = "organiser"

    @api_operation(
        operation_id="federation_event_export",
        parameters=QUERY,
        responses=FederationEventExportSchema,
        description="The signed export of a finished night or tournament, for the federation "
        "whose key is installed here.",
    )
    def get(self, request: Request, club_slug: str) -> Response:
        data = _query(request.query_params)
        found: dict[str, Any] = {}
        if data["session_id"]:
            found["session"] = Session.objects.filter(club=self.club, pk=data["session_id"]).first()
            if found["session"] is None:
                raise refusals.no_night(data["session_id"], self.club)
        if data["tournament_id"]:
            found["tournament"] = Tournament.objects.filter(
                club=self.club, pk=data["tournament_id"]
            ).first()
            if found["tournament"] is None:
                raise refusals.no_tournament(data["tournament_id"], self.club)
        document = exchange_services.export_make(
            actor=request.user,
            club=self.club,
            federation=data["federation"],
            event=data["event"],
            tier=data["tier"],
            **found,
        )
        return Response(document)


def _query(params: Any) -> dict[str, Any]:
    """The export's query, each parameter checked: a 400 naming the one that is wrong."""
    out: dict[str, Any] = {}
    try:
        for name in ("event", "session_id", "tournament_id"):
            out[name] = query_int(params.get(name), name=name, low=1, high=ID_MAX, default=0)
    except ValueError as error:
        raise InvalidInput(str(error), code="bad_field") from None
    for name in ("federation", "tier"):
        out[name] = params.get(name, "").strip()
    for name in ("federation", "event", "tier"):
        if not out[name]:
            raise InvalidInput(f"{name}: " + _("give it"), code="bad_field")
    return out
