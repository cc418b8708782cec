"""The table's own page, behind its table link (no login): the table's players, the deal it
enters next (the same card-checked form as the desk's), and an entry made from another seat to
confirm or dispute. Nothing else of the club is reachable from it (``scoring.table_links``)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.html import escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs.models import Role
from clubs.page_kit.pages import (
    club_for_page,
    club_url,
    form_post_once,
    found,
    redirect_back,
    render_club,
)
from config.errors import Gone, NotFoundError, ServiceError, TooManyRequests
from config.language import use_club_language
from scoring import selectors, table_links
from scoring.formats import handler_for
from scoring.formats.reads import rejected_new_deal
from scoring.models import TableEntry, TableLink
from scoring.views.common import LIVE_STOP
from scoring.views.entry import (
    ENTRY_FIELDS,
    check_answer,
    entry_form,
    entry_live_context,
    entry_page,
)
from scoring.views.results import result_view

SEAT_COOKIE = "table-seat"
# What a table page's live part says when the link stops answering (replaced, or not found).
LINK_GONE = gettext_lazy(
    "This table link no longer works: ask the desk for the table's new QR code."
)


def _link(request: HttpRequest, token: str) -> TableLink:
    """The live link, or the page's 404 / 410 / 429."""
    try:
        link = table_links.table_link_resolve(
            token=token,
            client_address=request.META.get("REMOTE_ADDR", ""),
            cookies=request.COOKIES,
            known=lambda known: use_club_language(request, known.table.session.club.language),
        )
    except NotFoundError as exc:
        raise Http404(exc.message) from None
    except (Gone, TooManyRequests) as exc:
        raise _Refused(exc) from None
    return link


class _Refused(Exception):
    def __init__(self, error: ServiceError) -> None:
        self.error = error


def _refusal(request: HttpRequest, error: ServiceError) -> HttpResponse:
    response = render(request, "scoring/table_gone.html", {"message": error.message},
                      status=error.status)  # fmt: skip
    if isinstance(error, TooManyRequests):
        response["Retry-After"] = str(error.retry_after)
    return response


def _guarded(view: Any) -> Any:
    def wrapped(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, token, *args, **kwargs)
        except _Refused as refused:
            return _refusal(request, refused.error)
        except (Gone, TooManyRequests) as exc:  # the game ended while the request ran
            return _refusal(request, exc)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _seat_chosen(request: HttpRequest, link: TableLink) -> int | None:
    value = request.POST.get("seat") or request.COOKIES.get(f"{SEAT_COOKIE}-{link.pk}", "")
    return int(value) if str(value).isdigit() else None


def _remember_seat(response: HttpResponse, link: TableLink, seat: Any) -> HttpResponse:
    if str(seat).isdigit():  # this phone is this seat until it says otherwise
        response.set_cookie(
            f"{SEAT_COOKIE}-{link.pk}", str(seat), max_age=12 * 3600, samesite="Lax",
            httponly=True, path=f"/t/{table_links.link_token(link)}/",
        )  # fmt: skip
    return response


def _device(request: HttpRequest, link: TableLink) -> tuple[str, str]:
    """This phone's device id for the link and its signed value (new on a phone's first
    visit: ``_keep_device`` keeps it)."""
    return table_links.device_of(
        link=link, signed=request.COOKIES.get(table_links.device_cookie(link))
    )


def _keep_device(response: HttpResponse, link: TableLink, signed: str) -> HttpResponse:
    response.set_cookie(
        table_links.device_cookie(link), signed, max_age=table_links.DEVICE_MAX_AGE,
        samesite="Lax", httponly=True, path=table_links.link_path(link),
    )  # fmt: skip
    return response


def _home(link: TableLink) -> str:
    return table_links.link_path(link)


def _table_context(request: HttpRequest, link: TableLink) -> dict[str, Any]:
    """What the table's page shows: its players, the entry waiting for a confirmation, the deal
    to enter next and the deals so far."""
    at = table_links.table_view(link=link)
    club = link.table.session.club
    seat = _seat_chosen(request, link)
    waiting = None
    if at.waiting is not None:
        seats = at.seats
        device, _signed = _device(request, link)
        waiting = {
            "submission": at.waiting,
            "chosen": result_view(
                club, at.waiting, seats, at.game, club_selectors.player_aliases(club=club)
            ),
            "by": next(
                (s for s in seats if s.position == at.waiting.entered_seat), None
            ),
            "phone": table_links.device_names(link_id=link.pk).get(at.waiting.entered_device),
            # Entered on this phone, and the link wants another phone to confirm it.
            "here": at.waiting.entered_device == device
            and link.mode != TableEntry.ONE_PHONE,
        }  # fmt: skip
    counted = table_links.table_deals_recent(game=at.game)
    again = rejected_new_deal(at.game)
    next_number = again.number if again else (counted[0].number + 1 if counted else 1)
    return {
        "link": link, "at": at, "game": at.game, "table": link.table, "seat": seat,
        "waiting": waiting, "counted": counted, "home": _home(link), "next_number": next_number,
        "words": handler_for(at.game).words, "live_every": 5, "live_gone": LINK_GONE,
    }  # fmt: skip


@_guarded
@require_http_methods(["GET", "HEAD"])
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """The table: its players, the entry waiting for a confirmation, the deal to enter next."""
    link = _link(request, token)
    _device_id, signed = _device(request, link)
    with timezone.override(link.table.session.club.timezone):
        response = render(request, "scoring/table.html", _table_context(request, link))
    return _keep_device(response, link, signed)


@require_http_methods(["GET", "HEAD"])
def table_live(request: HttpRequest, token: str) -> HttpResponse:
    """The table page's live part, refetched when the table's game changes (an entry checked,
    confirmed or disputed, the director's decision): every phone at the table sees it without
    reloading. Once the link no longer enters results, the part says so and stops."""
    try:
        link = _link(request, token)
        with timezone.override(link.table.session.club.timezone):
            return render(request, "scoring/_table_live.html", _table_context(request, link))
    except (_Refused, Gone) as exc:
        return _live_refusal(request, exc.error if isinstance(exc, _Refused) else exc)


def _live_refusal(request: HttpRequest, error: ServiceError) -> HttpResponse:
    """A live part's answer once the link no longer enters results: it says so and stops. A
    link the desk withdrew is refused instead (410): the part keeps what it shows and says, in
    its own words, that the link no longer works (static/js/live.js)."""
    if isinstance(error, TooManyRequests) or error.code == "table_link_revoked":
        return _refusal(request, error)
    response = HttpResponse(
        f'<p class="note" role="status" id="table-closed">{escape(error.message)}.</p>'
    )
    response[LIVE_STOP] = "1"
    return response


@require_http_methods(["GET", "HEAD"])
def table_enter_live(request: HttpRequest, token: str) -> HttpResponse:
    """The entry form's live part at the table: the game's newest deals, read through the link
    (the desk's part is for members). Once the link no longer enters results, it stops."""
    try:
        link = _link(request, token)
        game = table_links.table_game(link=link)
        if game is None:
            raise Gone(_("this table's game has ended"), code="table_closed")
    except (_Refused, Gone) as exc:
        return _live_refusal(request, exc.error if isinstance(exc, _Refused) else exc)
    context = {**entry_live_context(game), "at_table": True}
    return render(request, "scoring/_entry_live.html", context)


@_guarded
@require_http_methods(["GET", "HEAD", "POST"])
def table_enter(request: HttpRequest, token: str) -> HttpResponse:
    """The table's next deal, entered on a phone: the desk's form and checks, and the seat."""
    link = _link(request, token)
    at = table_links.table_view(link=link)
    game, club = at.game, link.table.session.club
    if not at.can_enter and request.method != "POST":  # a repeated post is answered below
        messages.info(request, _("An entry is waiting to be confirmed first."))
        return redirect(_home(link))
    again = rejected_new_deal(game)
    if again is not None:
        number = again.number
    else:
        last = selectors.deal_list(game=game).last()
        number = last.number + 1 if last is not None else 1
    players = selectors.deal_entry_players(game=game, deal=again)
    extra = {
        "at_table": {"home": _home(link), "seats": at.seats, "seat": _seat_chosen(request, link)},
        "live_gone": LINK_GONE,
    }
    page = partial(
        entry_page, request, club, game, deal=None, number=number, rejected=again, extra=extra
    )
    if request.method != "POST":
        return page(entry_form(game, players))
    form = entry_form(game, players, request.POST)

    def enter() -> HttpResponse:
        wild, dealer_id = form.deal_fields()
        dealer = club_selectors.player_get(club=club, player_id=dealer_id) if dealer_id else None
        device, signed = _device(request, link)
        _deal, submission = table_links.table_deal_enter(
            link=link, seat=request.POST.get("seat"), device=device, wild=wild, dealer=dealer,
            payload=form.payload(),
        )  # fmt: skip
        response = redirect(_home(link) + f"?entered={submission.pk}")
        return _keep_device(_remember_seat(response, link, request.POST.get("seat")), link, signed)

    return form_post_once(
        request, form, enter, partial(page, form), fields={*ENTRY_FIELDS, "seat"},
        identity=f"link:{link.pk}",
    )  # fmt: skip


@_guarded
@require_POST
def table_enter_check(request: HttpRequest, token: str) -> HttpResponse:
    """The entry form's live check, for the table's next deal only."""
    link = _link(request, token)
    at = table_links.table_view(link=link)
    return check_answer(request, at.game, deal=rejected_new_deal(at.game))


def _decide(request: HttpRequest, token: str, submission_id: int, *, dispute: bool) -> HttpResponse:
    link = _link(request, token)
    seat = request.POST.get("seat")
    device, signed = _device(request, link)
    try:
        if dispute:
            table_links.table_entry_dispute(
                link=link, submission_id=submission_id, seat=seat,
                reason=request.POST.get("reason", ""),
            )  # fmt: skip
            messages.success(request, _("Disputed: the director will look at it."))
        else:
            table_links.table_entry_confirm(
                link=link, submission_id=submission_id, seat=seat, device=device
            )
            messages.success(request, _("Confirmed: the deal counts."))
    except NotFoundError as exc:
        raise Http404(exc.message) from None
    except ServiceError as exc:
        messages.error(request, exc.message)
        response = redirect(_home(link))
        response.status_code = 303
        return response
    return _keep_device(_remember_seat(redirect(_home(link)), link, seat), link, signed)


@_guarded
@require_POST
def table_confirm(request: HttpRequest, token: str, submission_id: int) -> HttpResponse:
    """Another seat confirms the entry waiting at the table."""
    return _decide(request, token, submission_id, dispute=False)


@_guarded
@require_POST
def table_dispute(request: HttpRequest, token: str, submission_id: int) -> HttpResponse:
    """Another seat disputes the entry waiting at the table, with the reason."""
    return _decide(request, token, submission_id, dispute=True)


# --- the director's side: making and revoking links (club pages) ---------------------------------


@login_required
@require_POST
def table_link_create_page(request: HttpRequest, club_slug: str, table_id: int) -> HttpResponse:
    """A night's table gets its link (the club's table entry setting says how entries count)."""
    club = club_for_page(request, club_slug, Role.SCORER)
    table = found(table_links.table_get, club=club, table_id=table_id)
    try:
        table_links.table_links_ensure(
            tables=[table], actor=request.user, mode=table_links.night_table_entry(club=club)
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect_back(request, club_url("session-page", club, table.session_id))


@login_required
@require_POST
def table_link_revoke_page(request: HttpRequest, club_slug: str, link_id: int) -> HttpResponse:
    """Revoke a table's link, asked first: the button's post shows what it does, and only the
    confirmed form revokes."""
    club = club_for_page(request, club_slug, Role.SCORER)
    link = found(table_links.table_link_get, club=club, link_id=link_id)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = club_url("session-page", club, link.table.session_id)
    if request.POST.get("confirm") != "1":
        return render_club(request, club, "scoring/table_link_revoke.html",
                           {"link": link, "back": back})  # fmt: skip
    table_links.table_link_revoke(link=link, actor=request.user)
    messages.success(
        request, _("The link of %(table)s no longer works.") % {"table": link.table.name}
    )
    return redirect_back(request, club_url("session-page", club, link.table.session_id))


@login_required
@require_POST
def session_links_page(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    """Every table of a night where games are played gets its link at once."""
    club = club_for_page(request, club_slug, Role.SCORER)
    session = found(selectors.session_get, club=club, session_id=session_id)
    try:
        made = table_links.table_links_ensure(
            tables=table_links.tables_taking_entries(session=session), actor=request.user,
            mode=table_links.night_table_entry(club=club),
        )  # fmt: skip
        messages.success(
            request,
            ngettext("%(count)s table link ready.", "%(count)s table links ready.", len(made))
            % {"count": len(made)},
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect_back(request, club_url("session-page", club, session.pk))


@login_required
@require_http_methods(["GET", "HEAD"])
def session_cards_page(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    """A night's table cards to print, one a page: each table's players and its QR code (for
    scorers and above: a card lets whoever holds it enter that table)."""
    club = club_for_page(request, club_slug, Role.SCORER)
    session = found(selectors.session_get, club=club, session_id=session_id)
    tables = table_links.tables_taking_entries(session=session)
    links = table_links.table_links_live(tables=[t.pk for t in tables])
    origin = f"{request.scheme}://{request.get_host()}"
    cards = []
    for table in tables:
        game = table.games.filter(status="open").order_by("-pk").first()
        link = links.get(table.pk)
        cards.append({
            "table": table,
            "players": [s.player.name for s in game.seats.select_related("player")]
            if game else [],
            "card": table_links.link_card(link=link, origin=origin) if link else None,
        })  # fmt: skip
    return render_club(request, club, "scoring/table_cards.html",
                       {"session": session, "cards": cards})  # fmt: skip
