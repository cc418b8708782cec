"""The deal page: a version's result (as its format shows it: hands or racks), the reasons a version
was rejected, the history of versions, and confirming one."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.models import Club, Role
from clubs.page_kit.display import signed_number
from clubs.page_kit.pages import (
    GET,
    can,
    club_for_page,
    club_url,
    found,
    redirect_back,
    render_club,
)
from config.errors import ServiceError
from scoring import selectors, table_links, undo
from scoring.formats import handler_for
from scoring.formats.cards import card_view
from scoring.formats.reason_words import reason_words
from scoring.models import Deal, Game, Submission
from scoring.preset_rules import game_rules
from scoring.submissions import submission_confirm, submission_reject_waiting
from scoring.views.common import (
    LIVE_STOP,
    deal_status,
    entered_by,
    phones_used,
    reason_who,
    submission_status,
)


def result_view(
    club: Club,
    submission: Submission,
    seats: list[Any],
    game: Game,
    aliases: dict[int, int] | None = None,
) -> dict[str, Any]:
    """One version's result as the deal page shows it: its status and the reasons it was
    rejected here, the rest (hands or racks) as the game's format shows it."""
    aliases = aliases or {}
    names = {seat.player_id: seat.player.name for seat in seats}
    # A result entered before a merge names the merged player's old id.
    names.update({old: names[kept] for old, kept in aliases.items() if kept in names})
    wild = (submission.result or {}).get("wild") or submission.payload.get("wild")
    handler = handler_for(game)
    view: dict[str, Any] = {
        "submission": submission,
        "status": submission_status(submission),
        "wild": card_view(wild) if wild else None,
        "template": handler.result_template,
        **handler.result_view(
            club=club,
            game=game,
            rules=game_rules(game.preset),
            submission=submission,
            names=names,
        ),
    }
    if submission.reasons:
        view["reasons"] = [
            {
                "reason": reason,
                "words": reason_words(reason),
                "who": reason_who(reason, names),
                "token": reason.get("token"),
            }
            for reason in submission.reasons
        ]
    return view


def _points_html(submission: Submission, *, signed: bool) -> str:
    """Each player's figure as the rules speak (a Rummikub score signed, an Indian count of
    points against), each name and figure isolated so a Hebrew page keeps "−12" by its name."""
    return format_html_join(
        " · ",
        '<bdi>{}</bdi> <bdi class="ltr">{}</bdi>',
        (
            (
                line.get("name"),
                signed_number(line.get("points")) if signed else str(line.get("against")),
            )
            for line in (submission.result or {}).get("players", [])
        ),
    )


def _deal_context(request: HttpRequest, club: Club, deal: Deal) -> tuple[dict[str, Any], bool]:
    game = found(selectors.game_get, club=club, game_id=deal.game_id)
    seats = list(game.seats.all())
    submissions = list(selectors.submission_list(deal=deal))
    chosen = None
    wanted = request.GET.get("v")
    if wanted and wanted.isdigit():
        chosen = next((s for s in submissions if s.pk == int(wanted)), None)
    if chosen is None and submissions:
        chosen = submissions[-1]
    words = handler_for(game).words
    links = {s.table_link_id for s in submissions if s.table_link_id is not None}
    phones = {link: table_links.device_names(link_id=link) for link in links}
    history = []
    for submission in reversed(submissions):
        signed = words.signed_points
        history.append(
            {
                "submission": submission,
                "status": submission_status(submission),
                "who": entered_by(submission),
                "phones": phones_used(submission, phones.get(submission.table_link_id, {})),
                "points": _points_html(submission, signed=signed),
                "reasons": len(submission.reasons or []),
                "url": club_url("deal-page", club, deal.pk) + f"?v={submission.pk}#result",
                "chosen": submission == chosen,
                "can_confirm": submission.status == Submission.Status.AWAITING_CONFIRMATION
                and can(club, Role.SCORER)
                and submission.submitted_by_id != request.user.pk,
                "can_reject": submission.status == Submission.Status.AWAITING_CONFIRMATION
                and can(club, Role.SCORER),
            }
        )
    pending = any(s.status == Submission.Status.PENDING for s in submissions)
    session_open = game.table.session.status == "open"
    next_url = ""
    if (
        session_open
        and game.status == Game.Status.OPEN
        and deal.status == Deal.Status.FINAL
        and not game.deals.filter(number__gt=deal.number).exists()
        and can(club, Role.SCORER)
    ):
        next_url = club_url("deal-new", club, game.pk)
    context = {
        "deal": deal,
        "game": game,
        "words": words,
        "next_url": next_url,
        "can_void": session_open
        and deal.status != Deal.Status.VOID
        and not pending
        and can(club, Role.ORGANISER),
        "can_delete": session_open
        and deal.status == Deal.Status.OPEN
        and not submissions
        and can(club, Role.ORGANISER),
        "session": game.table.session,
        "table": game.table,
        "deal_status": deal_status(deal, submissions[-1] if submissions else None),
        "wild": card_view(deal.wild) if deal.wild else None,
        "history": history,
        "chosen": result_view(club, chosen, seats, game, club_selectors.player_aliases(club=club))
        if chosen
        else None,
        "pending": pending,
        "can_correct": session_open and can(club, Role.SCORER),
        "fragment_url": club_url("deal-fragment", club, deal.pk)
        + (f"?v={chosen.pk}" if chosen else ""),
        "game_url": _game_url_of(club, deal),
    }
    return context, pending


def _game_url_of(club: Club, deal: Deal) -> str:
    """The game's page at the page of its deals that lists ``deal``."""
    page = selectors.game_deal_page_number(deal=deal)
    return club_url("game-page", club, deal.game_id) + (f"?page={page}#deals-h" if page > 1 else "")


@login_required
@GET
def deal_page(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    context, _ = _deal_context(request, club, deal)
    return render_club(request, club, "scoring/deal.html", context)


@login_required
@GET
def deal_fragment(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    """The deal's result and history, polled while a version is being checked."""
    club = club_for_page(request, club_slug)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    context, pending = _deal_context(request, club, deal)
    response = render_club(request, club, "scoring/_deal_body.html", context)
    if not pending:
        response[LIVE_STOP] = "1"
    return response


@login_required
@require_POST
def deal_void(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    """Void a deal that was never played; back to the session page when asked from there."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    counted = deal.status != Deal.Status.OPEN
    try:
        undo.deal_void(deal=deal, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        voided = _("Deal %(number)s is voided: it counts for nothing.") % {"number": deal.number}
        if counted:
            voided += " " + _("Its result is reversed in the ledger.")
        messages.success(request, voided)
    if request.POST.get("next") == "session":
        return redirect(club_url("session-page", club, deal.game.table.session_id) + "#close")
    return redirect(_game_url_of(club, deal))


@login_required
@require_POST
def submission_confirm_view(
    request: HttpRequest, club_slug: str, submission_id: int
) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.SCORER)
    submission = found(selectors.submission_get, club=club, submission_id=submission_id)
    try:
        submission = submission_confirm(submission=submission, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Version %(version)s is confirmed and counts.") % {"version": submission.version},
        )
    return _back(request, club, submission)


def _back(request: HttpRequest, club: Club, submission: Submission) -> HttpResponse:
    """To the page the button was on (the director's desk), else the deal's page."""
    deal_page = club_url("deal-page", club, submission.deal_id) + f"?v={submission.pk}#result"
    return redirect_back(request, deal_page)


@login_required
@require_POST
def submission_reject_view(
    request: HttpRequest, club_slug: str, submission_id: int
) -> HttpResponse:
    """A director rejects an entry waiting for confirmation (the table enters it again)."""
    club = club_for_page(request, club_slug, Role.SCORER)
    submission = found(selectors.submission_get, club=club, submission_id=submission_id)
    try:
        submission = submission_reject_waiting(
            submission=submission, actor=request.user, reason=request.POST.get("reason", "")
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Version %(version)s is rejected; it never counted.")
            % {"version": submission.version},
        )
    return _back(request, club, submission)


@login_required
@require_POST
def deal_delete(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    """Delete a deal opened by mistake (no result ever entered)."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    try:
        undo.deal_delete(deal=deal, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(club_url("deal-page", club, deal.pk))
    messages.success(request, _("Deal %(number)s is deleted.") % {"number": deal.number})
    return redirect(club_url("game-page", club, deal.game_id))
