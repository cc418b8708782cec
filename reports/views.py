"""Reports and sharing on the pages: a night's and a tournament's PDF, their share text and
standings image, a game's score sheet. Each follows its page's access rule: a night's, a
game's and the desk's for the club's members (``club_for_page``), the public tournament page's
for anyone where the club publishes its pages (``public_of``)."""

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
from reports.sheet import score_sheet_context
from reports.tournament import tournament_report_context
from scoring import selectors as scoring_selectors
from scoring.models import Game, Session
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament
from tournaments.public_views import public_of

PDF = "application/pdf"


def _night(club: Club, session_id: int) -> Session:
    return found(  # type: ignore[no-any-return]
        scoring_selectors.session_get, club=club, session_id=session_id, with_tables=False
    )


def night_pdf(club: Club, session: Session) -> HttpResponse:
    body = pdf_of("reports/night.html", night_report_context(club, session), zone=club.timezone)
    return file_response(body, PDF, f"{club.slug}-night-{session.pk}.pdf")


def tournament_pdf(club: Club, tournament: Tournament) -> HttpResponse:
    context = tournament_report_context(club, tournament)
    body = pdf_of("reports/tournament.html", context, zone=club.timezone)
    return file_response(body, PDF, f"{club.slug}-tournament-{tournament.pk}.pdf")


def score_sheet_pdf(club: Club, game: Game, *, origin: str) -> HttpResponse:
    context = score_sheet_context(club, game, origin=origin)
    body = pdf_of("reports/score_sheet.html", context, zone=club.timezone)
    return file_response(body, PDF, f"{club.slug}-game-{game.pk}-sheet.pdf")


def origin_of(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


def _text(text: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "private, no-store"
    return response


#: Rows on a standings image: the top of the table, in type a phone's chat shows legibly.
IMAGE_ROWS = 12


def _image(club: Club, context: dict[str, Any], rows: list[Any], name: str, *, described: str
           ) -> HttpResponse:  # fmt: skip
    """The standings card as a PNG: a page as tall as its rows, drawn from its PDF; its
    ``described`` (the share text, from the same context) is the image's text for those who
    cannot see it."""
    shown = rows[:IMAGE_ROWS]
    context = {**context, "card_lines": shown, "card_height": 135 + 26 * max(1, len(shown))}
    pdf = pdf_of("reports/standings_card.html", context, zone=club.timezone)
    body = png_of(pdf, description=described)
    return file_response(body, "image/png", name, inline=True)


def night_share_of(club: Club, session: Session) -> str:
    return night_share_text(night_report_context(club, session))


def night_image_of(club: Club, session: Session) -> HttpResponse:
    context = {**night_report_context(club, session), "card": "night"}
    name = f"{club.slug}-night-{session.pk}.png"
    return _image(club, context, context["lines"], name, described=night_share_text(context))


def tournament_share_of(club: Club, tournament: Tournament, *, public_url: str = "") -> str:
    return tournament_share_text(tournament_report_context(club, tournament), public_url=public_url)


def tournament_image_of(club: Club, tournament: Tournament) -> HttpResponse:
    context = {**tournament_report_context(club, tournament), "card": "tournament"}
    name = f"{club.slug}-tournament-{tournament.pk}.png"
    described = tournament_share_text(context)
    return _image(club, context, context["places"], name, described=described)


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
    return _text(night_share_of(club, _night(club, session_id)))


@login_required
@GET
def night_image(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    return night_image_of(club, _night(club, session_id))


@login_required
@GET
def game_sheet(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    game = found(scoring_selectors.game_get, club=club, game_id=game_id)
    return score_sheet_pdf(club, game, origin=origin_of(request))


# --- a tournament, at the desk and on its public page --------------------------------------------


def _desk_tournament(request: HttpRequest, club_slug: str, tournament_id: int
                     ) -> tuple[Club, Tournament]:  # fmt: skip
    club = club_for_page(request, club_slug)
    tournament = found(tournament_selectors.tournament_get, club=club, tournament_id=tournament_id)
    return club, tournament


def public_url_of(request: HttpRequest, club: Club, tournament: Tournament) -> str:
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
        public_url = public_url_of(request, club, tournament)
        return _text(tournament_share_of(club, tournament, public_url=public_url))

    @GET
    def image(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
        return tournament_image_of(*of(request, club_slug, tournament_id))

    return report, share, image


tournament_report, tournament_share, tournament_image = (
    login_required(view) for view in _tournament_views(_desk_tournament)
)
public_report, public_share, public_image = _tournament_views(
    lambda request, club_slug, tournament_id: public_of(club_slug, tournament_id)
)
