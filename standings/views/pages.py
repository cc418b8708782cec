"""The standings pages: the club's for its members (any season, session or game, now or as they
stood after a session, beside the ratings) and the public standings of a club that publishes
them, with their live part."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop

from clubs.models import Club
from clubs.page_kit.pages import (
    GET,
    club_for_page,
    club_url,
    render_club,
)
from live.fragments import public_fragment
from scoring.models import GameFamily
from scoring.views.common import LIVE_STOP
from standings import ratings
from standings.views.boards import public_club, render_public, standings_context
from standings.views.projector import projector_context, public_projector

RATING_ROWS = 20

# The families' labels (GameFamily's, in English) marked for the catalogs: translated where shown.
FAMILY_LABELS = (gettext_noop("Indian rummy"), gettext_noop("Rummikub"), gettext_noop("Okey"))


def _rating_boards(club: Club) -> list[dict[str, Any]]:
    """The ratings leaderboard of each game family the club has rated players in: the first
    ``RATING_ROWS`` established players, and how many are still provisional."""
    boards = []
    for family, label in GameFamily.choices:
        everyone = ratings.rating_table(club=club, family=family, include_provisional=True)
        if not everyone:
            continue
        established = [line for line in everyone if not line.provisional]
        ranked = ratings.ranked_among(established)
        # Provisional players are shown after the ranked ones, unranked, when there is room.
        room = max(0, RATING_ROWS - len(ranked))
        waiting = [line for line in everyone if line.provisional][:room]
        boards.append(
            {
                "family": family,
                "label": gettext(label),
                "lines": [
                    {
                        "line": line,
                        "rank": "–" if line.provisional else str(line.rank),
                        "mu": f"{line.mu:.2f}",
                        "sigma": f"{line.sigma:.2f}",
                        "ordinal": f"{line.ordinal:.2f}",
                    }
                    for line in [*ranked[:RATING_ROWS], *waiting]
                ],
                "more": max(0, len(established) - RATING_ROWS),
                "provisional": len(everyone) - len(established) - len(waiting),
            }
        )
    return boards


@login_required
@GET
def club_standings(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's standings for its members: any season, session or game, now or as they stood
    after a session."""
    club = club_for_page(request, club_slug)
    context, status = standings_context(request, club)
    context["form_url"] = club_url("club-standings", club)
    context["rating_boards"] = _rating_boards(club)
    return render_club(request, club, "standings/club_standings.html", context, status)


def _public_context(request: HttpRequest, club: Club) -> tuple[dict[str, Any], int]:
    context, status = standings_context(request, club)
    live = reverse("public-live", args=[club.slug])
    context["form_url"] = reverse("public-standings", args=[club.slug])
    context["live_url"] = f"{live}?{context['query']}" if context.get("query") else live
    context["live"] = context.get("after") is None and context["board"] is not None
    return context, status


@GET
def public_standings(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = public_club(club_slug, request)
    if request.GET.get("view") == "projector":
        return public_projector(request, club_slug)
    context, status = _public_context(request, club)
    context["rating_boards"] = _rating_boards(club)
    return render_public(request, club, "standings/standings.html", context, status)


@public_fragment
@GET
def public_standings_fragment(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The live part of the public standings (or of the projector with ``?view=projector``)."""
    club = public_club(club_slug, request)
    if request.GET.get("view") == "projector":
        context, status = projector_context(request, club)
        template = "standings/_standings_projector.html"
    else:
        context, status = _public_context(request, club)
        template = "standings/_standings.html"
    response = render_public(request, club, template, context, status)
    if context.get("after") is not None:
        response[LIVE_STOP] = "1"
    return response
