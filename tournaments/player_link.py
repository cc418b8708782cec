"""The player's own pages of a tournament, on their phone and without an account: signing up on
the public page, the personal link that follows them through the tournament (their registration
and fee, their seat in each round, their table's running figures, where they go on to, their
place and prize; its live part pushed as the tournament changes, ``following``), and checking in
at the venue through the check-in QR with the code the projector shows. The phone keeps its link
in a cookie of the tournament's public pages, so the check-in QR opens the player's own page;
"Not me" forgets it. Every write through ``services.signup``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_http_methods, require_POST

from clubs.models import Club
from clubs.page_kit.display import club_money
from clubs.page_kit.pages import GET, error_context, found, service_status
from config.errors import InvalidInput, ServiceError, TooManyRequests
from live.views import stream_url
from tournaments import selectors
from tournaments.following import player_following
from tournaments.models import Entry, Tournament
from tournaments.public_views import entry_cookie_name, public_of
from tournaments.services import signup
from tournaments.views import LIVE_EVERY

E = Entry.Status


#: The check-in forms' fields as a refusal names them first ("your name: ..."), in the
#: reader's language; the pages mark the field by its English.
CODE_FIELD, NAME_FIELD = gettext_noop("check-in code"), gettext_noop("your name")


def _refusal(exc: ServiceError, fields: set[str]) -> dict[str, Any]:
    """A refusal as the check-in pages show it, its field found in either language."""
    error = error_context(exc)
    named = exc.message.split(":", 1)[0].strip()
    error["field"] = next((f for f in fields if named in (f, _(f))), "")
    return error


def _client(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _link_url(club: Club, tournament: Tournament, token: str) -> str:
    return reverse("tournament-player-link", args=[club.slug, tournament.pk, token])


def _remembered(request: HttpRequest, club: Club, tournament: Tournament, token: str,
                response: HttpResponse) -> HttpResponse:  # fmt: skip
    """The phone keeps its link for the tournament's public pages (the check-in QR finds it)."""
    response.set_cookie(
        entry_cookie_name(tournament), token, max_age=60 * 60 * 24 * 30,
        path=reverse("public-tournament", args=[club.slug, tournament.pk]),
        httponly=True, samesite="Lax", secure=request.is_secure(),
    )  # fmt: skip
    return response


def _page(request: HttpRequest, club: Club, template: str, context: dict[str, Any],
          status: int = 200) -> HttpResponse:  # fmt: skip
    with timezone.override(club.timezone):
        return render(request, template, {"club": club, "public": True, **context}, status=status)


@require_POST
def signup_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The public page's sign-up form: the player's own link when done, else the form again."""
    club, tournament = public_of(club_slug, tournament_id)
    name = request.POST.get("name", "")[:200]
    try:
        if not signup.client_allowed(
            what="signup", client_address=_client(request), limit=signup.SIGNUP_LIMIT
        ):
            raise TooManyRequests(
                _("too many sign-ups from this network: ask the desk"),
                retry_after=signup.LIMIT_WINDOW_SECONDS,
            )
        done = signup.player_sign_up(
            tournament=tournament, name=name, signup_key=request.POST.get("signup_key", "")
        )
    except ServiceError as exc:
        return _page(request, club, "tournaments/signup_refused.html", {
            "tournament": tournament, "error": error_context(exc), "name": name,
        }, status=service_status(exc))  # fmt: skip
    response = redirect(_link_url(club, tournament, done.token))
    return _remembered(request, club, tournament, done.token, response)


def _entry_shown(club: Club, tournament: Tournament, entry: Entry) -> dict[str, Any]:
    """The registration as the player's page shows it."""
    waiting_place = 0
    if entry.status == E.WAITLISTED:
        waiting = tournament.entries.filter(status=E.WAITLISTED).order_by("created_at", "id")
        waiting_place = list(waiting.values_list("pk", flat=True)).index(entry.pk) + 1
    return {
        "name": entry.player.name, "status": entry.status,
        "status_words": entry.get_status_display(), "waiting_place": waiting_place,
        "paid": entry.fee_status == Entry.FeeStatus.PAID, "paid_at": entry.paid_at,
        "fee": club_money(club, tournament.entry_fee_minor) if tournament.entry_fee_minor else "",
        "checked_in_at": entry.checked_in_at, "roster_claim": entry.roster_claim,
        "can_check_in": entry.status == E.REGISTERED
        and tournament.status == Tournament.Status.REGISTRATION and not entry.roster_claim,
    }  # fmt: skip


def _link_entry(club_slug: str, tournament_id: int, token: str) -> tuple[Club, Tournament, Entry]:
    club, tournament = public_of(club_slug, tournament_id)
    entry = found(
        selectors.entry_by_link, tournament=tournament, token_hash=signup.link_hash(token)
    )
    return club, tournament, entry


def _following(club: Club, tournament: Tournament, entry: Entry) -> dict[str, Any]:
    """The live part's context: where the player is now, and their registration; and the
    stream it listens to: the tournament's changes (entries, draws, tables settled) and the
    deals of the player's own table of the moment, not every table's (a room of 200 phones
    would otherwise each refetch at every deal of every table)."""
    following = player_following(club=club, tournament=tournament, entry=entry)
    topics = [f"tournament:{tournament.pk}"]
    current = following["current"]
    if current is not None and current.cell is not None:
        games = (current.cell.game, current.cell.tiebreaker_game)
        topics += [f"game:{game}" for game in games if game]
    return {
        "tournament": tournament, "f": following, "reg": _entry_shown(club, tournament, entry),
        "live_topics": " ".join(topics), "live_stream": stream_url(topics),
    }  # fmt: skip


def _ended(tournament: Tournament) -> bool:
    return tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


@GET
def player_link_live(
    request: HttpRequest, club_slug: str, tournament_id: int, token: str
) -> HttpResponse:
    """The player's page's live part, refetched by their phone when the tournament changes
    (not a public fragment: each player's is their own)."""
    club, tournament, entry = _link_entry(club_slug, tournament_id, token)
    response = _page(request, club, "tournaments/_player_live.html",
                     _following(club, tournament, entry))  # fmt: skip
    if _ended(tournament):
        response["X-Live-Stop"] = "1"
    return response


@require_POST
def player_forget_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """ "Not me": the phone forgets the player's link (a phone lent to another player), and
    the tournament's page opens as for anyone."""
    club, tournament = public_of(club_slug, tournament_id)
    public = reverse("public-tournament", args=[club.slug, tournament.pk])
    response = redirect(public)
    response.delete_cookie(entry_cookie_name(tournament), path=public, samesite="Lax")
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def player_link_page(
    request: HttpRequest, club_slug: str, tournament_id: int, token: str
) -> HttpResponse:
    """The player's own page: the tournament as it goes for them (its live part), and the
    check-in with the code."""
    club, tournament, entry = _link_entry(club_slug, tournament_id, token)
    error, status = None, 200
    if request.method == "POST":
        try:
            if not signup.client_allowed(
                what="check-in", client_address=_client(request), limit=signup.CHECK_IN_LIMIT
            ):
                raise TooManyRequests(
                    _("too many check-in tries from this phone: ask the desk"),
                    retry_after=signup.LIMIT_WINDOW_SECONDS,
                )
            signup.player_check_in(
                tournament=tournament, entry=entry, code=request.POST.get("code", "")[:20]
            )
            return redirect(_link_url(club, tournament, token))
        except ServiceError as exc:
            error = _refusal(exc, {CODE_FIELD})
            status = service_status(exc)
    context = _following(club, tournament, entry)
    response = _page(request, club, "tournaments/player_link.html", {
        **context, "error": error, "can_check_in": context["reg"]["can_check_in"],
        "public_url": reverse("public-tournament", args=[club.slug, tournament.pk]),
        "live_url": reverse("tournament-player-live", args=[club.slug, tournament.pk, token]),
        "live_every": LIVE_EVERY, "ended": _ended(tournament),
    }, status=status)  # fmt: skip
    return _remembered(request, club, tournament, token, response)


@require_http_methods(["GET", "HEAD", "POST"])
def check_in_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """Where the check-in QR leads: the phone's own page when it signed up here, else the
    registered names (as the public page lists them) and the code shown at the venue."""
    club, tournament = public_of(club_slug, tournament_id)
    token = request.COOKIES.get(entry_cookie_name(tournament), "")
    if token and request.method != "POST":
        known = tournament.entries.filter(link_hash=signup.link_hash(token)).exists()
        if known:
            return redirect(_link_url(club, tournament, token))
    error, status, done = None, 200, None
    if request.method == "POST":
        try:
            done = _check_in_by_name(request, tournament)
        except ServiceError as exc:
            error, status = _refusal(exc, {CODE_FIELD, NAME_FIELD}), service_status(exc)
    registered = tournament.entries.filter(status=E.REGISTERED).select_related("player")
    return _page(request, club, "tournaments/check_in.html", {
        "tournament": tournament, "error": error, "done": done, "values": request.POST,
        "names": sorted(((e.pk, e.player.name) for e in registered), key=lambda p: p[1].lower()),
        "public_url": reverse("public-tournament", args=[club.slug, tournament.pk]),
        "signup": signup.signup_accepting(tournament),
    }, status=status)  # fmt: skip


def _check_in_by_name(request: HttpRequest, tournament: Tournament) -> Entry:
    if not signup.client_allowed(
        what="check-in", client_address=_client(request), limit=signup.CHECK_IN_LIMIT
    ):
        raise TooManyRequests(
            _("too many check-in tries from this phone: ask the desk"),
            retry_after=signup.LIMIT_WINDOW_SECONDS,
        )
    raw = request.POST.get("entry", "")
    entry = (
        tournament.entries.select_related("player").filter(pk=int(raw)).first()
        if raw.isdigit() and len(raw) < 12
        else None
    )
    if entry is None:
        raise InvalidInput(_("your name: choose your name from the list"))
    return signup.player_check_in(
        tournament=tournament, entry=entry, code=request.POST.get("code", "")[:20]
    )
