"""Reports and sharing on the pages: a night's and a tournament's PDF, their share text and
standings image. Each follows its page's access rule: a night's and the desk's for the club's
members (``club_for_page``), the public tournament page's for anyone where the club publishes
its pages (``public_of``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from clubs.models import Club
from clubs.page_kit.pages import GET, club_for_page, found
from reports.night import night_report_context
from reports.render import file_response, pdf_of, png_of
from reports.share import night_share_text, tournament_share_text
from reports.tournament import tournament_report_context
from scoring import selectors as scoring_selectors
from scoring.models import Session
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament
from tournaments.public_views import public_of

PDF = "application/pdf"


def _night(club: Club, session_id: int) -> Session:
    return found(  # type: ignore[no-any-return]
        scoring_selectors.session_get, club=club, session_id=session_id, with_tables=False
    )


def night_context(club: Club, session_id: int) -> dict[str, Any]:
    return night_report_context(club, _night(club, session_id))


def night_pdf(club: Club, session: Session) -> HttpResponse:
    body = pdf_of("reports/night.html", night_report_context(club, session), zone=club.timezone)
    return file_response(body, PDF, f"{club.slug}-night-{session.pk}.pdf")


def tournament_pdf(club: Club, tournament: Tournament) -> HttpResponse:
    context = tournament_report_context(club, tournament)
    body = pdf_of("reports/tournament.html", context, zone=club.timezone)
    return file_response(body, PDF, f"{club.slug}-tournament-{tournament.pk}.pdf")


def _text(text: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "private, no-store"
    return response


#: Rows on a standings image: the top of the table, in type a phone's chat shows legibly.
IMAGE_ROWS = 12


def _image(club: Club, context: dict[str, Any], rows: list[Any], name: str) -> HttpResponse:
    """The standings card as a PNG: a page as tall as its rows, drawn from its PDF."""
    shown = rows[:IMAGE_ROWS]
    context = {**context, "card_lines": shown, "card_height": 135 + 26 * max(1, len(shown))}
    pdf = pdf_of("reports/standings_card.html", context, zone=club.timezone)
    return file_response(png_of(pdf), "image/png", name, inline=True)


# --- a night -------------------------------------------------------------------------------------


@login_required
@GET
def night_report(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    return night_pdf(club, _night(club, session_id))


@login_required
@GET
def night_share(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    return _text(night_share_text(night_context(club, session_id)))


@login_required
@GET
def night_image(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    context = {**night_context(club, session_id), "card": "night"}
    return _image(club, context, context["lines"], f"{club.slug}-night-{session_id}.png")


# --- a tournament, at the desk and on its public page --------------------------------------------


def _desk_tournament(request: HttpRequest, club_slug: str, tournament_id: int
                     ) -> tuple[Club, Tournament]:  # fmt: skip
    club = club_for_page(request, club_slug)
    tournament = found(tournament_selectors.tournament_get, club=club, tournament_id=tournament_id)
    return club, tournament


def _public_url(request: HttpRequest, club: Club, tournament: Tournament) -> str:
    if not club.public_standings:
        return ""
    return request.build_absolute_uri(reverse("public-tournament", args=[club.slug, tournament.pk]))


def _tournament_views(
    of: Callable[[HttpRequest, str, int], tuple[Club, Tournament]],
) -> tuple[Callable[..., HttpResponse], ...]:
    """The report, share text and image views of a tournament reached by ``of``."""

    @GET
    def report(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
        return tournament_pdf(*of(request, club_slug, tournament_id))

    @GET
    def share(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
        club, tournament = of(request, club_slug, tournament_id)
        context = tournament_report_context(club, tournament)
        return _text(
            tournament_share_text(context, public_url=_public_url(request, club, tournament))
        )

    @GET
    def image(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
        club, tournament = of(request, club_slug, tournament_id)
        context = {**tournament_report_context(club, tournament), "card": "tournament"}
        name = f"{club.slug}-tournament-{tournament.pk}.png"
        return _image(club, context, context["places"], name)

    return report, share, image


tournament_report, tournament_share, tournament_image = (
    login_required(view) for view in _tournament_views(_desk_tournament)
)
public_report, public_share, public_image = _tournament_views(
    lambda request, club_slug, tournament_id: public_of(club_slug, tournament_id)
)
