"""Tournament pages: the list and the create form, the director's desk (registration, the draw,
the results grid, its kind's panel, places and prizes) and printable table cards (the public
view and its projector: ``public_views``). Every write goes through ``tournaments.services``;
every figure through the selectors, as in the API."""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.models import Club, Role
from clubs.page_kit.display import club_money, ltr_html, sentence_html
from clubs.page_kit.pages import (
    GET,
    can,
    club_for_page,
    club_url,
    error_context,
    form_post,
    found,
    player_picker_url,
    render_club,
)
from config.errors import InvalidInput
from config.names import name_checked
from rules import prizes
from rules.errors import RuleViolation
from scoring import figures, table_links
from scoring import selectors as scoring_selectors
from scoring.forms import to_minor
from scoring.views.settle_up import settle_up_rows
from tournaments import desk_words, selectors
from tournaments.figures import field_prize_pool
from tournaments.forms import (
    PAYOUT_WORDS,
    EntryForm,
    RoundClockForm,
    SwapForm,
    TournamentForm,
    UnwindForm,
)
from tournaments.kinds import kind_for, settings_of_form
from tournaments.kinds.chips.rebuys import entry_rebuy
from tournaments.models import Entry, Round, Tournament
from tournaments.registration import registration_context
from tournaments.rule_words import negative_fee_words, violation_words
from tournaments.services.corrections import rounds_unwind
from tournaments.services.draws import round_clock_set, round_release, round_swap
from tournaments.services.entries import entry_add, entry_check_in, entry_reinstate, entry_withdraw
from tournaments.services.fees import PAYABLE
from tournaments.services.links import round_links_ensure, table_entry_of
from tournaments.services.setup import tournament_cancel, tournament_create, tournament_start

#: How often the live parts poll, in seconds.
LIVE_EVERY = 5


def _desk_url(club: Club, tournament: Tournament) -> str:
    return club_url("tournament-page", club, tournament.pk)


def _prize_lines(
    club: Club, payout: str | list[Any], entries: int, fee_minor: int, club_fee_minor: int,
    paid: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The prizes a field of ``entries`` would pay, place by place, as a page shows them: its
    pool from ``paid`` fees where only some are paid (the desk), else every entry's."""
    try:
        pool = field_prize_pool(
            entrants=entries if paid is None else paid, entry_fee_minor=fee_minor,
            club_fee_minor=club_fee_minor,
        )  # fmt: skip
        amounts = prizes.place_amounts(pool, prizes.payout_percentages(payout, entries))
    except RuleViolation as exc:
        return {"error": violation_words(exc), "lines": [], "pool": ""}
    return {
        "error": "",
        "entries": entries,
        "paid": paid,
        "pool": club_money(club, pool),
        "lines": [
            {"place": place, "amount": club_money(club, amount)}
            for place, amount in enumerate(amounts, start=1)
            if amount
        ],
    }


def pool_words(club: Club, view: selectors.TournamentView) -> str:
    """How the prize pool is made, in words: only the paid fees are in it ("16 paid fees x
    90", each fee less the club's share)."""
    tournament = view.tournament
    if not tournament.entry_fee_minor or tournament.status == Tournament.Status.CANCELLED:
        return ""
    share = ltr_html(club_money(club, tournament.entry_fee_minor - tournament.club_fee_minor))
    words = ngettext("%(paid)s paid fee × %(share)s", "%(paid)s paid fees × %(share)s", view.paid)
    return sentence_html(words, {"paid": view.paid, "share": share})


# --- the list and the create form ----------------------------------------------------------------


def _list_page(
    request: HttpRequest, club: Club, *, error: dict | None = None, status: int = 200
) -> HttpResponse:
    chosen = request.GET.get("status") or ""
    try:
        found_list = list(selectors.tournament_list(club=club, status=chosen or None))
    except InvalidInput:
        chosen, found_list = "", list(selectors.tournament_list(club=club))
    presets = list(scoring_selectors.preset_list(club=club))
    return render_club(request, club, "tournaments/list.html", {
        "tournaments": found_list, "status": chosen, "statuses": Tournament.Status.choices,
        "presets": presets, "payouts": PAYOUT_WORDS.items(), "kinds": Tournament.Kind.choices,
        "seedings": Tournament.Seeding.choices, "error": error, "values": request.POST,
        "preview": _prize_lines(club, "by_field", 16, 0, 0),
    }, status=status)  # fmt: skip


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_list_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    if request.method != "POST":
        return _list_page(request, club_for_page(request, club_slug))
    club = club_for_page(request, club_slug, Role.ORGANISER)
    form = TournamentForm(request.POST)

    def create() -> HttpResponse:
        data = form.cleaned_data
        preset = found(scoring_selectors.preset_get, club=club, preset_id=data["preset"])
        tournament = tournament_create(
            club=club, actor=request.user, name=data["name"], kind=data["kind"], preset=preset,
            table_max=data["table_max"], table_min=data["table_min"],
            seeding=data["seeding"], avoid_same_club=data["avoid_same_club"],
            table_entry=data.get("table_entry") or "", max_entries=data.get("max_entries"),
            entry_fee_minor=to_minor(data["entry_fee"], club.minor_places) or 0,
            club_fee_minor=to_minor(data["club_fee"], club.minor_places) or 0,
            late_entry_until_round=data["late_entry_until_round"], payout=form.payout_value(),
            **settings_of_form(data, minor_places=club.minor_places),
        )  # fmt: skip
        messages.success(
            request, gettext("“%(name)s” is open for entries.") % {"name": tournament.name}
        )
        return redirect(_desk_url(club, tournament))

    page = partial(_list_page, request, club)
    return form_post(form, create, page, fields=set(TournamentForm.base_fields))


@login_required
@GET
def prize_preview(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The prizes of a payout structure for a field, as the create form previews them."""
    club = club_for_page(request, club_slug)
    if club.points_only:  # no prizes in money
        return render(request, "tournaments/_prizes.html", {"preview": {}, "club": club})
    query = request.GET
    payout: str | list[Any] = query.get("payout", "by_field")
    if payout == "custom":
        payout = [p for p in query.get("custom", "").replace(",", " ").split() if p]
    try:
        entries = max(0, min(10_000, int(query.get("entries") or 0)))
        fee = to_minor(Decimal(query.get("fee") or 0), club.minor_places) or 0
        club_fee = to_minor(Decimal(query.get("club_fee") or 0), club.minor_places) or 0
    except ArithmeticError:
        preview: dict[str, Any] = {"error": gettext("check the fees")}
    else:  # said in money, as typed: the rules would speak of minor units
        error = negative_fee_words(fee, club_fee, partial(club_money, club))
        preview = {"error": error} if error else _prize_lines(club, payout, entries, fee, club_fee)
    return render(request, "tournaments/_prizes.html", {"preview": preview})


# --- the director's desk -------------------------------------------------------------------------


def _grid_context(club: Club, tournament: Tournament, grid: selectors.Grid) -> dict[str, Any]:
    """What the results grid and the director's next step show, from the grid alone."""
    rounds = grid.rounds
    return {
        "tournament": tournament, "grid": grid, "kind": kind_for(tournament),
        "draft": next((r for r in rounds if r.status == Round.Status.DRAFT), None),
        "completed": [r for r in rounds if r.status == Round.Status.COMPLETE],
        "grid_url": club_url("tournament-grid", club, tournament.pk),
        "live_every": LIVE_EVERY,
    }  # fmt: skip


def places_shown(club: Club, view: selectors.TournamentView) -> list[dict[str, Any]]:
    return [
        {"place": e.place, "name": e.player.name, "prize": club_money(club, e.prize_won_minor),
         "won": e.prize_won_minor > 0,
         "tied": sum(1 for o in view.places if o.place == e.place) > 1,
         "player": e.player_id}
        for e in view.places
    ]  # fmt: skip


#: An entry's badge on the desk, by its status: in the field, waiting, or out.
_ENTRY_BADGES = {
    Entry.Status.CHECKED_IN: "good", Entry.Status.ACTIVE: "good",
    Entry.Status.WAITLISTED: "pending", Entry.Status.REGISTERED: "pending",
}  # fmt: skip
#: Who left and may be reinstated (the service refuses once the next round is drawn).
_LEFT = {Entry.Status.WITHDRAWN, Entry.Status.DISQUALIFIED}
_WITHDRAWABLE = {
    Entry.Status.REGISTERED,
    Entry.Status.CHECKED_IN,
    Entry.Status.WAITLISTED,
    Entry.Status.ACTIVE,
}


def _entry_rows(club: Club, tournament: Tournament, entries: list[Entry]) -> list[dict[str, Any]]:
    """The desk's list of entries, each with the actions open to it: a check-in while
    registration is open, a withdrawal while it is in the field or waiting. Built here, not in
    the template: at 240 entrants the template's lookups and 480 reversed URLs were most of the
    desk's time. The action URLs are the entry list's (``tournament-entry-add``) with the entry
    after it, as ``page_urls`` lays them out."""
    entries_url = reverse("tournament-entry-add", args=[club.slug, tournament.pk])
    registering = tournament.status == Tournament.Status.REGISTRATION
    settled = tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    return [
        {
            "pk": e.pk, "status": e.status, "name": e.player.name, "seed": e.seed,
            "status_words": e.get_status_display(), "badge": _ENTRY_BADGES.get(e.status, "muted"),
            "check_in_url": f"{entries_url}{e.pk}/check-in/"
            if registering and e.status == Entry.Status.REGISTERED else "",
            "withdraw_url": f"{entries_url}{e.pk}/withdraw/" if e.status in _WITHDRAWABLE else "",
            "reinstate_url": f"{entries_url}{e.pk}/reinstate/" if e.status in _LEFT else "",
            "paid": e.fee_status == Entry.FeeStatus.PAID, "payable": e.status in PAYABLE,
            "unpaid_url": f"{entries_url}{e.pk}/unpaid/"
            if e.fee_status == Entry.FeeStatus.PAID and not settled else "",
            "link_url": f"{entries_url}{e.pk}/link/", "claim": e.roster_claim,
            "online": e.self_signed_up,
        }
        for e in entries
    ]  # fmt: skip


def _desk_context(club: Club, tournament: Tournament) -> dict[str, Any]:
    desk = selectors.tournament_desk(tournament=tournament)
    context = _grid_context(club, tournament, desk.grid)
    draft = context["draft"]
    named = desk.names
    draft_tables = [
        {"number": t.number, "seats": [(p, named[p]) for p in t.players]}
        for t in (draft.tables if draft else [])
    ]
    context.update({
        "desk": desk, "view": desk.view,
        "entry_rows": _entry_rows(club, tournament, desk.view.entries),
        "entry_picker_url": player_picker_url(club, active=True),
        "draft_tables": draft_tables, "rounds": list(reversed(desk.view.rounds)),
        "draft_byes": [(p, named[p]) for p in (draft.byes if draft else [])],
        "fees": club_money(club, desk.fees_minor),
        "prize_pool": club_money(club, desk.view.prize_pool_minor),
        "pool_words": pool_words(club, desk.view),
        "preview": _prize_lines(
            club, tournament.payout, len(desk.view.counted), tournament.entry_fee_minor,
            tournament.club_fee_minor, paid=desk.view.paid,
        ),
        "places": places_shown(club, desk.view),
        # Who pays whom once the prizes are paid: the purse's organiser pays each winner (with
        # the winner's pay links); a club that plays for points only has no prizes to pay.
        "transfers": settle_up_rows(
            club, figures.session_settlement(session=tournament.session)
        ) if tournament.status == Tournament.Status.FINISHED and not club.points_only else [],
        "public_url": reverse("public-tournament", args=[club.slug, tournament.pk])
        if club.public_standings else "",
        "kind_panel": kind_panel(club, tournament, desk.view, draft_open=draft is not None),
        # The round a clock can be set for: the one being played.
        "clock_round": next(
            (r for r in reversed(desk.view.rounds) if r.status == Round.Status.RELEASED), None
        ),
    })  # fmt: skip
    return context


def kind_panel(
    club: Club, tournament: Tournament, view: selectors.TournamentView, *, draft_open: bool
) -> dict[str, Any] | None:
    """The panel of the tournament's kind (a chip-level one's chip counts), or ``None``."""
    return kind_for(tournament).panel(
        club=club, tournament=tournament, entries=view.entries, rounds=view.rounds,
        draft_open=draft_open,
    )  # fmt: skip


def _with_links(request: HttpRequest, club: Club, context: dict[str, Any]) -> dict[str, Any]:
    """The table links (their QR codes) on the grid's cells and the printed cards: for scorers
    and above only (a link enters that table's results; a player of the club must not get every
    table's)."""
    if not can(club, Role.SCORER):
        return context
    grid = context["grid"]
    cells = [cell for row in grid.cells.values() for cell in row if cell.table_id]
    links = table_links.table_links_live(tables=[cell.table_id for cell in cells])
    origin = f"{request.scheme}://{request.get_host()}"
    for cell in cells:
        link = links.get(cell.table_id)
        if link is not None and cell.state not in ("settled", "finished"):
            cell.link = table_links.link_card(link=link, origin=origin)
    current = next((r for r in reversed(grid.rounds) if r.status == Round.Status.RELEASED), None)
    context["current"] = current
    context["links_missing"] = current is not None and any(
        cell.link is None and cell.state not in ("settled", "finished")
        for cell in grid.cells.get(current.number, [])
    )
    context["table_entry"] = table_entry_of(context["tournament"])
    context["desk_url"] = _desk_url(club, context["tournament"])
    return context


def _desk_page(
    request: HttpRequest,
    club: Club,
    tournament: Tournament,
    *,
    error: dict | None = None,
    form_name: str = "",
    status: int = 200,
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    context = _with_links(request, club, _desk_context(club, tournament))
    context.update(registration_context(request, club, tournament, context["view"]))
    context.update(error=error, form_name=form_name, values=request.POST, **(extra or {}))
    return render_club(request, club, "tournaments/desk.html", context, status=status)


@login_required
@GET
def tournament_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    tournament = found(selectors.tournament_get, club=club, tournament_id=tournament_id)
    return _desk_page(request, club, tournament)


@login_required
@GET
def tournament_grid(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The results grid alone, for the desk's live part."""
    club = club_for_page(request, club_slug)
    tournament = found(selectors.tournament_get, club=club, tournament_id=tournament_id)
    grid = selectors.tournament_grid(tournament=tournament)
    context = _with_links(request, club, _grid_context(club, tournament, grid))
    response = render_club(request, club, "tournaments/_grid.html", context)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        response["X-Live-Stop"] = "1"
    return response


def _action(request: HttpRequest, club_slug: str, tournament_id: int, form_name: str, form: Any,
            write: Any, done: str) -> HttpResponse:  # fmt: skip
    """A desk button or form: ``write(club, tournament, data)`` through a service; the desk
    again with the refusal, or a redirect to it with ``done`` said."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    tournament = found(selectors.tournament_get, club=club, tournament_id=tournament_id)

    def run() -> HttpResponse:
        said = write(club, tournament, form.cleaned_data if form is not None else {})
        messages.success(request, said or done)
        return redirect(_desk_url(club, tournament) + f"#{form_name}")

    page = partial(_desk_page, request, club, tournament, form_name=form_name)
    fields = set(type(form).base_fields) if form is not None else set()
    return form_post(form, run, page, fields=fields)


@login_required
@require_POST
def entry_add_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    def add(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        player = None
        if data.get("player"):
            player = found(club_selectors.player_get, club=club, player_id=data["player"])
        else:
            name = name_checked(data["name"])
            player = club_selectors.player_named(
                club=club, name=name
            ) or club_services.player_create(club=club, actor=request.user, name=name)
        entry = entry_add(
            tournament=tournament, actor=request.user, player=player,
            affiliation=data.get("affiliation") or "", paid=bool(data.get("paid")),
        )  # fmt: skip
        paid = entry.fee_status == Entry.FeeStatus.PAID
        return desk_words.entry_added(player.name, entry.get_status_display(), paid)

    form = EntryForm(request.POST)
    return _action(request, club_slug, tournament_id, "entries", form, add, "")


@login_required
@require_POST
def entry_check_in_page(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    def check_in(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        entry = entry_check_in(tournament=tournament, actor=request.user, entry_id=entry_id)
        return desk_words.checked_in(entry.player.name)

    return _action(request, club_slug, tournament_id, "entries", None, check_in, "")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def entry_withdraw_page(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    """Withdraw (or disqualify) an entrant, asked first: this page says what it does, and only
    its confirmed form withdraws (a post without the confirmation shows the page again)."""
    if request.method == "POST" and request.POST.get("confirm") == "1":

        def withdraw(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
            entry = entry_withdraw(
                tournament=tournament, actor=request.user, entry_id=entry_id,
                disqualify=request.POST.get("disqualify") == "1",
                remarks=request.POST.get("remarks", "")[:200],
            )  # fmt: skip
            return desk_words.withdrawn(entry.player.name, entry.get_status_display())

        return _action(request, club_slug, tournament_id, "entries", None, withdraw, "")
    club = club_for_page(request, club_slug, Role.ORGANISER)
    tournament = found(selectors.tournament_get, club=club, tournament_id=tournament_id)
    entry = found(selectors.entry_get, tournament=tournament, entry_id=entry_id)
    return render_club(request, club, "tournaments/withdraw.html", {
        "tournament": tournament, "entry": entry, "desk_url": _desk_url(club, tournament),
        "before_start": tournament.status == Tournament.Status.REGISTRATION,
    })  # fmt: skip


@login_required
@require_POST
def entry_reinstate_page(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    def reinstate(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        entry = entry_reinstate(tournament=tournament, actor=request.user, entry_id=entry_id)
        return desk_words.reinstated(entry.player.name, entry.get_status_display())

    return _action(request, club_slug, tournament_id, "entries", None, reinstate, "")


@login_required
@require_POST
def entry_rebuy_page(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    def rebuy(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        entry = entry_rebuy(tournament=tournament, actor=request.user, entry_id=entry_id)
        return desk_words.bought_back(entry.player.name)

    return _action(request, club_slug, tournament_id, "chips", None, rebuy, "")


@login_required
@require_POST
def start_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    def start(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        tournament_start(tournament=tournament, actor=request.user)
        return desk_words.started()

    return _action(request, club_slug, tournament_id, "draw", None, start, "")


@login_required
@require_POST
def swap_page(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    def swap(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        round_swap(
            tournament=tournament, actor=request.user, number=number, first=data["first"],
            second=data["second"],
        )  # fmt: skip
        return desk_words.swapped()

    return _action(request, club_slug, tournament_id, "draw", SwapForm(request.POST), swap, "")


@login_required
@require_POST
def release_page(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    def release(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        round_release(tournament=tournament, actor=request.user, number=number)
        return desk_words.released(number)

    return _action(request, club_slug, tournament_id, "grid", None, release, "")


@login_required
@require_POST
def round_clock_page(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    """Set the round clock (minutes from now) or, with ``clear``, take it off."""

    def clock(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        minutes = None if request.POST.get("clear") else data.get("minutes")
        if minutes is None and not request.POST.get("clear"):
            raise InvalidInput("minutes: " + gettext("say in how many minutes the round ends"))
        played = round_clock_set(
            tournament=tournament, actor=request.user, number=number, minutes=minutes
        )
        if played.ends_at is None:
            return desk_words.clock_off(number)
        with timezone.override(club.timezone):
            ends = timezone.localtime(played.ends_at).strftime("%H:%M")
        return desk_words.clock_ends(number, ends)

    form = RoundClockForm(request.POST)
    return _action(request, club_slug, tournament_id, "clock", form, clock, "")


@login_required
@require_POST
def unwind_page(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    def unwind(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        rounds_unwind(
            tournament=tournament, actor=request.user, number=number, confirm=data["confirm"]
        )
        return desk_words.unwound(number)

    form = UnwindForm(request.POST)
    return _action(request, club_slug, tournament_id, "grid", form, unwind, "")


@login_required
@require_POST
def cancel_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    def cancel(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        tournament_cancel(tournament=tournament, actor=request.user)
        return desk_words.cancelled()

    return _action(request, club_slug, tournament_id, "manage", None, cancel, "")


@login_required
@GET
def table_cards(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    """A round's table cards to print (one a page) and its seat list sorted by name."""
    club = club_for_page(request, club_slug)
    tournament = found(selectors.tournament_get, club=club, tournament_id=tournament_id)
    grid = selectors.tournament_grid(tournament=tournament)
    cells = grid.cells.get(number)
    if cells is None:
        return _desk_page(
            request, club, tournament, status=404,
            error=error_context(InvalidInput(gettext("round %(n)s is not drawn") % {"n": number})),
        )  # fmt: skip
    seats = sorted(
        (
            {"name": name, "table": cell.number, "seat": seat}
            for cell in cells
            for seat, name in enumerate(cell.names, start=1)
        ),
        key=lambda s: (str(s["name"]).lower(), s["table"]),
    )
    played = next(r for r in grid.rounds if r.number == number)
    context = _with_links(request, club, {"grid": grid, "tournament": tournament})
    return render_club(request, club, "tournaments/cards.html", {
        **context, "cells": cells, "seats": seats, "round": played,
    })  # fmt: skip


@login_required
@require_POST
def round_links_page(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    """Every table of the round being played gets its link (those with one keep theirs)."""

    def make(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        links = round_links_ensure(tournament=tournament, actor=request.user, number=number)
        return desk_words.links_ready(number, len(links))

    return _action(request, club_slug, tournament_id, "grid", None, make, "")
