"""A member club's federation pages: its federations (the owner answers an invitation), and in
one of them asking for a night or tournament to be sanctioned (under the federation's locked
preset, in a tier), each event's state, submitting a finished event (or a correction) and
proposing a player's federation link. Every write is one of ``federation.services``."""

from __future__ import annotations

from functools import partial
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.models import Club, Role
from clubs.page_kit.pages import GET, club_for_page, club_url, form_post, found, render_club
from config.errors import InvalidInput
from config.locale_format import format_day
from federation import club_reads, selectors, services
from federation.models import Federation, PlayerLink, SanctionedEvent
from scoring.models import Session
from tournaments.models import Tournament

EVENT_STATES = {
    SanctionedEvent.Status.REQUESTED: gettext_lazy("Asked: the officer decides"),
    SanctionedEvent.Status.SANCTIONED: gettext_lazy("Sanctioned: submit it once finished"),
    SanctionedEvent.Status.REFUSED: gettext_lazy("Refused"),
    SanctionedEvent.Status.SUBMITTED: gettext_lazy("Submitted: the officer releases it"),
    SanctionedEvent.Status.RETURNED: gettext_lazy("Returned: correct it and submit it again"),
    SanctionedEvent.Status.RELEASED: gettext_lazy("Released: it counts on both lists"),
}
LINK_STATES = {
    PlayerLink.Status.PROPOSED: gettext_lazy("Proposed"),
    PlayerLink.Status.CONFIRMED: gettext_lazy("Confirmed"),
    PlayerLink.Status.REFUSED: gettext_lazy("Refused"),
}
SUBMITTABLE = (
    SanctionedEvent.Status.SANCTIONED,
    SanctionedEvent.Status.RETURNED,
    SanctionedEvent.Status.RELEASED,
)


class SanctionForm(forms.Form):
    event = forms.RegexField(regex=r"^(session|tournament):\d{1,12}$", label=gettext_lazy("Event"))
    tier = forms.CharField(max_length=40, label=gettext_lazy("Tier"))


class LinkForm(forms.Form):
    player = forms.IntegerField(min_value=1, label=gettext_lazy("Player"))
    date_of_birth = forms.DateField(required=False, label=gettext_lazy("Date of birth"))
    email = forms.EmailField(required=False, label=gettext_lazy("E-mail"))
    federation_id = forms.RegexField(
        regex=r"^[Ff]?\d{1,9}$",
        required=False,
        label=gettext_lazy("Federation id"),
        error_messages={"invalid": gettext_lazy("write it as on the lists, e.g. F000012")},
    )


@login_required
@GET
def club_federations(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug)
    memberships = club_reads.club_memberships(club=club)
    return render_club(request, club, "federation/club_list.html", {"memberships": memberships})


@login_required
@require_POST
def club_answer(request: HttpRequest, club_slug: str, federation_slug: str) -> HttpResponse:
    """The owner accepts or declines an invitation."""
    club = club_for_page(request, club_slug, min_role=Role.OWNER)
    federation = found(selectors.federation_get, slug=federation_slug)

    def answer() -> HttpResponse:
        accept = request.POST.get("accept") == "1"
        services.club_answer(actor=request.user, federation=federation, club=club, accept=accept)
        return redirect(club_url("club-federations", club))

    def page(error: dict[str, str], status: int) -> HttpResponse:
        context = {"memberships": club_reads.club_memberships(club=club), "error": error}
        return render_club(request, club, "federation/club_list.html", context, status)

    return form_post(None, answer, page)


def _event_rows(federation: Federation, club: Club) -> list[dict[str, Any]]:
    return [
        {
            "event": event,
            "state": EVENT_STATES[SanctionedEvent.Status(event.status)],
            "can_submit": event.status in SUBMITTABLE,
            "correction": event.status == SanctionedEvent.Status.RELEASED,
            "pending_correction": event.status == SanctionedEvent.Status.SUBMITTED
            and event.released_version > 0,
        }
        for event in club_reads.club_events(federation=federation, club=club)
    ]


def _page(
    request: HttpRequest,
    club: Club,
    federation: Federation,
    *,
    error: dict[str, str] | None = None,
    status: int = 200,
    form: str = "",
) -> HttpResponse:
    choices = club_reads.sanction_choices(federation=federation, club=club)
    context = {
        "federation": federation,
        "tiers": sorted(federation.tiers.items(), key=lambda item: (float(item[1]), item[0])),
        "events": _event_rows(federation, club),
        "nights": [(night, format_day(night.started_at)) for night in choices.nights],
        "tournaments": choices.tournaments,
        "links": [
            {"link": link, "state": LINK_STATES[PlayerLink.Status(link.status)]}
            for link in club_reads.club_links(federation=federation, club=club)
        ],
        "players": club_reads.link_choices(federation=federation, club=club),
        "error": error,
        "error_form": form if error else "",
        "posted": request.POST if error else {},
    }
    return render_club(request, club, "federation/club_federation.html", context, status)


def _federation(request: HttpRequest, club_slug: str, slug: str, role: str) -> tuple[Club, Any]:
    club = club_for_page(request, club_slug, min_role=role)
    return club, found(club_reads.member_federation, club=club, slug=slug)


@login_required
@GET
def club_federation(request: HttpRequest, club_slug: str, federation_slug: str) -> HttpResponse:
    club, federation = _federation(request, club_slug, federation_slug, Role.PLAYER)
    return _page(request, club, federation)


def _back(club: Club, federation: Federation) -> HttpResponse:
    return redirect(club_url("club-federation", club, federation.slug))


@login_required
@require_POST
def club_sanction_ask(request: HttpRequest, club_slug: str, federation_slug: str) -> HttpResponse:
    club, federation = _federation(request, club_slug, federation_slug, Role.ORGANISER)
    form = SanctionForm(request.POST)

    def ask() -> HttpResponse:
        kind, _colon, number = form.cleaned_data["event"].partition(":")
        session = tournament = None
        if kind == "session":
            session = Session.objects.filter(club=club, pk=int(number)).first()
        else:
            tournament = Tournament.objects.filter(club=club, pk=int(number)).first()
        if session is None and tournament is None:
            raise InvalidInput("event: " + _("choose one of the club's nights or tournaments"))
        services.sanction_request(
            actor=request.user,
            federation=federation,
            club=club,
            tier=form.cleaned_data["tier"],
            session=session,
            tournament=tournament,
        )
        return _back(club, federation)

    page = partial(_page, request, club, federation, form="sanction")
    return form_post(form, ask, page, frozenset({"event", "tier"}))


@login_required
@require_POST
def club_event_submit(
    request: HttpRequest, club_slug: str, federation_slug: str, event_id: int
) -> HttpResponse:
    club, federation = _federation(request, club_slug, federation_slug, Role.ORGANISER)
    event = federation.events.filter(club=club, pk=event_id).first()

    def submit() -> HttpResponse:
        if event is None:
            raise InvalidInput("event: " + _("no such event of the club"))
        services.event_submit(actor=request.user, event=event)
        return _back(club, federation)

    return form_post(None, submit, partial(_page, request, club, federation, form="events"))


@login_required
@require_POST
def club_link_propose(request: HttpRequest, club_slug: str, federation_slug: str) -> HttpResponse:
    club, federation = _federation(request, club_slug, federation_slug, Role.ORGANISER)
    form = LinkForm(request.POST)

    def propose() -> HttpResponse:
        player = club.players.filter(pk=form.cleaned_data["player"]).first()
        if player is None:
            raise InvalidInput("player: " + _("choose one of the club's players"))
        code = (form.cleaned_data["federation_id"] or "").lstrip("Ff")
        named = None
        if code:
            named = federation.players.filter(pk=int(code)).first()
            if named is None:
                raise InvalidInput(
                    "federation_id: "
                    + _("no player %(code)s in the federation")
                    % {"code": form.cleaned_data["federation_id"]}
                )
        services.link_propose(
            actor=request.user,
            federation=federation,
            player=player,
            date_of_birth=form.cleaned_data["date_of_birth"],
            email=form.cleaned_data["email"] or "",
            federation_player=named,
        )
        return _back(club, federation)

    page = partial(_page, request, club, federation, form="link")
    fields = frozenset({"player", "date_of_birth", "email", "federation_id"})
    return form_post(form, propose, page, fields)
