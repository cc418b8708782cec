"""Pages of a club night: sessions, tables, games, deal entry and corrections, the live
scoreboard, settle-up, CSV export, and the public standings. Every write goes through
``scoring.services`` (or ``submission_confirm``), every read through the selectors; a service's
refusal is shown on the page with its message."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
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
from config.errors import InvalidInput, NotFoundError, ServiceError
from scoring import selectors, services, standings
from scoring.forms import (
    OUTCOME_WORDS,
    WIN_WORDS,
    DealEntryForm,
    GameForm,
    RejoinForm,
    RummikubEntryForm,
    SeatAddForm,
    SessionForm,
    SplitForm,
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


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _names(state: dict[str, Any]) -> dict[int, str]:
    return {line["player"]: line["name"] for line in state["players"]}


def _paid(club: Club, game: Game, names: dict[int, str]) -> list[dict[str, str]]:
    """Who received what when the game paid out (prize, split or settlement)."""
    if game.status != Game.Status.FINISHED:
        return []
    payouts = selectors.game_payouts(game=game)
    return [
        {"name": names.get(pid, "?"), "amount": club_money(club, amount, signed=True),
         "value": str(amount)}
        for pid, amount in sorted(payouts.items(), key=lambda item: -item[1])
    ]  # fmt: skip


SPLIT_LABELS = {
    "drops": ("Split by drops remaining", "each is first paid the entry fee for every drop "
              "they have left above the lowest, then the rest is shared equally"),
    "equal": ("Equal split", "the prize pool is shared equally"),
}  # fmt: skip


def _rejoin_reason(code: str, message: str, details: dict[str, Any], names: dict) -> str:
    """A refused rejoin in words, naming the player the rules name by id."""
    if code == "rejoin_closed" and str(details.get("player", "")).isdigit():
        name = names.get(int(details["player"]), details["player"])
        return (
            f"no rejoin while {name} is at {details.get('score')}, above "
            f"{details.get('rejoin_below')}"
        )
    return message


def _pool_panel(club: Club, game: Game, state: dict[str, Any], open_game: bool) -> dict[str, Any]:
    limit = state["limit"]
    names = _names(state)
    refusals = selectors.pool_rejoin_refusals(game=game) if open_game else {}
    players = []
    for line in state["players"]:
        out = line["status"] == "eliminated"
        won = state["winner"] == line["player"]
        shared = game.status == Game.Status.FINISHED and not won and not out
        words = "Winner" if won else ("Out" if out else ("Shared the prize" if shared else "In"))
        if line["rejoins"]:
            words += f", rejoined {_times(line['rejoins'])}"
        players.append(
            {
                **line,
                "out": out,
                "won": won,
                "words": words,
                "percent": min(100, round(line["score"] * 100 / limit)) if limit else 0,
                "can_rejoin": open_game and line["can_rejoin"] and can(club, Role.ORGANISER),
                "no_rejoin": _rejoin_reason(names=names, **refusals[line["player"]])
                if line["player"] in refusals
                else "",
            }
        )
    splits = []
    if open_game and state["split_offers"]:
        offer = selectors.pool_split_offer(game=game)
        remaining = [p for p in players if not p["out"]]
        for kind in offer["offers"]:
            shares = offer["shares_minor"][kind]
            label, how = SPLIT_LABELS.get(kind, (kind, ""))
            splits.append(
                {
                    "kind": kind,
                    "label": label,
                    "how": how,
                    "shares": [
                        {
                            "player": p["player"],
                            "name": p["name"],
                            "score": p["score"],
                            "drops": p["drops_remaining"],
                            "amount": club_money(club, shares.get(str(p["player"]), 0)),
                        }
                        for p in remaining
                    ],
                }
            )
    return {
        "template": "scoring/_panel_pool.html",
        "state": state,
        "limit": limit,
        "players": players,
        "entry_fee": club_money(club, state["entry_fee_minor"]),
        "prize": club_money(club, state["prize_pool_minor"]),
        "club_fee": club_money(club, state["club_fee_minor"]),
        "pot": club_money(club, state["pot_minor"]),
        "winner": names.get(state["winner"]) if state["winner"] else "",
        "splits": splits,
        "paid": _paid(club, game, names),
    }


def _deals_panel(club: Club, game: Game, state: dict[str, Any], open_game: bool) -> dict[str, Any]:
    names = _names(state)
    leaders = set(state["leaders"])
    top = max((line["chips"] for line in state["players"]), default=0) or 1
    players = [
        {
            **line,
            "leads": line["player"] in leaders,
            "won": state["winner"] == line["player"],
            "percent": round(line["chips"] * 100 / top),
        }
        for line in state["players"]
    ]
    return {
        "template": "scoring/_panel_deals.html",
        "state": state,
        "players": players,
        "prize": club_money(club, state["prize_minor"]),
        "club_fee": club_money(club, state["club_fee_minor"]),
        "winner": names.get(state["winner"]) if state["winner"] else "",
        "tied": [names[pid] for pid in state["leaders"]] if state["tiebreaker_needed"] else [],
        "tiebreaker_url": _url("deal-tiebreaker", club, game.pk)
        if open_game and state["tiebreaker_needed"]
        else "",
        "paid": _paid(club, game, names),
    }


def _rummikub_panel(
    club: Club, game: Game, state: dict[str, Any], open_game: bool
) -> dict[str, Any]:
    names = _names(state)
    leaders = set(state["leaders"])
    settlement = state.get("settlement_minor") or {}
    players = [
        {
            **line,
            "total_text": signed_number(line["total"]),
            "leads": line["player"] in leaders and state["games_counted"] > 0,
            "settle": club_money(club, settlement[str(line["player"])], signed=True)
            if str(line["player"]) in settlement
            else "",
            "settle_value": settlement.get(str(line["player"]), 0),
        }
        for line in state["players"]
    ]
    match = state["match"]
    ends = []
    if match.get("games"):
        ends.append(f"after {match['games']} games")
    if match.get("target_score"):
        ends.append(f"when a total reaches {match['target_score']}")
    ends.append("when the organiser finishes it")
    return {
        "template": "scoring/_panel_rummikub.html",
        "state": state,
        "players": players,
        "variant": state["variant"].capitalize(),
        "ends": ", ".join(ends[:-1]) + (" or " if len(ends) > 1 else "") + ends[-1],
        "leaders": [names[pid] for pid in state["leaders"]] if state["games_counted"] else [],
        "has_settlement": bool(settlement),
        "rate": club_money(club, game.point_value_minor),
        "paid": _paid(club, game, names),
    }


def _points_panel(club: Club, game: Game, state: dict[str, Any], open_game: bool) -> dict[str, Any]:
    return {"template": "", "state": state}


PANELS = {
    "pool": _pool_panel,
    "deals": _deals_panel,
    "rummikub": _rummikub_panel,
    "points": _points_panel,
}


def _game_page(
    request: HttpRequest,
    club: Club,
    game_id: int,
    *,
    error: dict[str, str] | None = None,
    form_name: str = "",
    status: int = 200,
) -> HttpResponse:
    game = _found(selectors.game_get, club=club, game_id=game_id)
    seats = list(game.seats.all())
    rows = selectors.game_deal_rows(game=game)
    rummikub = game.format == "rummikub"
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
                    "points": signed_number(points) if rummikub and points is not None else points,
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
    state = selectors.game_state(game=game)
    unit = "game" if rummikub else "deal"
    next_action = None
    open_game = game.status == Game.Status.OPEN and game.table.session.status == "open"
    if open_game:
        if (
            last is not None
            and last.deal.status == Deal.Status.OPEN
            and (last.latest is None or last.latest.status == Submission.Status.REJECTED)
        ):
            label = "Correct" if last.latest is not None else "Enter"
            what = f"{unit} {last.deal.number}"
            if last.deal.is_tiebreaker:
                what = "the tie-breaker deal"
            next_action = {
                "label": f"{label} {what}",
                "url": _url("deal-result", club, last.deal.pk),
            }
        elif state.get("tiebreaker_needed"):
            next_action = {
                "label": "Play the tie-breaker deal",
                "url": _url("deal-tiebreaker", club, game.pk),
            }
        elif last is None or last.deal.status == Deal.Status.FINAL:
            number = (last.deal.number + 1) if last else 1
            next_action = {
                "label": f"Enter {unit} {number}",
                "url": _url("deal-new", club, game.pk),
            }
    seated = {seat.player_id for seat in seats}
    panel = PANELS.get(game.format, _points_panel)(club, game, state, open_game)
    context = {
        "game": game,
        "session": game.table.session,
        "table": game.table,
        "seats": [
            {
                "seat": seat,
                "counted": signed_number(totals[seat.player_id]["points"])
                if rummikub
                else totals[seat.player_id]["points"],
                "money": club_money(club, totals[seat.player_id]["money"], signed=True),
            }
            for seat in seats
        ],
        "deal_rows": deal_rows,
        "has_money": bool(game.point_value_minor) and state.get("variant") != "international",
        "point_value": club_money(club, game.point_value_minor),
        "next_action": next_action,
        "open_game": open_game,
        "panel": panel,
        "unit": unit,
        "can_finish": open_game and game.format in ("points", "rummikub"),
        "spare_players": [
            p for p in club_selectors.player_list(club=club, active=True) if p.pk not in seated
        ]
        if open_game and game.format == "points"
        else [],
        "error": error,
        "form_name": form_name,
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


@login_required
@require_POST
def pool_rejoin(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """An eliminated pool player buys in again."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = _found(selectors.game_get, club=club, game_id=game_id)
    form = RejoinForm(request.POST)
    if not form.is_valid():
        return _game_page(
            request, club, game_id, error=form_problem(form), form_name="rejoin", status=400
        )
    try:
        player = club_selectors.player_get(club=club, player_id=form.cleaned_data["player"])
        score = services.pool_rejoin(game=game, actor=request.user, player=player)
    except ServiceError as exc:
        error = error_context(exc)
        names = {seat.player_id: seat.player.name for seat in game.seats.all()}
        error["message"] = _rejoin_reason(exc.code, exc.message, exc.details, names)
        return _game_page(
            request, club, game_id, error=error, form_name="rejoin", status=service_status(exc)
        )
    fee = f", paying {club_money(club, game.entry_fee_minor)} again" if game.entry_fee_minor else ""
    messages.success(request, f"{player.name} is back in at {score}{fee}.")
    return redirect(_url("game-page", club, game.pk) + "#pool")


@login_required
@require_POST
def pool_split(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """Record a split every remaining player agrees to; the game pays out and ends."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = _found(selectors.game_get, club=club, game_id=game_id)
    remaining = selectors.deal_entry_players(game=game) if game.format == "pool" else {}
    form = SplitForm(request.POST, remaining=list(remaining.items()))
    if not form.is_valid():
        return _game_page(
            request, club, game_id, error=form_problem(form), form_name="split", status=400
        )
    try:
        agreed = [club_selectors.player_get(club=club, player_id=pid) for pid in form.agreed_ids()]
        shares = services.pool_split(
            game=game, actor=request.user, kind=form.cleaned_data["kind"], agreed=agreed
        )
    except ServiceError as exc:
        return _game_page(
            request, club, game_id, error=error_context(exc), form_name="split",
            status=service_status(exc),
        )  # fmt: skip
    paid = ", ".join(
        f"{remaining.get(pid, pid)} {club_money(club, amount)}" for pid, amount in shares.items()
    )
    messages.success(request, f"The split is recorded and the game is over: {paid}.")
    return redirect(_url("game-page", club, game.pk))


@login_required
@require_POST
def game_finish(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """Close a points table, or finish a Rummikub match (International settles)."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    game = _found(selectors.game_get, club=club, game_id=game_id)
    try:
        services.game_finish(game=game, actor=request.user)
    except ServiceError as exc:
        return _game_page(
            request, club, game_id, error=error_context(exc), form_name="finish",
            status=service_status(exc),
        )  # fmt: skip
    done = "The match is over." if game.format == "rummikub" else "The table is closed."
    messages.success(request, done)
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


EntryForm = DealEntryForm | RummikubEntryForm


def _entry_page(
    request: HttpRequest,
    club: Club,
    game: Game,
    form: EntryForm,
    *,
    deal: Deal | None,
    number: int,
    tiebreaker: bool = False,
    error: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {
        "game": game,
        "session": game.table.session,
        "table": game.table,
        "deal": deal,
        "number": number,
        "form": form,
        "lines": form.lines(),
        "error": error,
        "is_correction": deal is not None and deal.submissions.exists(),
        "tiebreaker": tiebreaker or (deal is not None and deal.is_tiebreaker),
        "indian": game.format != "rummikub",
    }
    if isinstance(form, RummikubEntryForm):
        rules = game_rules(game.preset).rummikub
        assert rules is not None
        context["variant"] = rules.variant
        context["international"] = form.international
        context["rack_settings"] = json.dumps(
            {
                "joker": rules.joker_value,
                "high": rules.high_tile_value if rules.variant == "international" else None,
            }
        )
        return render_club(request, club, "scoring/rummikub_entry.html", context, status)
    context["settings_json"] = json.dumps(_entry_settings(game))
    context["evaluate_url"] = reverse("rules:evaluate")
    return render_club(request, club, "scoring/deal_entry.html", context, status)


def _entry_form(
    game: Game, players: dict[int, str], data: Any = None, initial: Any = None
) -> EntryForm:
    seats = list(players.items())
    if game.format == "rummikub":
        rules = game_rules(game.preset).rummikub
        assert rules is not None
        international = rules.variant == "international"
        return RummikubEntryForm(
            data, seats=seats, initial=initial, international=international,
            trump=international and bool(rules.trump_bonus),
        )  # fmt: skip
    return DealEntryForm(data, seats=seats, initial=initial)


def _entry_error(exc: ServiceError) -> dict[str, str]:
    return error_context(exc, {"wild", "dealer"})


def _deal_start(request: HttpRequest, club: Club, game: Game, *, tiebreaker: bool) -> HttpResponse:
    """Enter the next deal of a game (or its tie-breaker deal, between the players level at the
    top): the deal and its first version in one step."""
    skip_check = not tiebreaker or request.method == "POST"
    if not skip_check and not selectors.game_state(game=game).get("tiebreaker_needed"):
        messages.error(request, "No tie-breaker deal is due in this game.")
        return redirect(_url("game-page", club, game.pk))
    number = (selectors.deal_list(game=game).last().number + 1) if game.deals.exists() else 1
    players = selectors.deal_entry_players(game=game, is_tiebreaker=tiebreaker)
    page = {"deal": None, "number": number, "tiebreaker": tiebreaker}
    if request.method != "POST":
        return _entry_page(request, club, game, _entry_form(game, players), **page)
    form = _entry_form(game, players, request.POST)
    if not form.is_valid():
        return _entry_page(request, club, game, form, error=form_problem(form), status=400, **page)
    wild, dealer_id = "", None
    if isinstance(form, DealEntryForm):
        wild = (form.cleaned_data.get("wild") or "").strip()
        dealer_id = form.dealer_id()
    try:
        dealer = club_selectors.player_get(club=club, player_id=dealer_id) if dealer_id else None
        deal, submission = services.deal_create_with_result(
            game=game,
            actor=request.user,
            wild=wild,
            dealer=dealer,
            number=None,
            is_tiebreaker=tiebreaker,
            source=Submission.Source.WEB,
            payload=form.payload(),
            club=club,
        )
    except ServiceError as exc:
        return _entry_page(
            request, club, game, form, error=_entry_error(exc), status=service_status(exc), **page
        )
    return _after_submit(club, deal, submission)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deal_new(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """Enter the next deal of a game (the next game of a Rummikub match)."""
    club = club_for_page(request, club_slug, Role.SCORER)
    game = _found(selectors.game_get, club=club, game_id=game_id)
    return _deal_start(request, club, game, tiebreaker=False)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deal_tiebreaker(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """The tie-breaker deal of a deals game, between the players level on chips at the top."""
    club = club_for_page(request, club_slug, Role.SCORER)
    game = _found(selectors.game_get, club=club, game_id=game_id)
    return _deal_start(request, club, game, tiebreaker=True)


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
    players = selectors.deal_entry_players(game=game, deal=deal)
    page = {"deal": deal, "number": deal.number}
    if request.method != "POST":
        latest = selectors.submission_list(deal=deal).last()
        payload = latest.payload if latest else None
        if game.format == "rummikub":
            initial = RummikubEntryForm.initial_from(payload)
        else:
            initial = DealEntryForm.initial_from(payload, deal.wild)
        form = _entry_form(game, players, initial=initial)
        return _entry_page(request, club, game, form, **page)
    form = _entry_form(game, players, request.POST)
    if not form.is_valid():
        return _entry_page(request, club, game, form, error=form_problem(form), status=400, **page)
    try:
        submission = services.submission_create(
            deal=deal, actor=request.user, source=Submission.Source.WEB, payload=form.payload()
        )
    except ServiceError as exc:
        return _entry_page(
            request, club, game, form, error=_entry_error(exc), status=service_status(exc), **page
        )
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


# --- Rummikub tiles: the colour as a letter and a word, never by colour alone --------------------

TILE_COLOURS = {"K": "black", "R": "red", "B": "blue", "O": "orange"}
RUMMIKUB_OUTCOMES = {"winner": "Went out", "loser": "Lost", "no_winner": "Pool ran out"}


@dataclass(frozen=True)
class TileView:
    """A tile as a page shows it: ``R5`` as a letter and a number, ``red 5`` spoken."""

    code: str
    colour: str
    number: str
    name: str
    known: bool = True

    @property
    def joker(self) -> bool:
        return self.code.startswith("JK")


def tile_view(token: object) -> TileView:
    raw = str(token).strip().upper()
    if raw.startswith("JK"):
        stands = raw[3:] if raw.startswith("JK=") else ""
        as_what = tile_view(stands) if stands else None
        name = f"joker as {as_what.name}" if as_what and as_what.known else "joker"
        return TileView(raw, "", "JK", name)
    colour, number = raw[:1], raw[1:]
    if colour in TILE_COLOURS and number.isdigit() and 1 <= int(number) <= 13:
        return TileView(raw, colour, number, f"{TILE_COLOURS[colour]} {number}")
    return TileView(raw, "", raw, f"unknown tile {raw}", known=False)


def tiles_view(tokens: Any, bad: set[str] | frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    return [
        {"t": tile_view(token), "bad": str(token).strip().upper() in bad}
        for token in tokens or []
        if isinstance(token, str)
    ]


def _rummikub_result(club: Club, game: Game, submission: Submission, names: dict) -> dict:
    """A game of a Rummikub match as the deal page shows it: each rack and score, how it was
    won, and a closed hand's type and arrangement; a rejected version's racks with the tile the
    reasons name marked."""
    result = submission.result or {}
    payload = submission.payload or {}
    view: dict[str, Any] = {"rummikub": True}
    rate = game.point_value_minor if result.get("variant") != "international" else 0
    if result:
        view["players"] = [
            {
                "name": line.get("name") or names.get(line.get("player"), "?"),
                "outcome": RUMMIKUB_OUTCOMES.get(line.get("outcome"), line.get("outcome")),
                "won": line.get("outcome") == "winner",
                "points": signed_number(line.get("points")),
                "points_value": line.get("points") or 0,
                "tiles": tiles_view(line.get("rack")),
                "money": club_money(club, (line.get("points") or 0) * rate, signed=True)
                if rate
                else "",
            }
            for line in result.get("players", [])
        ]
        view["has_money"] = bool(rate)
        view["win"] = WIN_WORDS.get(result.get("win") or "", "")
        if result.get("winner") is None:
            view["win"] = "Nobody went out: the pool ran out"
        closed = result.get("closed_hand")
        if closed:
            view["closed"] = {
                "name": closed.get("name"),
                "type": closed.get("type"),
                "value": closed.get("value"),
                "jokers": closed.get("jokers"),
                "melds": [tiles_view(meld) for meld in closed.get("arrangement") or []],
            }
    elif submission.reasons:
        bad = {str(r.get("token")).upper() for r in submission.reasons if r.get("token")}
        racks = payload.get("racks") if isinstance(payload.get("racks"), dict) else {}
        view["racks"] = [
            {"name": names.get(int(pid), pid) if str(pid).isdigit() else pid,
             "tiles": tiles_view(tiles, bad)}
            for pid, tiles in racks.items()
            if isinstance(tiles, list) and tiles
        ]  # fmt: skip
        if isinstance(payload.get("closed_hand"), list):
            view["closed_entered"] = tiles_view(payload["closed_hand"], bad)
    return view


def _result_view(
    club: Club, submission: Submission, seats: list[Any], game: Game | None = None
) -> dict[str, Any]:
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
    if game is not None and game.format == "rummikub":
        view.update(_rummikub_result(club, game, submission, names))
    elif submission.result:
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
        signed = game.format == "rummikub"
        points = [
            f"{line.get('name')} "
            + (signed_number(line.get("points")) if signed else str(line.get("points")))
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
        "chosen": _result_view(club, chosen, seats, game) if chosen else None,
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


# --- standings: the club's (members) and the public one ------------------------------------------

PER_PAGE = 25
PROJECTOR_ROWS = 12
SCOPE_WORDS = {"season": "Season", "session": "Session", "game": "Game"}


def _metric_text(club: Club, metric_id: str, value: Any) -> str:
    """A metric's value as a table shows it: net points and money signed, rates in per cent."""
    if metric_id == "points":
        return signed_number(int(value))
    if metric_id == "money":
        return club_money(club, int(value), signed=True)
    if metric_id == "win_rate":
        return f"{value * 100:.1f}%"
    if metric_id == "points_per_deal":
        text = f"{abs(value):.2f}"
        return f"+{text}" if value > 0 else (f"−{text}" if value < 0 else text)
    return str(value)


def _int_param(raw: str | None, name: str) -> int | None:
    if raw in (None, ""):
        return None
    assert raw is not None
    if not raw.strip().isdigit():
        raise InvalidInput(f"{name}: {raw!r} is not a whole number")
    return int(raw)


def _asked_scope(request: HttpRequest) -> tuple[str, int | None]:
    """The scope a page asks for: ``?table=session:12`` (the page's one list) or, as in the API,
    ``?scope=session&id=12``; nothing asked is the current season."""
    picked = request.GET.get("table", "")
    if ":" in picked:
        scope, _, raw = picked.partition(":")
        return scope, _int_param(raw, "table")
    return request.GET.get("scope") or "season", _int_param(request.GET.get("id"), "id")


def _scope_title(club: Club, scope: str, scope_id: int, choices: Any) -> str:
    if scope == "season":
        season = next((s for s in choices.seasons if s.pk == scope_id), None)
        return f"Season {season.name}" if season else "Season"
    if scope == "session":
        session = next((s for s in choices.sessions if s.pk == scope_id), None)
        session = session or _found(
            selectors.session_get, club=club, session_id=scope_id, with_tables=False
        )
        return session.name
    game = next((g for g in choices.games if g.pk == scope_id), None)
    game = game or _found(selectors.game_get, club=club, game_id=scope_id, with_seats=False)
    return _game_label(game)


def _game_label(game: Game) -> str:
    return f"{game.get_format_display()} at {game.table.name} · {game.table.session.name}"


def _standing_lines(
    club: Club, table: standings.StandingsTable, lines: list[Any], offset: int, more: Any
) -> list[dict[str, Any]]:
    """The lines of a page with their ranks: a rank shared with a neighbour (on this page or the
    one before or after) reads ``=2``."""
    shown = []
    for index, line in enumerate(lines):
        before = lines[index - 1].rank if index else None
        after = lines[index + 1].rank if index + 1 < len(lines) else getattr(more, "rank", None)
        tied = line.rank in (before, after) or (index == 0 and line.rank < offset + 1)
        shown.append(
            {
                "rank": f"={line.rank}" if tied else str(line.rank),
                "tied": tied,
                "player_id": line.player_id,
                "name": line.name,
                "cells": [
                    {
                        "text": _metric_text(club, metric.id, line.metrics[metric.id]),
                        "value": line.metrics[metric.id],
                        "signed": metric.id in ("points", "money", "points_per_deal"),
                    }
                    for metric in table.metrics
                ],
            }
        )
    return shown


def _standings_board(
    club: Club, scope: str, scope_id: int, *, page: int, per_page: int, after: int | None
) -> dict[str, Any]:
    """One ranked table: a page of it, and whether there are more."""
    offset = (page - 1) * per_page
    if after is not None:
        entry = selectors.ledger_entry_as_of(club=club, session_id=after)
        table = standings.standings_table_as_of(
            club=club, scope=scope, scope_id=scope_id, as_of_entry=entry
        )
        lines = table.lines[offset : offset + per_page + 1]
    else:
        table = standings.standings_table(
            club=club, scope=scope, scope_id=scope_id, limit=per_page + 1, offset=offset
        )
        lines = table.lines
    more = lines[per_page] if len(lines) > per_page else None
    lines = lines[:per_page]
    shown = _standing_lines(club, table, lines, offset, more)
    return {
        "metrics": table.metrics,
        "lines": shown,
        "any_tied": any(line["tied"] for line in shown),
        "count": table.count,
        "page": page,
        "pages": max(1, -(-table.count // per_page)),
        "first": offset + 1,
        "last": offset + len(lines),
    }


def _scope_options(
    choices: Any, games: list[dict[str, Any]], scope: str, scope_id: int
) -> list[dict[str, Any]]:
    """The page's one list of tables to show, grouped: seasons, sessions, games."""

    def item(kind: str, pk: int, label: str, when: Any = None) -> dict[str, Any]:
        selected = (kind, pk) == (scope, scope_id)
        return {"value": f"{kind}:{pk}", "label": label, "when": when, "selected": selected}

    groups = [
        {"label": "Seasons", "items": [item("season", s.pk, f"Season {s.name}")
                                       for s in choices.seasons]},
        {"label": "Sessions", "items": [item("session", s.pk, s.name, s.started_at)
                                        for s in choices.sessions]},
        {"label": "Games", "items": [item("game", g["game"].pk, g["label"]) for g in games]},
    ]  # fmt: skip
    return [group for group in groups if group["items"]]


def _page_link(request: HttpRequest, page: int) -> str:
    query = request.GET.copy()
    query["page"] = str(page)
    return "?" + query.urlencode()


def _standings_context(
    request: HttpRequest, club: Club, *, per_page: int | None = None
) -> tuple[dict[str, Any], int]:
    """The standings a page asks for (scope, page, "as it stood after session S"), the lists to
    choose from, and a service's refusal as the page's error."""
    per_page = per_page or PER_PAGE
    choices = selectors.standings_choices(club=club)
    context: dict[str, Any] = {
        "choices": choices,
        "games": [{"game": g, "label": _game_label(g)} for g in choices.games],
        "board": None,
        "error": None,
        "updated_at": timezone.now(),
        "metric_labels": [m.label for m in standings.metric_order(club)],
    }
    status = 200
    try:
        scope, raw_id = _asked_scope(request)
        page = max(1, _int_param(request.GET.get("page"), "page") or 1)
        after = _int_param(request.GET.get("as_of_session"), "as_of_session")
        if scope == "season" and raw_id is None and not choices.seasons:
            context.update(scope="season", scope_id=None, title="This season", after=None)
            return context, status
        scope, scope_id = selectors.standings_scope(club=club, scope=scope, scope_id=raw_id)
        board = _standings_board(club, scope, scope_id, page=page, per_page=per_page, after=after)
    except ServiceError as exc:
        context["error"] = error_context(exc)
        context.update(scope="", scope_id=None, title="Standings", after=None)
        context["options"] = _scope_options(choices, context["games"], "", 0)
        context["after_options"] = [
            {"value": str(s.pk), "session": s, "selected": False} for s in choices.sessions
        ]
        return context, service_status(exc)
    title = _scope_title(club, scope, scope_id, choices)
    context["options"] = _scope_options(choices, context["games"], scope, scope_id)
    if not any(item["selected"] for group in context["options"] for item in group["items"]):
        shown = {"value": f"{scope}:{scope_id}", "label": title, "when": None, "selected": True}
        context["options"].insert(0, {"label": "Shown", "items": [shown]})
    context["after_options"] = [
        {"value": str(s.pk), "session": s, "selected": s.pk == after} for s in choices.sessions
    ]
    after_session = None
    if after is not None:
        after_session = next((s for s in choices.sessions if s.pk == after), None) or _found(
            selectors.session_get, club=club, session_id=after, with_tables=False
        )
    context.update(
        scope=scope,
        scope_id=scope_id,
        picked=f"{scope}:{scope_id}",
        scope_word=SCOPE_WORDS.get(scope, scope),
        title=title,
        after=after_session,
        board=board,
        first_url=_page_link(request, 1),
        prev_url=_page_link(request, min(board["page"], board["pages"] + 1) - 1)
        if board["page"] > 1
        else "",
        next_url=_page_link(request, board["page"] + 1) if board["page"] < board["pages"] else "",
        query=request.GET.urlencode(),
    )
    return context, status


@login_required
@GET
def club_standings(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's standings for its members: any season, session or game, now or as they stood
    after a session."""
    club = club_for_page(request, club_slug)
    context, status = _standings_context(request, club)
    context["form_url"] = _url("club-standings", club)
    return render_club(request, club, "scoring/club_standings.html", context, status)


def _public_club(club_slug: str) -> Club:
    return _found(club_selectors.club_get_public, slug=club_slug)


def _render_public(
    request: HttpRequest, club: Club, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    with timezone.override(club.timezone):
        return render(request, template, {"club": club, **context}, status=status)


def _public_context(request: HttpRequest, club: Club) -> tuple[dict[str, Any], int]:
    context, status = _standings_context(request, club)
    live = reverse("public-live", args=[club.slug])
    context["form_url"] = reverse("public-standings", args=[club.slug])
    context["live_url"] = f"{live}?{context['query']}" if context.get("query") else live
    context["live"] = context.get("after") is None and context["board"] is not None
    return context, status


@GET
def public_standings(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = _public_club(club_slug)
    if request.GET.get("view") == "projector":
        return public_projector(request, club_slug)
    context, status = _public_context(request, club)
    return _render_public(request, club, "scoring/standings.html", context, status)


def _projector_context(request: HttpRequest, club: Club) -> tuple[dict[str, Any], int]:
    """The projector: the table asked for; asked nothing, the latest session beside the
    current season."""
    asked = any(request.GET.get(k) for k in ("table", "scope", "id", "as_of_session"))
    context, status = _standings_context(request, club, per_page=PROJECTOR_ROWS)
    boards = []
    if context["board"] is not None:
        title = context["title"]
        if context.get("after") is not None:
            title += f" · after {context['after'].name}"
        boards.append({"title": title, "board": context["board"], "live": False})
    if not asked and context["error"] is None:
        latest = selectors.session_list(club=club).first()
        if latest is not None:
            board = _standings_board(
                club, "session", latest.pk, page=1, per_page=PROJECTOR_ROWS, after=None
            )
            if board["lines"]:
                boards.insert(
                    0, {"title": latest.name, "board": board, "live": latest.status == "open"}
                )
    context["boards"] = boards
    context["any_tied"] = any(b["board"]["any_tied"] for b in boards)
    return context, status


@GET
def public_projector(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = _public_club(club_slug)
    context, status = _projector_context(request, club)
    live = reverse("public-live", args=[club.slug]) + "?view=projector"
    context["live_url"] = live + (f"&{context['query']}" if context.get("query") else "")
    return _render_public(request, club, "scoring/standings_projector.html", context, status)


@GET
def public_standings_fragment(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The live part of the public standings (or of the projector with ``?view=projector``)."""
    club = _public_club(club_slug)
    if request.GET.get("view") == "projector":
        context, status = _projector_context(request, club)
        template = "scoring/_standings_projector.html"
    else:
        context, status = _public_context(request, club)
        template = "scoring/_standings.html"
    response = _render_public(request, club, template, context, status)
    if context.get("after") is not None:
        response[LIVE_STOP] = "1"
    return response
