"""Game pages: starting a game at a table, the game page with its deals and format panel, and what
an organiser does to a game (add a seat, a pool rejoin or split, finish it)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs.models import Club, Role
from clubs.page_kit.display import club_money, ltr_html, sentence_html, signed_number
from clubs.page_kit.pages import (
    GET,
    club_for_page,
    club_url,
    error_context,
    form_post,
    form_problem,
    found,
    player_picker_url,
    render_club,
    service_status,
)
from config.errors import ServiceError
from ledger.models import Quantity
from scoring import figures, games, selectors, table_links, undo
from scoring.formats import FORMAT_ORDER, Column, GameEnd, GameFormatHandler, handler_for
from scoring.formats.pool import moves
from scoring.formats.pool.forms import RejoinForm, SplitForm
from scoring.formats.pool.pages import pool_points, rejoin_reason
from scoring.forms import GameForm, SeatAddForm, to_minor
from scoring.models import Deal, Game, Seat, Submission
from scoring.preset_rules import game_rules
from scoring.selectors import DealRow
from scoring.views.common import deal_status
from scoring.views.panels import game_panel

# A service's refusal names its argument; the page marks the form field it came from (a field
# per seat for ``players``).
GAME_FORM_FIELDS = {
    "players": "seat_1", "point_value_minor": "point_value", "entry_fee_minor": "entry_fee"
}  # fmt: skip


def _game_form(club: Club, data: Any = None) -> GameForm:
    presets = selectors.preset_list(club=club)
    seats = max([6, *[game_rules(p).max_players for p in presets if _rules_ok(p)]])
    # The club's own presets first, then the built-in ones, each in the usual order of formats.
    presets.sort(key=lambda p: (p.club_id is None, FORMAT_ORDER.index(p.format), p.name))
    return GameForm(
        data,
        presets=[
            (str(p.pk), f"{p.shown_name} · {p.get_format_display()} (v{p.version})")
            for p in presets
        ],
        seats=min(seats, 12),
        places=club.minor_places,
    )


def _rules_ok(preset: Any) -> bool:
    try:
        game_rules(preset)
    except ServiceError:
        return False
    return True


def _game_new_page(
    request: HttpRequest,
    club: Club,
    table: Any,
    form: GameForm,
    *,
    error: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    if error is not None:
        error["field"] = GAME_FORM_FIELDS.get(error["field"], error["field"])
    context = {
        "table": table,
        "session": table.session,
        "form": form,
        "error": error,
        "seat_picker_url": player_picker_url(club, active=True),
    }
    return render_club(request, club, "scoring/game_new.html", context, status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HttpRequest, club_slug: str, table_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    table = found(selectors.table_get, club=club, table_id=table_id)
    if request.method != "POST":
        return _game_new_page(request, club, table, _game_form(club))
    form = _game_form(club, request.POST)

    def create() -> HttpResponse:
        preset = selectors.preset_get(club=club, preset_id=int(form.cleaned_data["preset"]))
        players = [
            club_selectors.player_pick(
                club=club, field=field, player_id=player_id, name=name, active=True
            )
            for field, player_id, name in form.seats_taken()
        ]
        game = games.game_create(
            table=table,
            actor=request.user,
            preset=preset,
            players=players,
            point_value_minor=to_minor(form.cleaned_data.get("point_value"), club.minor_places),
            entry_fee_minor=to_minor(form.cleaned_data.get("entry_fee"), club.minor_places),
        )
        messages.success(request, _("The game is on. Enter the first deal when it is played."))
        return redirect(club_url("game-page", club, game.pk))

    page = partial(_game_new_page, request, club, table, form)
    fields = {"preset", "players", "point_value", "entry_fee", *form.fields}
    return form_post(form, create, page, fields=fields)


def _figure(club: Club, column: Column, value: int) -> str:
    if column.quantity == Quantity.MONEY:
        return club_money(club, value, signed=True)
    return signed_number(value)


def _next_words(unit: str, *, correct: bool, tiebreaker: bool) -> str:
    """The next-step button's words, a whole sentence for each case (``%(number)s`` left in)."""
    if tiebreaker:
        return _("Correct the tie-breaker deal") if correct else _("Enter the tie-breaker deal")
    if unit == "game":
        return _("Correct game %(number)s") if correct else _("Enter game %(number)s")
    return _("Correct deal %(number)s") if correct else _("Enter deal %(number)s")


def _next_action(
    club: Club, game: Game, last: selectors.DealRow | None, state: Any
) -> dict[str, str] | None:
    """The one thing to do next at an open game (``last``: its newest deal): enter (or
    correct) the waiting deal, play the tie-breaker deal, or enter the next deal."""
    handler = handler_for(game)
    unit = handler.words.unit
    if (
        last is not None
        and last.deal.status == Deal.Status.OPEN
        and (last.latest is None or last.latest.status == Submission.Status.REJECTED)
    ):
        label = _next_words(
            unit, correct=last.latest is not None, tiebreaker=last.deal.is_tiebreaker
        )
        return {
            "label": label % {"number": last.deal.number},
            "url": club_url("deal-result", club, last.deal.pk),
        }
    if handler.tiebreaker_due(state=state):
        return {
            "label": _("Play the tie-breaker deal"),
            "url": club_url("deal-tiebreaker", club, game.pk),
        }
    if last is None or last.deal.status in (Deal.Status.FINAL, Deal.Status.VOID):
        number = (last.deal.number + 1) if last else 1
        label = _next_words(unit, correct=False, tiebreaker=False) % {"number": number}
        return {"label": label, "url": club_url("deal-new", club, game.pk)}
    return None


def _game_page(
    request: HttpRequest,
    club: Club,
    game_id: int,
    *,
    error: dict[str, str] | None = None,
    form_name: str = "",
    status: int = 200,
) -> HttpResponse:
    game = found(selectors.game_get, club=club, game_id=game_id)
    handler = handler_for(game)
    seats = list(game.seats.all())
    # A page of the deals, newest first: what is being played now comes first, and the page
    # costs the same whatever the length of the game.
    deals = selectors.game_deal_page(game=game, page=request.GET.get("page"))
    state = selectors.game_state(game=game)
    rules = game_rules(game.preset)
    open_game = game.status == Game.Status.OPEN and game.table.session.status == "open"
    totals = figures.game_totals(game=game)
    columns = [
        column
        for column in handler.columns
        if column.quantity != Quantity.MONEY
        or (not club.points_only and any(t[column.key] for t in totals.values()))
    ]
    panel = game_panel(club, game, state, open_game)
    context = {
        "game": game,
        "words": handler.words,
        "session": game.table.session,
        "table": game.table,
        "seats": _seat_figures(club, seats, columns, totals),
        "columns": columns,
        "deal_rows": _deal_rows(club, handler, seats, deals.rows),
        "page": deals.page,
        "has_money": not club.points_only and handler.deal_money(game=game, rules=rules),
        "deal_note": _(handler.deal_note(rules=rules)),
        "point_value": club_money(club, game.point_value_minor),
        "next_action": _next_action(club, game, deals.newest, state) if open_game else None,
        "open_game": open_game,
        "panel": panel,
        "unit": handler.words.unit,
        "endings": selectors.game_endings(game=game) if open_game else [],
        "end_label": _(handler.words.finish) if handler.words.finish else "",
        # A type-ahead over the roster: a club's roster is too long to list on the page.
        "seat_picker_url": player_picker_url(club, active=True)
        if open_game and handler.seats_open
        else "",
        "seat_value": request.POST.get("player_name", "") if form_name == "seat" else "",
        "seat_invalid": form_name == "seat" and bool(error),
        "can_leave": open_game and handler.seats_open and len(seats) > 2,
        "can_delete_game": not deals.page.paginator.count
        and not selectors.game_has_entries(game=game),
        "error": error,
        "form_name": form_name,
        # The table card: the table's own link (its QR code), where one is live.
        "link_card": _link_card(request, game.table_id) if open_game else None,
        "table_entry": table_links.night_table_entry(club=club),
    }
    return render_club(request, club, "scoring/game.html", context, status)


def _deal_rows(
    club: Club, handler: GameFormatHandler, seats: list[Seat], rows: list[DealRow]
) -> list[dict[str, Any]]:
    """The deals of a page, ready to print: fifty rows of lookups and number formatting are most
    of the page."""
    deal_rows = []
    for row in rows:
        cells = []
        for seat in seats:
            pid = seat.player_id
            points = row.points.get(pid)
            outcome = row.outcomes.get(pid)
            shown = points
            if points is not None and handler.words.signed_points:
                shown = signed_number(points)
            cells.append(
                {
                    "points": None if shown is None else str(shown),
                    "won": outcome == "winner",
                    "money": club_money(club, row.money_minor[pid], signed=True)
                    if pid in row.money_minor and not club.points_only
                    else "",
                }
            )
        deal = row.deal
        deal_rows.append(
            {
                "number": str(deal.number),
                "voided": deal.status == Deal.Status.VOID,
                "tiebreaker": deal.is_tiebreaker,
                "version": f"v{row.latest.version}" if row.latest and row.versions > 1 else "",
                "status": deal_status(deal, row.latest),
                "cells": cells,
                "url": club_url("deal-page", club, deal.pk),
            }
        )
    return deal_rows


def _seat_figures(
    club: Club, seats: list[Seat], columns: list[Column], totals: dict[int, dict[str, int]]
) -> list[dict[str, Any]]:
    """Each seat with its figures in the game, one a column."""
    return [
        {
            "seat": seat,
            "figures": [
                {
                    "text": _figure(club, column, totals[seat.player_id][column.key]),
                    "value": totals[seat.player_id][column.key],
                    "key": column.key,
                }
                for column in columns
            ],
        }
        for seat in seats
    ]


def _link_card(request: HttpRequest, table_id: int) -> table_links.LinkCard | None:
    link = table_links.table_links_live(tables=[table_id]).get(table_id)
    origin = f"{request.scheme}://{request.get_host()}"
    return table_links.link_card(link=link, origin=origin) if link is not None else None


@login_required
@GET
def game_page(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    return _game_page(request, club_for_page(request, club_slug), game_id)


@login_required
@require_POST
def seat_add(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    form = SeatAddForm(request.POST)

    def add() -> HttpResponse:
        player = club_selectors.player_pick(
            club=club,
            field="player",
            player_id=form.cleaned_data["player"],
            name=form.cleaned_data["player_name"],
            active=True,
        )
        seat = games.seat_add(game=game, actor=request.user, player=player)
        messages.success(
            request,
            _("%(name)s sits at seat %(seat)s.")
            % {"name": seat.player.name, "seat": seat.position},
        )
        return redirect(club_url("game-page", club, game.pk))

    page = partial(_game_page, request, club, game_id, form_name="seat")
    return form_post(form, add, page, fields={"player"})


@login_required
@require_POST
def pool_rejoin(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """An eliminated pool player buys in again."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    form = RejoinForm(request.POST)
    if not form.is_valid():
        return _game_page(
            request, club, game_id, error=form_problem(form), form_name="rejoin", status=400
        )
    try:
        player = club_selectors.player_get(club=club, player_id=form.cleaned_data["player"])
        score = moves.pool_rejoin(game=game, actor=request.user, player=player)
    except ServiceError as exc:
        error = error_context(exc)
        names = {seat.player_id: seat.player.name for seat in game.seats.all()}
        error["message"] = rejoin_reason(exc.code, exc.message, exc.details, names)
        return _game_page(
            request, club, game_id, error=error, form_name="rejoin", status=service_status(exc)
        )
    back = {"name": player.name, "score": ltr_html(pool_points(score))}
    if game.entry_fee_minor:
        back["fee"] = ltr_html(club_money(club, game.entry_fee_minor))
        said = _("%(name)s is back in at %(score)s, paying %(fee)s again.")
    else:
        said = _("%(name)s is back in at %(score)s.")
    messages.success(request, sentence_html(said, back))
    return redirect(club_url("game-page", club, game.pk) + "#pool")


@login_required
@require_POST
def pool_split(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """Record a split every remaining player agrees to; the game pays out and ends."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    remaining = selectors.deal_entry_players(game=game)
    form = SplitForm(request.POST, remaining=list(remaining.items()))

    def split() -> HttpResponse:
        agreed = [club_selectors.player_get(club=club, player_id=pid) for pid in form.agreed_ids()]
        shares = moves.pool_split(
            game=game, actor=request.user, kind=form.cleaned_data["kind"], agreed=agreed
        )
        paid = format_html_join(
            ", ",
            '<bdi>{}</bdi> <bdi class="ltr">{}</bdi>',
            ((remaining.get(pid, pid), club_money(club, amount)) for pid, amount in shares.items()),
        )
        said = _("The split is recorded and the game is over: %(shares)s.")
        messages.success(request, sentence_html(said, {"shares": paid}))
        return redirect(club_url("game-page", club, game.pk))

    return form_post(form, split, partial(_game_page, request, club, game_id, form_name="split"))


@login_required
@require_POST
def game_finish(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """End a game by hand, one of the ways its format offers (``end``): close a points table,
    finish a Rummikub match (International settles), abandon a pool or deals game (its pot is
    refunded)."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    end = request.POST.get("end") or GameEnd.BY_ORGANISER

    def finish() -> HttpResponse:
        ended = games.game_finish(game=game, actor=request.user, end=end)
        words = handler_for(ended).words
        done = _(words.finished) if ended.end != GameEnd.ABANDONED else _("The game is stopped.")
        if ended.end == GameEnd.ABANDONED and ended.entry_fee_minor:
            done += " " + _("Every entry fee went back to who paid it.")
        messages.success(request, done)
        return redirect(club_url("game-page", club, game.pk))

    return form_post(None, finish, partial(_game_page, request, club, game_id, form_name="finish"))


@login_required
@require_POST
def seat_remove(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """A player leaves a points table between deals."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    form = SeatAddForm(request.POST)

    def leave() -> HttpResponse:
        player = club_selectors.player_get(club=club, player_id=form.cleaned_data["player"])
        games.seat_remove(game=game, actor=request.user, player=player)
        messages.success(
            request,
            _("%(name)s left the table; what they won or lost stays.") % {"name": player.name},
        )
        return redirect(club_url("game-page", club, game.pk))

    page = partial(_game_page, request, club, game_id, form_name="leave")
    return form_post(form, leave, page, fields={"player"})


@login_required
@require_POST
def game_delete(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """Delete a game set up by mistake (no deal, no fee)."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = found(selectors.game_get, club=club, game_id=game_id)

    def delete() -> HttpResponse:
        undo.game_delete(game=game, actor=request.user)
        messages.success(request, _("The game is deleted."))
        return redirect(club_url("session-page", club, game.table.session_id))

    return form_post(None, delete, partial(_game_page, request, club, game_id, form_name="finish"))
