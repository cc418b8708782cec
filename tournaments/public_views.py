"""The public tournament pages: the page a player follows (where they sit, the places, the
grid), its live part, and the projector. Every figure through the selectors."""

from __future__ import annotations

import secrets
import time
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from clubs import selectors as club_selectors
from clubs.models import Club
from clubs.page_kit.display import club_money, qr_svg
from clubs.page_kit.pages import GET, found
from config.language import use_club_language
from live.fragments import public_fragment
from standings.views.projector import PROJECTOR_JUST_NOW, projector_turn
from tournaments import selectors
from tournaments.kinds import kind_for
from tournaments.models import Entry, Tournament
from tournaments.services.signup import CODE_MINUTES, check_in_code, link_hash, signup_accepting
from tournaments.views import LIVE_EVERY, kind_panel, places_shown, pool_words

# --- public --------------------------------------------------------------------------------------


def public_of(club_slug: str, tournament_id: int) -> tuple[Club, Tournament]:
    """The club (one with public pages) and its tournament, or the page's 404."""
    club = found(club_selectors.club_get_public, slug=club_slug)
    tournament = found(selectors.tournament_get, club=club, tournament_id=tournament_id)
    return club, tournament


def _public_context(request: HttpRequest, club: Club, tournament: Tournament) -> dict[str, Any]:
    """What the public page, its live part and the projector show: the field's figures, the
    places and the grid (not the desk's fees, draw costs or prize previews)."""
    use_club_language(request, club.language)  # a public page speaks the club's language
    view = selectors.tournament_view(tournament=tournament)
    grid = selectors.tournament_grid(tournament=tournament, view=view)
    still_in = [
        e.player.name
        for e in view.entries
        if e.status in (Entry.Status.ACTIVE, Entry.Status.CHECKED_IN, Entry.Status.REGISTERED)
    ]
    current = view.rounds[-1] if view.rounds else None
    if current is not None:
        # The tables in play show each player's running figure, as the players' phones do.
        selectors.cells_running(grid=grid, cells=grid.cells.get(current.number, []))
    context = {
        "tournament": tournament, "view": view, "grid": grid, "club": club, "public": True,
        "prize_pool": club_money(club, view.prize_pool_minor), "places": places_shown(club, view),
        "pool_words": pool_words(club, view),
        "current": current, "current_cells": grid.cells.get(current.number, []) if current else [],
        "still_in": sorted(still_in, key=str.lower), "live_every": LIVE_EVERY,
        "live_url": reverse("public-tournament-live", args=[club.slug, tournament.pk]),
        # "Where do I sit" offers the entries that count (not one withdrawn before the start).
        "pickable": [(e.player_id, e.player.name) for e in view.counted],
        # The kind's panel (no rebuy is offered here: that is the desk's).
        "kind": kind_for(tournament),
        "kind_panel": kind_panel(club, tournament, view, draft_open=False),
    }  # fmt: skip
    raw = request.GET.get("player") or ""
    if raw.isdigit() and int(raw) in dict(context["pickable"]):
        entry = next(e for e in view.entries if e.player_id == int(raw))
        context["me"] = {
            "name": grid.names[int(raw)],
            "seat": selectors.seat_of(grid=grid, player_id=int(raw)),
            "id": int(raw),
            "entry": entry,
            "prize": club_money(club, entry.prize_won_minor) if entry.prize_won_minor else "",
        }
    return context


def entry_cookie_name(tournament: Tournament) -> str:
    """The cookie in which a phone keeps its player's link, for the tournament's public pages."""
    return f"rc_entry_{tournament.pk}"


def _remembered_link(request: HttpRequest, club: Club, tournament: Tournament) -> dict[str, str]:
    """The player's own page that this phone signed up or checked in with, if it keeps one."""
    token = request.COOKIES.get(entry_cookie_name(tournament), "")
    if not token or len(token) > 200:
        return {}
    entry = tournament.entries.select_related("player").filter(link_hash=link_hash(token)).first()
    if entry is None:
        return {}  # the link was made again, or the entry removed
    url = reverse("tournament-player-link", args=[club.slug, tournament.pk, token])
    return {"my_link": url, "my_name": entry.player.name}


def _render_public(request: HttpRequest, club: Club, template: str, context: dict[str, Any]
                   ) -> HttpResponse:  # fmt: skip
    with timezone.override(club.timezone):
        response = render(request, template, context)
    if context["tournament"].status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        response["X-Live-Stop"] = "1"
    return response


@GET
def public_tournament(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    club, tournament = public_of(club_slug, tournament_id)
    context = _public_context(request, club, tournament)
    context |= _remembered_link(request, club, tournament)
    if signup_accepting(tournament):
        # The form's one-time key: the same form sent twice (a double tap) signs up once.
        context["signup_key"] = secrets.token_urlsafe(24)
    return _render_public(request, club, "tournaments/public.html", context)


#: Table cards a projector page holds (six across, three down on 1920x1080); a round with more
#: tables turns its pages as the standings projector does (every table within 30 s).
PROJECTOR_TABLES = 18


def _projector_context(request: HttpRequest, context: dict[str, Any]) -> dict[str, Any]:
    """What the tournament projector adds: the page of the round's tables it shows now, the
    table that settled last and who went on from it (for ``PROJECTOR_JUST_NOW`` seconds), and
    the round clock's time left."""
    cells = context["current_cells"]
    pages = max(1, -(-len(cells) // PROJECTOR_TABLES))
    turn = projector_turn(pages)
    page = int(time.time() // turn) % pages + 1
    shown = cells[(page - 1) * PROJECTOR_TABLES : page * PROJECTOR_TABLES]
    now = timezone.now()
    settled = selectors.tables_settled_at(cells=cells) if cells else {}
    recent = {
        n: at for n, at in settled.items() if (now - at).total_seconds() <= PROJECTOR_JUST_NOW
    }
    just = None
    if recent:
        number = max(recent, key=lambda n: recent[n])
        cell = next(c for c in cells if c.number == number)
        just = {"cell": cell, "at": recent[number]}
    current = context["current"]
    left = None
    if current is not None and current.ends_at is not None and current.status == "released":
        left = max(0, int((current.ends_at - now).total_seconds()))
    return {
        "shown_cells": shown, "page": page, "pages": pages, "turn": turn,
        "first_table": (page - 1) * PROJECTOR_TABLES + 1,
        "last_table": (page - 1) * PROJECTOR_TABLES + len(shown),
        "just_settled": just, "recent_tables": set(recent), "clock_left": left,
        "clock_text": f"{left // 60}:{left % 60:02d}" if left is not None else "",
        "live_every": min(LIVE_EVERY, turn / 2),
        # Before the start the room checks in with this code (``services.signup``).
        "check_in_code": check_in_code(tournament=context["tournament"])
        if context["tournament"].status == Tournament.Status.REGISTRATION else "",
        "code_minutes": CODE_MINUTES,
    }  # fmt: skip


@public_fragment
@GET
def public_tournament_live(
    request: HttpRequest, club_slug: str, tournament_id: int
) -> HttpResponse:
    club, tournament = public_of(club_slug, tournament_id)
    context = _public_context(request, club, tournament)
    template = "tournaments/_public_body.html"
    if request.GET.get("view") == "projector":
        context.update(_projector_context(request, context))
        template = "tournaments/_projector_body.html"
    return _render_public(request, club, template, context)


@GET
def public_tournament_projector(
    request: HttpRequest, club_slug: str, tournament_id: int
) -> HttpResponse:
    club, tournament = public_of(club_slug, tournament_id)
    context = _public_context(request, club, tournament)
    context.update(_projector_context(request, context))
    public = reverse("public-tournament", args=[club.slug, tournament.pk])
    if tournament.status == Tournament.Status.REGISTRATION:
        # Before the start the QR checks the room in; then it follows the tournament.
        public = reverse("tournament-check-in", args=[club.slug, tournament.pk])
    context["qr"] = qr_svg(request.build_absolute_uri(public))
    context["qr_checks_in"] = tournament.status == Tournament.Status.REGISTRATION
    return _render_public(request, club, "tournaments/projector.html", context)
