"""Pages of a club night: sessions, tables, games, deal entry and corrections, the live
scoreboard, settle-up, CSV export, and the public standings. Every write goes through
``scoring.services`` (or ``submission_confirm``), every read through the selectors; a service's
refusal is shown on the page with its message."""

from __future__ import annotations

import csv
import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs.models import Club, Role
from clubs.views import (
    can,
    card_view,
    cards_view,
    club_for_page,
    club_home_page,
    club_money,
    error_context,
    form_problem,
    render_club,
    service_status,
    signed_number,
)
from config.errors import NotFoundError, ServiceError
from scoring import selectors, services
from scoring.forms import (
    OUTCOME_WORDS,
    DealEntryForm,
    GameForm,
    SeatAddForm,
    SessionForm,
    TableForm,
    to_minor,
)
from scoring.models import Deal, Game, Session, Submission
from scoring.presets import game_rules
from scoring.submissions import submission_confirm

GET = require_http_methods(["GET", "HEAD"])
LIVE_STOP = "X-Live-Stop"  # tells static/js/live.js to stop polling: nothing will change


def _found(function: Any, **kwargs: Any) -> Any:
    """A selector's "not found" is the page's 404."""
    try:
        return function(**kwargs)
    except NotFoundError as exc:
        raise Http404(exc.message) from None


def _url(name: str, club: Club, *args: Any) -> str:
    return reverse(name, args=[club.slug, *args])


# --- status words (colour is never the only signal: each has a word and a sign) ------------------

SUBMISSION_SIGNS = {
    Submission.Status.PENDING: ("…", "pending"),
    Submission.Status.REJECTED: ("✗", "bad"),
    Submission.Status.AWAITING_CONFIRMATION: ("?", "pending"),
    Submission.Status.ACCEPTED: ("✓", "good"),
    Submission.Status.SUPERSEDED: ("↺", "muted"),
}
DEAL_SIGNS = {
    Deal.Status.OPEN: ("…", "pending"),
    Deal.Status.AWAITING_CONFIRMATION: ("?", "pending"),
    Deal.Status.FINAL: ("✓", "good"),
}
DEAL_WORDS = {
    Deal.Status.OPEN: "No result yet",
    Deal.Status.AWAITING_CONFIRMATION: "To confirm",
    Deal.Status.FINAL: "Counted",
}
KIND_LABELS = {
    "pure_sequence": ("Pure sequence", "✓", "good"),
    "impure_sequence": ("Impure sequence", "✓", "good"),
    "set": ("Set", "✓", "good"),
    "invalid": ("Not a valid group", "✗", "bad"),
}


def _kind(kind: Any, outcome: Any) -> tuple[str, str, str]:
    """A group's kind as shown; a loser's unmatched cards are no mistake, they are what counts."""
    if kind == "invalid" and outcome not in ("winner", "valid_not_declared"):
        return ("Unmatched: these count", "·", "muted")
    return KIND_LABELS.get(kind, (str(kind), "", ""))


def _status(sign_map: dict[str, tuple[str, str]], status: str, label: str) -> dict[str, str]:
    sign, tone = sign_map.get(status, ("", "muted"))
    return {"value": status, "label": label, "sign": sign, "tone": tone}


def _submission_status(submission: Submission | None) -> dict[str, str] | None:
    if submission is None:
        return None
    return _status(SUBMISSION_SIGNS, submission.status, submission.get_status_display())


def _deal_status(deal: Deal, latest: Submission | None) -> dict[str, str]:
    if deal.status == Deal.Status.OPEN and latest is not None:
        if latest.status == Submission.Status.REJECTED:
            return _status(SUBMISSION_SIGNS, latest.status, "Rejected")
        if latest.status == Submission.Status.PENDING:
            return _status(SUBMISSION_SIGNS, latest.status, "Checking")
    return _status(DEAL_SIGNS, deal.status, DEAL_WORDS.get(deal.status, deal.status))


# --- sessions ------------------------------------------------------------------------------------


@login_required
@require_POST
def session_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    form = SessionForm(request.POST)
    values = {"session_name": request.POST.get("name", "")}
    if not form.is_valid():
        return club_home_page(
            request, club, error=form_problem(form), form_name="session", values=values, status=400
        )
    try:
        session = services.session_create(
            club=club, actor=request.user, name=form.cleaned_data["name"]
        )
    except ServiceError as exc:
        return club_home_page(
            request,
            club,
            error=error_context(exc, {"name"}),
            form_name="session",
            values=values,
            status=service_status(exc),
        )
    messages.success(request, f"Session “{session.name}” is open. Add a table to start.")
    return redirect(_url("session-page", club, session.pk))


def _scoreboard_context(club: Club, session: Session) -> dict[str, Any]:
    board = selectors.session_scoreboard(session=session)
    transfers = selectors.session_settlement(session=session, scoreboard=board)
    has_money = any(line.money_minor for line in board.lines) or bool(board.club_money_minor)
    return {
        "session": session,
        "board": board,
        "has_money": has_money,
        "has_chips": any(line.chips for line in board.lines),
        "lines": [
            {
                "line": line,
                "rank": index + 1,
                "points": signed_number(line.points),
                "points_value": line.points,
                "money": club_money(club, line.money_minor, signed=True),
                "money_value": line.money_minor,
                "url": _url("player-page", club, line.player_id),
            }
            for index, line in enumerate(board.lines)
        ],
        "club_fees": club_money(club, board.club_money_minor),
        "transfers": [
            {"transfer": t, "amount": club_money(club, t.amount_minor)} for t in transfers
        ],
        "updated_at": timezone.now(),
    }


def _session_page(
    request: HttpRequest,
    club: Club,
    session_id: int,
    *,
    error: dict[str, str] | None = None,
    form_name: str = "",
    status: int = 200,
) -> HttpResponse:
    session = _found(selectors.session_get, club=club, session_id=session_id)
    tables = []
    for table in session.tables.all():
        games = []
        for game in table.games.all():
            games.append(
                {
                    "game": game,
                    "seats": list(game.seats.all()),
                    "point_value": club_money(club, game.point_value_minor)
                    if game.point_value_minor
                    else "",
                    "url": _url("game-page", club, game.pk),
                }
            )
        tables.append({"table": table, "games": games})
    context = {
        "session": session,
        "tables": tables,
        "error": error,
        "form_name": form_name,
        "live": session.status == Session.Status.OPEN,
        **_scoreboard_context(club, session),
    }
    return render_club(request, club, "scoring/session.html", context, status)


@login_required
@GET
def session_page(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    return _session_page(request, club_for_page(request, club_slug), session_id)


@login_required
@GET
def session_scoreboard(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    """The live part of the session page (scoreboard and settle-up), polled while it is open."""
    club = club_for_page(request, club_slug)
    session = _found(selectors.session_get, club=club, session_id=session_id, with_tables=False)
    response = render_club(
        request, club, "scoring/_scoreboard.html", _scoreboard_context(club, session)
    )
    if session.status != Session.Status.OPEN:
        response[LIVE_STOP] = "1"
    return response


@login_required
@require_POST
def table_create(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    session = _found(selectors.session_get, club=club, session_id=session_id, with_tables=False)
    form = TableForm(request.POST)
    if not form.is_valid():
        return _session_page(
            request, club, session_id, error=form_problem(form), form_name="table", status=400
        )
    try:
        table = services.table_create(
            session=session, actor=request.user, name=form.cleaned_data["name"] or None
        )
    except ServiceError as exc:
        return _session_page(
            request,
            club,
            session_id,
            error=error_context(exc, {"name"}),
            form_name="table",
            status=service_status(exc),
        )
    messages.success(request, f"{table.name} is ready: start a game at it.")
    return redirect(_url("game-new", club, table.pk))


@login_required
@require_POST
def session_close(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    session = _found(selectors.session_get, club=club, session_id=session_id, with_tables=False)
    try:
        services.session_close(session=session, actor=request.user)
    except ServiceError as exc:
        return _session_page(
            request,
            club,
            session_id,
            error=error_context(exc),
            form_name="close",
            status=service_status(exc),
        )
    messages.success(request, f"“{session.name}” is closed. Here is the settle-up.")
    return redirect(_url("session-page", club, session.pk) + "#settle-up")


def _csv_amount(minor: int, places: int) -> str:
    sign = "-" if minor < 0 else ""
    if not places:
        return f"{sign}{abs(minor)}"
    whole, fraction = divmod(abs(minor), 10**places)
    return f"{sign}{whole}.{fraction:0{places}d}"


@login_required
@GET
def session_export(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    """The session as CSV: one line per deal per player, then the totals and the settle-up."""
    club = club_for_page(request, club_slug)
    session = _found(selectors.session_get, club=club, session_id=session_id, with_tables=False)
    rows = selectors.session_result_rows(session=session)
    board = selectors.session_scoreboard(session=session)
    transfers = selectors.session_settlement(session=session, scoreboard=board)
    places = club.minor_places
    money_head = f"money ({club.currency})"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{club.slug}-session-{session.pk}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(["deals"])
    writer.writerow(
        ["session", "table", "game", "deal", "version", "player", "outcome", "points", money_head]
    )
    for row in rows:
        writer.writerow(
            [
                row.session_name,
                row.table_name,
                row.game_id,
                row.deal_number,
                row.version,
                row.player_name,
                row.outcome,
                row.points,
                _csv_amount(row.money_minor, places),
            ]
        )
    writer.writerow([])
    writer.writerow(["totals"])
    writer.writerow(["player", "net points", money_head, "deals played", "deals won"])
    for line in board.lines:
        writer.writerow(
            [
                line.name,
                line.points,
                _csv_amount(line.money_minor, places),
                line.deals_played,
                line.deals_won,
            ]
        )
    if board.club_money_minor:
        writer.writerow(
            [f"{club.name} (club fees)", "", _csv_amount(board.club_money_minor, places)]
        )
    writer.writerow([])
    writer.writerow(["settle-up"])
    writer.writerow(["payer", "payee", money_head])
    for transfer in transfers:
        writer.writerow(
            [transfer.payer, transfer.payee, _csv_amount(transfer.amount_minor, places)]
        )
    return response


# --- tables and games ----------------------------------------------------------------------------


def _game_form(club: Club, data: Any = None) -> GameForm:
    presets = selectors.preset_list(club=club)
    seats = max([6, *[game_rules(p).max_players for p in presets if _rules_ok(p)]])
    # The club's own points preset first, then the built-in points rummy, then the rest.
    presets.sort(key=lambda p: (p.format != "points", p.club_id is None, p.format, p.name))
    return GameForm(
        data,
        presets=[
            (str(p.pk), f"{p.name} · {p.get_format_display()} (v{p.version})") for p in presets
        ],
        players=[(str(p.pk), p.name) for p in club_selectors.player_list(club=club, active=True)],
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
    error: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {"table": table, "session": table.session, "form": form, "error": error}
    return render_club(request, club, "scoring/game_new.html", context, status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HttpRequest, club_slug: str, table_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    table = _found(selectors.table_get, club=club, table_id=table_id)
    if request.method != "POST":
        return _game_new_page(request, club, table, _game_form(club))
    form = _game_form(club, request.POST)
    if not form.is_valid():
        return _game_new_page(request, club, table, form, form_problem(form), 400)
    try:
        preset = selectors.preset_get(club=club, preset_id=int(form.cleaned_data["preset"]))
        players = [club_selectors.player_get(club=club, player_id=pid) for pid in form.player_ids()]
        game = services.game_create(
            table=table,
            actor=request.user,
            preset=preset,
            players=players,
            point_value_minor=to_minor(form.cleaned_data.get("point_value"), club.minor_places),
            entry_fee_minor=to_minor(form.cleaned_data.get("entry_fee"), club.minor_places),
        )
    except ServiceError as exc:
        fields = {"preset", "players", "point_value_minor", "entry_fee_minor"}
        error = error_context(exc, fields)
        error["field"] = {"players": "seat_1", "point_value_minor": "point_value"}.get(
            error["field"], error["field"]
        )
        return _game_new_page(request, club, table, form, error, service_status(exc))
    messages.success(request, "The game is on. Enter the first deal when it is played.")
    return redirect(_url("game-page", club, game.pk))


def _game_page(
    request: HttpRequest,
    club: Club,
    game_id: int,
    *,
    error: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    game = _found(selectors.game_get, club=club, game_id=game_id)
    seats = list(game.seats.all())
    rows = selectors.game_deal_rows(game=game)
    totals = {seat.player_id: {"points": 0, "money": 0} for seat in seats}
    deal_rows = []
    for row in rows:
        cells = []
        for seat in seats:
            pid = seat.player_id
            points = row.points.get(pid)
            outcome = row.outcomes.get(pid)
            if points is not None:
                totals[pid]["points"] += points
                totals[pid]["money"] += row.money_minor.get(pid, 0)
            cells.append(
                {
                    "points": points,
                    "outcome": OUTCOME_WORDS.get(outcome or "", outcome or ""),
                    "won": outcome == "winner",
                    "money": club_money(club, row.money_minor[pid], signed=True)
                    if pid in row.money_minor
                    else "",
                }
            )
        deal_rows.append(
            {
                "row": row,
                "status": _deal_status(row.deal, row.latest),
                "cells": cells,
                "url": _url("deal-page", club, row.deal.pk),
            }
        )
    last = rows[-1] if rows else None
    next_action = None
    open_game = game.status == Game.Status.OPEN and game.table.session.status == "open"
    if open_game:
        if (
            last is not None
            and last.deal.status == Deal.Status.OPEN
            and (last.latest is None or last.latest.status == Submission.Status.REJECTED)
        ):
            label = "Correct" if last.latest is not None else "Enter"
            next_action = {
                "label": f"{label} deal {last.deal.number}",
                "url": _url("deal-result", club, last.deal.pk),
            }
        else:
            number = (last.deal.number + 1) if last else 1
            next_action = {
                "label": f"Enter deal {number}",
                "url": _url("deal-new", club, game.pk),
            }
    seated = {seat.player_id for seat in seats}
    context = {
        "game": game,
        "session": game.table.session,
        "table": game.table,
        "seats": [
            {
                "seat": seat,
                "counted": totals[seat.player_id]["points"],
                "money": club_money(club, totals[seat.player_id]["money"], signed=True),
            }
            for seat in seats
        ],
        "deal_rows": deal_rows,
        "has_money": bool(game.point_value_minor),
        "point_value": club_money(club, game.point_value_minor),
        "next_action": next_action,
        "open_game": open_game,
        "spare_players": [
            p for p in club_selectors.player_list(club=club, active=True) if p.pk not in seated
        ]
        if open_game and game.format == "points"
        else [],
        "error": error,
    }
    return render_club(request, club, "scoring/game.html", context, status)


@login_required
@GET
def game_page(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    return _game_page(request, club_for_page(request, club_slug), game_id)


@login_required
@require_POST
def seat_add(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = _found(selectors.game_get, club=club, game_id=game_id)
    form = SeatAddForm(request.POST)
    if not form.is_valid():
        return _game_page(request, club, game_id, error=form_problem(form), status=400)
    try:
        player = club_selectors.player_get(club=club, player_id=form.cleaned_data["player"])
        seat = services.seat_add(game=game, actor=request.user, player=player)
    except ServiceError as exc:
        return _game_page(
            request, club, game_id, error=error_context(exc, {"player"}), status=service_status(exc)
        )
    messages.success(request, f"{seat.player.name} sits at seat {seat.position}.")
    return redirect(_url("game-page", club, game.pk))


# --- deal entry and corrections ------------------------------------------------------------------

FIXED_OUTCOMES = ["first_drop", "middle_drop", "missed_turns", "wrong_show", "late_declare"]


def _entry_settings(game: Game) -> dict[str, Any]:
    """What the entry page's script needs from the game's rules: decks (copies of each card) and
    the points of outcomes that do not depend on the cards."""
    rules = game_rules(game.preset)
    indian = rules.indian
    if indian is None:
        return {"decks": 2, "fixed": {}, "cap": 80, "drops": True}
    return {
        "decks": indian.decks,
        "cap": indian.cap,
        "drops": indian.drops_allowed,
        "fixed": {
            "first_drop": indian.first_drop,
            "middle_drop": indian.middle_drop,
            "missed_turns": indian.missed_turns_points,
            "wrong_show": indian.wrong_show,
            "late_declare": indian.late_declare,
            "winner": indian.winner,
            "valid_not_declared": indian.valid_not_declared,
        },
    }


def _entry_page(
    request: HttpRequest,
    club: Club,
    game: Game,
    form: DealEntryForm,
    *,
    deal: Deal | None,
    number: int,
    error: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    settings = _entry_settings(game)
    context = {
        "game": game,
        "session": game.table.session,
        "table": game.table,
        "deal": deal,
        "number": number,
        "form": form,
        "lines": form.lines(),
        "error": error,
        "settings_json": json.dumps(settings),
        "evaluate_url": reverse("rules:evaluate"),
        "is_correction": deal is not None and deal.submissions.exists(),
        "indian": game.format != "rummikub",
    }
    return render_club(request, club, "scoring/deal_entry.html", context, status)


def _seats(game: Game) -> list[tuple[int, str]]:
    return [(seat.player_id, seat.player.name) for seat in game.seats.all()]


def _entry_error(exc: ServiceError) -> dict[str, str]:
    return error_context(exc, {"wild", "dealer"})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deal_new(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """Enter the next deal of a game: the deal and its first version in one step."""
    club = club_for_page(request, club_slug, Role.SCORER)
    game = _found(selectors.game_get, club=club, game_id=game_id)
    number = (selectors.deal_list(game=game).last().number + 1) if game.deals.exists() else 1
    if request.method != "POST":
        form = DealEntryForm(seats=_seats(game))
        return _entry_page(request, club, game, form, deal=None, number=number)
    form = DealEntryForm(request.POST, seats=_seats(game))
    if not form.is_valid():
        return _entry_page(
            request, club, game, form, deal=None, number=number, error=form_problem(form),
            status=400,
        )  # fmt: skip
    dealer_id = form.dealer_id()
    try:
        dealer = club_selectors.player_get(club=club, player_id=dealer_id) if dealer_id else None
        deal, submission = services.deal_create_with_result(
            game=game,
            actor=request.user,
            wild=(form.cleaned_data.get("wild") or "").strip(),
            dealer=dealer,
            number=None,
            is_tiebreaker=False,
            source=Submission.Source.WEB,
            payload=form.payload(),
            club=club,
        )
    except ServiceError as exc:
        return _entry_page(
            request, club, game, form, deal=None, number=number,
            error=_entry_error(exc), status=service_status(exc),
        )  # fmt: skip
    return _after_submit(club, deal, submission)


def _after_submit(club: Club, deal: Deal, submission: Submission | None) -> HttpResponse:
    url = _url("deal-page", club, deal.pk)
    if submission is not None:
        url += f"?v={submission.pk}"
    return redirect(url + "#result")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deal_result(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    """Enter a result for an existing deal: its first, or a correction (a new version that starts
    from the newest one)."""
    club = club_for_page(request, club_slug, Role.SCORER)
    deal = _found(selectors.deal_get, club=club, deal_id=deal_id)
    game = _found(selectors.game_get, club=club, game_id=deal.game_id)
    if request.method != "POST":
        latest = selectors.submission_list(deal=deal).last()
        initial = DealEntryForm.initial_from(latest.payload if latest else None, deal.wild)
        form = DealEntryForm(seats=_seats(game), initial=initial)
        return _entry_page(request, club, game, form, deal=deal, number=deal.number)
    form = DealEntryForm(request.POST, seats=_seats(game))
    if not form.is_valid():
        return _entry_page(
            request, club, game, form, deal=deal, number=deal.number, error=form_problem(form),
            status=400,
        )  # fmt: skip
    try:
        submission = services.submission_create(
            deal=deal, actor=request.user, source=Submission.Source.WEB, payload=form.payload()
        )
    except ServiceError as exc:
        return _entry_page(
            request, club, game, form, deal=deal, number=deal.number,
            error=_entry_error(exc), status=service_status(exc),
        )  # fmt: skip
    return _after_submit(club, deal, submission)


def _hand_groups(line: dict[str, Any] | None) -> list[list[Any]]:
    if not line:
        return []
    if line.get("groups"):
        return [list(group) for group in line["groups"] if isinstance(group, list)]
    if line.get("cards"):
        return [list(line["cards"])]
    return []


def _reason_who(reason: dict[str, Any], names: dict[Any, str]) -> str:
    """The player a reason is about, unless its message already starts with the name."""
    who = reason.get("player_name") or names.get(reason.get("player")) or ""
    return "" if str(reason.get("message", "")).startswith(who) else who


def _marked_hand(line: dict[str, Any] | None, reasons: list[dict[str, Any]]) -> list[dict]:
    """A player's cards as entered, with what the reasons blame marked: a whole group
    (``details.group``), one card (``details.position`` in its group) or every copy of a token."""
    groups = _hand_groups(line)
    bad_groups = set()
    bad_spots = set()
    bad_tokens = set()
    for reason in reasons:
        details = reason.get("details") or {}
        group = details.get("group")
        position = details.get("position")
        if isinstance(group, int) and isinstance(position, int):
            bad_spots.add((group, position))
        elif isinstance(group, int):
            bad_groups.add(group)
        elif isinstance(position, int) and len(groups) == 1:
            bad_spots.add((0, position))
        token = reason.get("token") or details.get("card")
        if isinstance(token, str) and reason.get("code") in {"bad_card", "too_many_copies"}:
            bad_tokens.add(card_view(token).code.upper())
    shown = []
    for g, group in enumerate(groups):
        cards = []
        for p, token in enumerate(group):
            card = card_view(token)
            bad = (g, p) in bad_spots or card.code.upper() in bad_tokens
            cards.append({"card": card, "bad": bad})
        shown.append({"index": g + 1, "cards": cards, "bad": g in bad_groups})
    return shown


def _result_view(club: Club, submission: Submission, seats: list[Any]) -> dict[str, Any]:
    """One version's result as the deal page shows it."""
    payload_lines = {
        line.get("player"): line for line in (submission.payload or {}).get("results", [])
    }
    names = {seat.player_id: seat.player.name for seat in seats}
    view: dict[str, Any] = {
        "submission": submission,
        "status": _submission_status(submission),
        "wild": card_view(
            (submission.result or {}).get("wild") or submission.payload.get("wild") or ""
        )
        if ((submission.result or {}).get("wild") or submission.payload.get("wild"))
        else None,
    }
    if submission.result:
        money = (submission.result.get("money") or {}).get("by_player", {})
        players = []
        for line in submission.result.get("players", []):
            hand = line.get("hand") or {}
            players.append(
                {
                    "name": line.get("name") or names.get(line.get("player"), "?"),
                    "outcome": OUTCOME_WORDS.get(line.get("outcome"), line.get("outcome")),
                    "won": line.get("outcome") == "winner",
                    "points": line.get("points"),
                    "basis": line.get("basis"),
                    "money": club_money(club, money[str(line["player"])], signed=True)
                    if str(line.get("player")) in money
                    else "",
                    "valid": hand.get("valid"),
                    "groups": [
                        {
                            "cards": cards_view(group.get("cards")),
                            "kind": _kind(group.get("kind"), line.get("outcome")),
                        }
                        for group in hand.get("groups", [])
                    ],
                }
            )
        view["players"] = players
        view["has_money"] = bool(money)
    if submission.reasons:
        by_player: dict[Any, list[dict[str, Any]]] = {}
        for reason in submission.reasons:
            by_player.setdefault(reason.get("player"), []).append(reason)
        view["reasons"] = [
            {
                "reason": reason,
                "who": _reason_who(reason, names),
                "token": reason.get("token"),
            }
            for reason in submission.reasons
        ]
        view["hands"] = [
            {
                "name": names.get(pid, str(pid)),
                "groups": _marked_hand(payload_lines.get(pid), reasons),
            }
            for pid, reasons in by_player.items()
            if pid is not None and _hand_groups(payload_lines.get(pid))
        ]
    return view


def _deal_context(request: HttpRequest, club: Club, deal: Deal) -> tuple[dict[str, Any], bool]:
    game = _found(selectors.game_get, club=club, game_id=deal.game_id)
    seats = list(game.seats.all())
    submissions = list(selectors.submission_list(deal=deal))
    chosen = None
    wanted = request.GET.get("v")
    if wanted and wanted.isdigit():
        chosen = next((s for s in submissions if s.pk == int(wanted)), None)
    if chosen is None and submissions:
        chosen = submissions[-1]
    history = []
    for submission in reversed(submissions):
        points = [
            f"{line.get('name')} {line.get('points')}"
            for line in (submission.result or {}).get("players", [])
        ]
        history.append(
            {
                "submission": submission,
                "status": _submission_status(submission),
                "who": submission.submitted_by.get_username() if submission.submitted_by else "",
                "points": " · ".join(points),
                "reasons": len(submission.reasons or []),
                "url": _url("deal-page", club, deal.pk) + f"?v={submission.pk}#result",
                "chosen": submission == chosen,
                "can_confirm": submission.status == Submission.Status.AWAITING_CONFIRMATION
                and can(club, Role.SCORER)
                and submission.submitted_by_id != request.user.pk,
            }
        )
    pending = any(s.status == Submission.Status.PENDING for s in submissions)
    session_open = game.table.session.status == "open"
    context = {
        "deal": deal,
        "game": game,
        "session": game.table.session,
        "table": game.table,
        "deal_status": _deal_status(deal, submissions[-1] if submissions else None),
        "wild": card_view(deal.wild) if deal.wild else None,
        "history": history,
        "chosen": _result_view(club, chosen, seats) if chosen else None,
        "pending": pending,
        "can_correct": session_open and can(club, Role.SCORER),
        "fragment_url": _url("deal-fragment", club, deal.pk)
        + (f"?v={chosen.pk}" if chosen else ""),
    }
    return context, pending


@login_required
@GET
def deal_page(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    deal = _found(selectors.deal_get, club=club, deal_id=deal_id)
    context, _ = _deal_context(request, club, deal)
    return render_club(request, club, "scoring/deal.html", context)


@login_required
@GET
def deal_fragment(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    """The deal's result and history, polled while a version is being checked."""
    club = club_for_page(request, club_slug)
    deal = _found(selectors.deal_get, club=club, deal_id=deal_id)
    context, pending = _deal_context(request, club, deal)
    response = render_club(request, club, "scoring/_deal_body.html", context)
    if not pending:
        response[LIVE_STOP] = "1"
    return response


@login_required
@require_POST
def submission_confirm_view(
    request: HttpRequest, club_slug: str, submission_id: int
) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.SCORER)
    submission = _found(selectors.submission_get, club=club, submission_id=submission_id)
    try:
        submission = submission_confirm(submission=submission, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Version {submission.version} is confirmed and counts.")
    return redirect(_url("deal-page", club, submission.deal_id) + f"?v={submission.pk}#result")


# --- public standings ----------------------------------------------------------------------------


def standings_data(club: Club) -> dict[str, Any]:
    """What the public standings show. The one place that reads them, so that the standings
    module (with its tie-break rules) can take over here alone."""
    latest = selectors.session_list(club=club).first()
    board = selectors.session_scoreboard(session=latest) if latest is not None else None
    return {"latest": latest, "board": board, "all_time": selectors.club_ledger_table(club=club)}


def _standings_context(club: Club) -> dict[str, Any]:
    data = standings_data(club)

    def shown(lines: list[Any]) -> list[dict[str, Any]]:
        return [
            {
                "rank": index + 1,
                "line": line,
                "points": signed_number(line.points),
                "money": club_money(club, line.money_minor, signed=True),
            }
            for index, line in enumerate(lines)
        ]

    board = data["board"]
    return {
        "latest": data["latest"],
        "latest_lines": shown(board.lines) if board else [],
        "latest_deals": board.deals_counted if board else 0,
        "all_time": shown(data["all_time"]),
        "has_money": any(line.money_minor for line in data["all_time"]),
        "updated_at": timezone.now(),
    }


def _public_club(club_slug: str) -> Club:
    return _found(club_selectors.club_get_public, slug=club_slug)


def _render_public(request: HttpRequest, club: Club, template: str, **extra: Any) -> HttpResponse:
    with timezone.override(club.timezone):
        return render(request, template, {"club": club, **_standings_context(club), **extra})


@GET
def public_standings(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = _public_club(club_slug)
    if request.GET.get("view") == "projector":
        return public_projector(request, club_slug)
    return _render_public(request, club, "scoring/standings.html")


@GET
def public_projector(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = _public_club(club_slug)
    return _render_public(request, club, "scoring/standings_projector.html")


@GET
def public_standings_fragment(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = _public_club(club_slug)
    template = (
        "scoring/_standings_projector.html"
        if request.GET.get("view") == "projector"
        else "scoring/_standings.html"
    )
    return _render_public(request, club, template)
