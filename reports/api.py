"""The reports in the API: a night's and a tournament's PDF, their share text and standings image,
behind the same checks as every club route (any member's token or app with ``read``), the
figures the pages show."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api_kit.permissions import ClubScopedAPIView
from clubs.models import Role
from config.openapi import api_operation
from reports.views import (
    PDF,
    night_image_of,
    night_pdf,
    night_share_of,
    origin_of,
    public_url_of,
    score_sheet_pdf,
    tournament_image_of,
    tournament_pdf,
    tournament_share_of,
)
from scoring import selectors as scoring_selectors
from tournaments import selectors as tournament_selectors


class _FileApi(ClubScopedAPIView):
    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        # A client asks for a PDF or a PNG: a refusal is still the API's JSON error.
        return JSONRenderer(), JSONRenderer.media_type


def _pdf_answer(what: str) -> dict[tuple[int, str], OpenApiResponse]:
    """A PDF, declared as well as plain bytes: a client generator that knows no PDF (such as
    openapi-python-client) then gives the app the file's bytes instead of no answer."""
    answer = OpenApiResponse(response=OpenApiTypes.BINARY, description=what)
    return {(200, PDF): answer, (200, "application/octet-stream"): answer}


PNG = "image/png"


def _png_answer() -> dict[tuple[int, str], OpenApiResponse]:
    answer = OpenApiResponse(
        response=OpenApiTypes.BINARY,
        description="The standings card, 960 pixels wide (`inline`); its PNG `Description` "
        "text is the share text, for those who cannot see the image.",
    )
    return {(200, PNG): answer, (200, "application/octet-stream"): answer}


class ShareOutput(serializers.Serializer[dict]):
    text = serializers.CharField(
        help_text="The result as a short text for a group chat (lines ending in a newline), "
        "in the club's language: the same figures as the page."
    )


class TournamentShareOutput(ShareOutput):
    # Text, not a URL field: an empty one would be valid both as a URL and as the empty string.
    public_url = serializers.CharField(
        allow_blank=True,
        help_text="The tournament's public page, at the text's end; empty where the club "
        "does not publish its standings.",
    )


_NIGHT_SHARE = OpenApiExample(
    "A closed night",
    value={"text": "Demo club · Friday night\n24 deals, final\n\n1. Asha  +1,240.00\n"},
    response_only=True,
)
_TOURNAMENT_SHARE = OpenApiExample(
    "A finished knock-out",
    value={
        "text": "Demo club · Friday cup\nFinished\n\n1. Asha  ₹3,150.00\n2. Farid  ₹1,350.00\n",
        "public_url": "",
    },
    response_only=True,
)


class SessionReportApi(_FileApi):
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


class TournamentReportApi(_FileApi):
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


class SessionShareApi(ClubScopedAPIView):
    @api_operation(
        operation_id="sessions_share",
        summary="A night's result as a short text for a group chat",
        description="The standings of the night (rank, name and each figure the scoreboard "
        "shows), the deals counted and whether the night is final.",
        responses=ShareOutput,
        examples=[_NIGHT_SHARE],
    )
    def get(self, request: Request, club_slug: str, session_id: int) -> Response:
        session = scoring_selectors.session_get(
            club=self.club, session_id=session_id, with_tables=False
        )
        return Response(ShareOutput({"text": night_share_of(self.club, session)}).data)


class SessionImageApi(_FileApi):
    @api_operation(
        operation_id="sessions_standings_image",
        summary="A night's standings as an image (PNG)",
        description="The top of the night's standings as a card for a group chat or a club's "
        "social page.",
        responses=_png_answer(),
    )
    def get(self, request: Request, club_slug: str, session_id: int) -> HttpResponse:
        session = scoring_selectors.session_get(
            club=self.club, session_id=session_id, with_tables=False
        )
        return night_image_of(self.club, session)


class TournamentShareApi(ClubScopedAPIView):
    @api_operation(
        operation_id="tournaments_share",
        summary="A tournament's result as a short text for a group chat",
        description="The places with their prizes (no money in a club that plays for points "
        "only); before the end, the rounds drawn and the field; the public page's address "
        "where the club publishes its standings.",
        responses=TournamentShareOutput,
        examples=[_TOURNAMENT_SHARE],
    )
    def get(self, request: Request, club_slug: str, tournament_id: int) -> Response:
        tournament = tournament_selectors.tournament_get(
            club=self.club, tournament_id=tournament_id
        )
        public_url = public_url_of(request, self.club, tournament)
        text = tournament_share_of(self.club, tournament, public_url=public_url)
        body = {"text": text, "public_url": public_url}
        return Response(TournamentShareOutput(body).data)


class TournamentImageApi(_FileApi):
    @api_operation(
        operation_id="tournaments_standings_image",
        summary="A tournament's places as an image (PNG)",
        description="The places (with prizes where the club plays for money) as a card for a "
        "group chat or a club's social page.",
        responses=_png_answer(),
    )
    def get(self, request: Request, club_slug: str, tournament_id: int) -> HttpResponse:
        tournament = tournament_selectors.tournament_get(
            club=self.club, tournament_id=tournament_id
        )
        return tournament_image_of(self.club, tournament)


class GameSheetApi(_FileApi):
    # The sheet prints the table's link (its QR code), which only scorers and up may read.
    read_role = Role.SCORER

    @api_operation(
        operation_id="games_score_sheet",
        summary="A game's printable score sheet as a PDF",
        description="The game's players in seat order, numbered rows for the deals (the games "
        "of a Rummikub match) to fill in by hand with a running total, the preset's outcomes "
        "and rules in the format's own words, and, while the game is open, the table's link "
        "as a QR code.",
        responses=_pdf_answer("The score sheet (`attachment`), one A4 page in landscape."),
    )
    def get(self, request: Request, club_slug: str, game_id: int) -> HttpResponse:
        game = scoring_selectors.game_get(club=self.club, game_id=game_id)
        return score_sheet_pdf(self.club, game, origin=origin_of(request))
