"""Tournament pages: the list and the create form, the director's desk (registration, the draw,
the results grid, places and prizes), printable table cards, and the public view with its
projector. Every write goes through ``tournaments.services``; every figure through the
selectors, as in the API."""

from __future__ import annotations

import time
from decimal import Decimal
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.models import Club, Role
from clubs.page_kit.display import club_money, qr_svg
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
from config.names import visible_name
from live.fragments import public_fragment
from rules import prizes
from rules.errors import RuleViolation
from scoring import selectors as scoring_selectors
from scoring import table_links
from scoring.forms import to_minor
from scoring.views.standings import PROJECTOR_JUST_NOW, projector_turn
from tournaments import selectors
from tournaments.figures import field_prize_pool
from tournaments.forms import (
    PAYOUT_WORDS,
    EntryForm,
    RoundClockForm,
    SwapForm,
    TournamentForm,
    UnwindForm,
)
from tournaments.models import Entry, Round, Tournament
from tournaments.services.chips import entry_rebuy
from tournaments.services.chips import rules_of as chip_rules_of
from tournaments.services.corrections import rounds_unwind
from tournaments.services.draws import round_clock_set, round_release, round_swap
from tournaments.services.entries import entry_add, entry_check_in, entry_withdraw
from tournaments.services.links import round_links_ensure, table_entry_of
from tournaments.services.setup import tournament_cancel, tournament_create, tournament_start

#: How often the live parts poll, in seconds.
LIVE_EVERY = 5


def _desk_url(club: Club, tournament: Tournament) -> str:
    return club_url("tournament-page", club, tournament.pk)


def _prize_lines(
    club: Club, payout: str | list[Any], entries: int, fee_minor: int, club_fee_minor: int
) -> dict[str, Any]:
    """The prizes a field of ``entries`` would pay, place by place, as a page shows them."""
    try:
        pool = field_prize_pool(
            entrants=entries, entry_fee_minor=fee_minor, club_fee_minor=club_fee_minor
        )
        amounts = prizes.place_amounts(pool, prizes.payout_percentages(payout, entries))
    except RuleViolation as exc:
        return {"error": exc.message, "lines": [], "pool": ""}
    return {
        "error": "",
        "entries": entries,
        "pool": club_money(club, pool),
        "lines": [
            {"place": place, "amount": club_money(club, amount)}
            for place, amount in enumerate(amounts, start=1)
            if amount
        ],
    }


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
        rebuy_price = to_minor(data.get("rebuy_price"), club.minor_places)
        tournament = tournament_create(
            club=club, actor=request.user, name=data["name"], kind=data["kind"], preset=preset,
            table_max=data["table_max"], table_min=data["table_min"],
            advance_per_table=data["advance_per_table"], rounds=data["rounds"], cut=data["cut"],
            seeding=data["seeding"], avoid_same_club=data["avoid_same_club"],
            table_entry=data.get("table_entry") or "", max_entries=data.get("max_entries"),
            entry_fee_minor=to_minor(data["entry_fee"], club.minor_places) or 0,
            club_fee_minor=to_minor(data["club_fee"], club.minor_places) or 0,
            late_entry_until_round=data["late_entry_until_round"], payout=form.payout_value(),
            chip_levels=form.chip_levels_value(rebuy_price),
        )  # fmt: skip
        messages.success(request, f"“{tournament.name}” is open for entries.")
        return redirect(_desk_url(club, tournament))

    page = partial(_list_page, request, club)
    return form_post(form, create, page, fields=set(TournamentForm.base_fields))


@login_required
@GET
def prize_preview(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The prizes of a payout structure for a field, as the create form previews them."""
    club = club_for_page(request, club_slug)
    query = request.GET
    payout: str | list[Any] = query.get("payout", "by_field")
    if payout == "custom":
        payout = [p for p in query.get("custom", "").replace(",", " ").split() if p]
    try:
        entries = max(0, min(10_000, int(query.get("entries") or 0)))
        fee = to_minor(Decimal(query.get("fee") or 0), club.minor_places) or 0
        club_fee = to_minor(Decimal(query.get("club_fee") or 0), club.minor_places) or 0
    except ArithmeticError:
        return render(request, "tournaments/_prizes.html", {"preview": {"error": "check the fees"}})
    # Said in money, as typed: the rules would speak of minor units.
    for label, amount in (("entry fee", fee), ("club's fee an entry", club_fee)):
        if amount < 0:
            error = f"The {label} cannot be negative (it reads {club_money(club, amount)})."
            return render(request, "tournaments/_prizes.html", {"preview": {"error": error}})
    return render(request, "tournaments/_prizes.html", {
        "preview": _prize_lines(club, payout, entries, fee, club_fee),
    })  # fmt: skip


# --- the director's desk -------------------------------------------------------------------------


def _grid_context(club: Club, tournament: Tournament, grid: selectors.Grid) -> dict[str, Any]:
    """What the results grid and the director's next step show, from the grid alone."""
    rounds = grid.rounds
    return {
        "tournament": tournament, "grid": grid,
        "draft": next((r for r in rounds if r.status == Round.Status.DRAFT), None),
        "completed": [r for r in rounds if r.status == Round.Status.COMPLETE],
        "grid_url": club_url("tournament-grid", club, tournament.pk),
        "live_every": LIVE_EVERY,
    }  # fmt: skip


def _places(club: Club, view: selectors.TournamentView) -> list[dict[str, Any]]:
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
    return [
        {
            "pk": e.pk, "status": e.status, "name": e.player.name, "seed": e.seed,
            "status_words": e.get_status_display(), "badge": _ENTRY_BADGES.get(e.status, "muted"),
            "check_in_url": f"{entries_url}{e.pk}/check-in/"
            if registering and e.status == Entry.Status.REGISTERED else "",
            "withdraw_url": f"{entries_url}{e.pk}/withdraw/" if e.status in _WITHDRAWABLE else "",
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
        "preview": _prize_lines(
            club, tournament.payout, len(desk.view.counted), tournament.entry_fee_minor,
            tournament.club_fee_minor,
        ),
        "places": _places(club, desk.view),
        "public_url": reverse("public-tournament", args=[club.slug, tournament.pk])
        if club.public_standings else "",
        "chips": _chip_rows(club, tournament, desk.view, draft),
        # The round a clock can be set for: the one being played.
        "clock_round": next(
            (r for r in reversed(desk.view.rounds) if r.status == Round.Status.RELEASED), None
        ),
    })  # fmt: skip
    return context


def _chip_status(entry: Entry, last: Any) -> str:
    """An entrant's standing in words: out, at the final table, gone on from the last level
    played (and waiting for the next), or playing."""
    if entry.status != Entry.Status.ACTIVE or last is None:
        return entry.get_status_display()
    if last.stage == Round.Stage.FINAL:
        return f"Final table, place {entry.place}" if entry.place else "Final table"
    return "Went on" if entry.player_id in last.advanced else entry.get_status_display()


def _chip_rows(
    club: Club, tournament: Tournament, view: selectors.TournamentView, draft: Any
) -> dict[str, Any] | None:
    """A chip-level tournament's chip counts, most first, and its levels in words; a rebuy is
    offered to those knocked out at the end of the last level while the next round is drawn
    (the service says why when it is not allowed)."""
    if tournament.kind != Tournament.Kind.CHIPS:
        return None
    rules = chip_rules_of(tournament)
    last = next((r for r in reversed(view.rounds) if r.status == Round.Status.COMPLETE), None)
    offer = rules.rebuys > 0 and draft is not None and last is not None
    rows = [
        {
            "entry": e.pk,
            "name": e.player.name,
            "chips": e.chips or 0,
            "status": e.status,
            "status_words": _chip_status(e, last),
            "rebuys": e.rebuys,
            "rebuy": offer
            and e.status == Entry.Status.ELIMINATED
            and last is not None
            and e.out_in_round == last.number
            and e.rebuys < rules.rebuys,
        }
        for e in view.entries
        if e.chips is not None and e.seed is not None
    ]
    rows.sort(key=lambda r: (r["status"] != Entry.Status.ACTIVE, -r["chips"], r["name"]))
    current = view.rounds[-1] if view.rounds else None
    return {
        "rows": rows,
        "level": current.level if current else None,
        "levels": [
            {"number": n, "value": lv.point_value, "minimum": lv.minimum, "qualify": lv.qualify}
            for n, lv in enumerate(rules.levels, start=1)
        ],
        "starting": rules.starting_chips,
        "rebuys": rules.rebuys,
        "rebuy_price": club_money(club, rules.rebuy_price_minor),
        "rebuy_chips": rules.rebuy_chips,
        "rebuy_until": rules.rebuy_until_level,
    }  # fmt: skip


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
) -> HttpResponse:
    context = _with_links(request, club, _desk_context(club, tournament))
    context.update(error=error, form_name=form_name, values=request.POST)
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
            name = visible_name(data["name"])
            player = club_selectors.player_named(
                club=club, name=name
            ) or club_services.player_create(club=club, actor=request.user, name=name)
        entry = entry_add(
            tournament=tournament, actor=request.user, player=player,
            affiliation=data.get("affiliation") or "",
        )  # fmt: skip
        return f"{player.name} is {entry.get_status_display().lower()}."

    form = EntryForm(request.POST)
    return _action(request, club_slug, tournament_id, "entries", form, add, "")


@login_required
@require_POST
def entry_check_in_page(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    def check_in(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        entry = entry_check_in(tournament=tournament, actor=request.user, entry_id=entry_id)
        return f"{entry.player.name} is checked in."

    return _action(request, club_slug, tournament_id, "entries", None, check_in, "")


@login_required
@require_POST
def entry_withdraw_page(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    def withdraw(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        entry = entry_withdraw(
            tournament=tournament, actor=request.user, entry_id=entry_id,
            disqualify=request.POST.get("disqualify") == "1",
            remarks=request.POST.get("remarks", "")[:200],
        )  # fmt: skip
        return f"{entry.player.name}: {entry.get_status_display().lower()}."

    return _action(request, club_slug, tournament_id, "entries", None, withdraw, "")


@login_required
@require_POST
def entry_rebuy_page(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    def rebuy(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        entry = entry_rebuy(tournament=tournament, actor=request.user, entry_id=entry_id)
        return f"{entry.player.name} bought back in and is drawn in the next round."

    return _action(request, club_slug, tournament_id, "chips", None, rebuy, "")


@login_required
@require_POST
def start_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    def start(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        tournament_start(tournament=tournament, actor=request.user)
        return "The entries are closed and round 1 is drawn: look at the draw, then release it."

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
        return "Swapped."

    return _action(request, club_slug, tournament_id, "draw", SwapForm(request.POST), swap, "")


@login_required
@require_POST
def release_page(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    def release(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        round_release(tournament=tournament, actor=request.user, number=number)
        return f"Round {number} is released: its tables are open for deals."

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
            raise InvalidInput("minutes: say in how many minutes the round ends")
        played = round_clock_set(
            tournament=tournament, actor=request.user, number=number, minutes=minutes
        )
        if played.ends_at is None:
            return f"Round {number} has no clock."
        with timezone.override(club.timezone):
            ends = timezone.localtime(played.ends_at).strftime("%H:%M")
        return f"Round {number} ends at {ends}: the projector counts down to it."

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
        return f"The rounds after round {number} are taken out: its tables can be corrected."

    form = UnwindForm(request.POST)
    return _action(request, club_slug, tournament_id, "grid", form, unwind, "")


@login_required
@require_POST
def cancel_page(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    def cancel(club: Club, tournament: Tournament, data: dict[str, Any]) -> str:
        tournament_cancel(tournament=tournament, actor=request.user)
        return "The tournament is cancelled; every entry fee went back."

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
            error=error_context(InvalidInput(f"round {number} is not drawn")),
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
        return f"Round {number}: {len(links)} table links ready."

    return _action(request, club_slug, tournament_id, "grid", None, make, "")


# --- public --------------------------------------------------------------------------------------


def _public(club_slug: str, tournament_id: int) -> tuple[Club, Tournament]:
    club = found(club_selectors.club_get_public, slug=club_slug)
    tournament = found(selectors.tournament_get, club=club, tournament_id=tournament_id)
    return club, tournament


def _public_context(request: HttpRequest, club: Club, tournament: Tournament) -> dict[str, Any]:
    """What the public page, its live part and the projector show: the field's figures, the
    places and the grid (not the desk's fees, draw costs or prize previews)."""
    view = selectors.tournament_view(tournament=tournament)
    grid = selectors.tournament_grid(tournament=tournament, view=view)
    still_in = [
        e.player.name
        for e in view.entries
        if e.status in (Entry.Status.ACTIVE, Entry.Status.CHECKED_IN, Entry.Status.REGISTERED)
    ]
    current = view.rounds[-1] if view.rounds else None
    context = {
        "tournament": tournament, "view": view, "grid": grid, "club": club, "public": True,
        "prize_pool": club_money(club, view.prize_pool_minor), "places": _places(club, view),
        "current": current, "current_cells": grid.cells.get(current.number, []) if current else [],
        "still_in": sorted(still_in, key=str.lower), "live_every": LIVE_EVERY,
        "live_url": reverse("public-tournament-live", args=[club.slug, tournament.pk]),
        # "Where do I sit" offers the entries that count (not one withdrawn before the start).
        "pickable": [(e.player_id, e.player.name) for e in view.counted],
        # Chip counts, where the kind has them (no rebuy is offered here: that is the desk's).
        "chips": _chip_rows(club, tournament, view, draft=None),
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


def _render_public(request: HttpRequest, club: Club, template: str, context: dict[str, Any]
                   ) -> HttpResponse:  # fmt: skip
    with timezone.override(club.timezone):
        response = render(request, template, context)
    if context["tournament"].status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        response["X-Live-Stop"] = "1"
    return response


@GET
def public_tournament(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    club, tournament = _public(club_slug, tournament_id)
    context = _public_context(request, club, tournament)
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
    }  # fmt: skip


@public_fragment
@GET
def public_tournament_live(
    request: HttpRequest, club_slug: str, tournament_id: int
) -> HttpResponse:
    club, tournament = _public(club_slug, tournament_id)
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
    club, tournament = _public(club_slug, tournament_id)
    context = _public_context(request, club, tournament)
    context.update(_projector_context(request, context))
    public = reverse("public-tournament", args=[club.slug, tournament.pk])
    context["qr"] = qr_svg(request.build_absolute_uri(public))
    return _render_public(request, club, "tournaments/projector.html", context)
