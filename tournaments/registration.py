"""What the desk shows of the registration: the counts (registered, waitlisted, checked in,
paid), the public sign-up's settings, the check-in QR and the code of the moment, and a paste's
names matched to the roster before they are entered. Reads only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from clubs import selectors as club_selectors
from clubs.models import Club
from clubs.page_kit.display import qr_svg
from tournaments.models import Entry, Tournament
from tournaments.selectors import TournamentView
from tournaments.services.bulk import names_pasted
from tournaments.services.signup import CODE_MINUTES, check_in_code, signup_accepting

E = Entry.Status


def registration_counts(view: TournamentView) -> dict[str, int]:
    """How many are registered (a place, not yet checked in), waitlisted, checked in, and
    whose fee is paid: the desk's figures."""
    counts = {"registered": 0, "waitlisted": 0, "checked_in": 0}
    for entry in view.entries:
        if entry.status in (E.REGISTERED, E.WAITLISTED, E.CHECKED_IN):
            counts[entry.status] += 1
    return {**counts, "paid": view.paid, "counted": len(view.counted)}


def registration_context(
    request: HttpRequest, club: Club, tournament: Tournament, view: TournamentView
) -> dict[str, Any]:
    """The desk's registration panel: counts, sign-up settings, check-in QR and code."""
    registering = tournament.status == Tournament.Status.REGISTRATION
    context: dict[str, Any] = {
        "counts": registration_counts(view),
        "signup_accepting": signup_accepting(tournament),
        "public_pages": club.public_standings,
    }
    if registering and club.public_standings:
        check_in = reverse("tournament-check-in", args=[club.slug, tournament.pk])
        context.update(
            check_in_url=request.build_absolute_uri(check_in),
            check_in_qr=qr_svg(request.build_absolute_uri(check_in)),
            check_in_code=check_in_code(tournament=tournament),
            code_minutes=CODE_MINUTES,
        )
    return context


@dataclass
class PastedName:
    name: str
    player: str  # the roster player matched ("" for a new player)
    entered: bool  # that player is entered already


def paste_preview(*, club: Club, tournament: Tournament, text: str) -> list[PastedName]:
    """Each name of a paste: the roster player it matches (or new to the club), and whether
    that player is entered already."""
    shown = []
    entered = set(tournament.entries.values_list("player_id", flat=True))
    for name in names_pasted(text):
        player = club_selectors.player_named(club=club, name=name)
        shown.append(
            PastedName(name, player.name if player else "", bool(player and player.pk in entered))
        )
    return shown
