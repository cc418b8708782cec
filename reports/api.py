"""The reports in the API: a night's and a tournament's PDF, behind the same checks as every club
route (any member's token or app with ``read``), the figures the pages show."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from clubs.api_kit.permissions import ClubScopedAPIView
from config.openapi import api_operation
from reports.views import PDF, night_pdf, tournament_pdf
from scoring import selectors as scoring_selectors
from tournaments import selectors as tournament_selectors


class _PdfApi(ClubScopedAPIView):
    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        # A client asks for application/pdf: a refusal is still the API's JSON error.
        return JSONRenderer(), JSONRenderer.media_type


def _pdf_answer(what: str) -> dict[tuple[int, str], OpenApiResponse]:
    """A PDF, declared as well as plain bytes: a client generator that knows no PDF (such as
    openapi-python-client) then gives the app the file's bytes instead of no answer."""
    answer = OpenApiResponse(response=OpenApiTypes.BINARY, description=what)
    return {(200, PDF): answer, (200, "application/octet-stream"): answer}


class SessionReportApi(_PdfApi):
    @api_operation(
        operation_id="sessions_report",
        summary="A night's report as a PDF",
        description="The scoreboard, every deal of every game and the settle-up with its paid "
        "marks, as the night's page shows them (no money in a club that plays for points "
        "only).",
        responses=_pdf_answer("The report (`attachment`)."),
    )
    def get(self, request: Request, club_slug: str, session_id: int) -> HttpResponse:
        session = scoring_selectors.session_get(
            club=self.club, session_id=session_id, with_tables=False
        )
        return night_pdf(self.club, session)


class TournamentReportApi(_PdfApi):
    @api_operation(
        operation_id="tournaments_report",
        summary="A tournament's report as a PDF",
        description="The field, every round's tables and who went on from each, the places "
        "and the prizes (no money in a club that plays for points only).",
        responses=_pdf_answer("The report (`attachment`)."),
    )
    def get(self, request: Request, club_slug: str, tournament_id: int) -> HttpResponse:
        return tournament_pdf(
            self.club,
            tournament_selectors.tournament_get(club=self.club, tournament_id=tournament_id),
        )
