"""The desk's registration actions: the list's bulk check-in and paid marks, a paid mark taken
off (a refund), a player's personal link, the public sign-up's settings and a paste of names
(previewed, then entered). Every write through ``tournaments.services``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.models import Club, Role
from clubs.page_kit.pages import club_for_page, error_context, found, service_status
from config.errors import InvalidInput, ServiceError
from tournaments import desk_words, selectors
from tournaments.models import Tournament
from tournaments.registration import paste_preview
from tournaments.services.bulk import entries_add_names
from tournaments.services.entries import entries_check_in
from tournaments.services.fees import entries_mark_paid, entry_unmark_paid
from tournaments.services.signup import entry_link_issue, signup_settings_set
from tournaments.views import _action, _desk_page


class BulkForm(forms.Form):
    action = forms.ChoiceField(
        label=gettext_lazy("Action"),
        choices=[("check_in", gettext_lazy("Check in")), ("paid", gettext_lazy("Mark paid"))],
    )


class SignupForm(forms.Form):
    open = forms.BooleanField(
        label=gettext_lazy("Players sign up on the public page"), required=False
    )
    closes_at = forms.DateTimeField(
        label=gettext_lazy("Sign-up closes"), required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )  # fmt: skip


class PasteForm(forms.Form):
    names = forms.CharField(label=gettext_lazy("Players"), max_length=20_000, widget=forms.Textarea)
    paid = forms.BooleanField(label=gettext_lazy("Fees paid"), required=False)


def _entry_ids(request: HttpRequest) -> list[int]:
    raw = request.POST.getlist("entry")
    ids = [int(value) for value in raw if value.isdigit() and len(value) < 12]
    if not ids or len(ids) != len(raw):
        raise InvalidInput("players: " + _("tick the players first"))
    return ids


@login_required
@require_POST
def entries_bulk_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The desk's list: the ticked players checked in, or their fees marked paid."""

    def bulk(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        ids = _entry_ids(request)
        if data["action"] == "check_in":
            done = entries_check_in(tournament=tournament, actor=request.user, entry_ids=ids)
            return desk_words.many_checked_in(len(done))
        done = entries_mark_paid(tournament=tournament, actor=request.user, entry_ids=ids)
        return desk_words.fees_paid(len(done))

    return _action(request, club_slug, tournament_id, "entries", BulkForm(request.POST), bulk, "")


@login_required
@require_POST
def entry_unpaid_page(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    def unmark(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        entry = entry_unmark_paid(tournament=tournament, actor=request.user, entry_id=entry_id)
        return desk_words.fee_back(entry.player.name)

    return _action(request, club_slug, tournament_id, "entries", None, unmark, "")


@login_required
@require_POST
def entry_link_page(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    """A new personal link for an entrant, shown once on the desk to pass on."""

    def link(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        token = entry_link_issue(tournament=tournament, actor=request.user, entry_id=entry_id)
        url = reverse("tournament-player-link", args=[club.slug, tournament.pk, token])
        return desk_words.their_link(request.build_absolute_uri(url))

    return _action(request, club_slug, tournament_id, "entries", None, link, "")


@login_required
@require_POST
def signup_settings_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    def settings(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        closes: datetime | None = data.get("closes_at")
        if closes is not None and timezone.is_naive(closes):
            closes = timezone.make_aware(closes, timezone.get_current_timezone())
        signup_settings_set(
            tournament=tournament, actor=request.user, open=data["open"], closes_at=closes
        )
        return desk_words.signup_open(data["open"])

    with timezone.override(_club_zone(request, club_slug)):
        form = SignupForm(request.POST)
        return _action(request, club_slug, tournament_id, "signup", form, settings, "")


def _club_zone(request: HttpRequest, club_slug: str) -> Any:
    return club_for_page(request, club_slug, Role.ORGANISER).timezone


@login_required
@require_POST
def entries_paste_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """A paste of names: previewed first (who is new to the club, who is matched), then
    entered with ``add``."""
    form = PasteForm(request.POST)
    if request.POST.get("add"):

        def add(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
            entries = entries_add_names(
                tournament=tournament, actor=request.user, text=data["names"], paid=data["paid"]
            )
            return desk_words.entered([e.player.name for e in entries])

        return _action(request, club_slug, tournament_id, "paste", form, add, "")
    club = club_for_page(request, club_slug, Role.ORGANISER)
    tournament = found(selectors.tournament_get, club=club, tournament_id=tournament_id)
    try:
        if not form.is_valid():
            raise InvalidInput("players: " + _("paste the names (commas or one a line)"))
        preview = paste_preview(club=club, tournament=tournament, text=form.cleaned_data["names"])
    except ServiceError as exc:
        return _desk_page(
            request, club, tournament, form_name="paste", error=error_context(exc),
            status=service_status(exc),
        )  # fmt: skip
    return _desk_page(request, club, tournament, form_name="paste", extra={"paste": preview})
