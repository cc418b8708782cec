"""The session page (tables, games, the live scoreboard and settle-up), opening and closing a
session, adding a table, and the session as CSV."""

from __future__ import annotations

import csv
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from clubs.display import club_money, signed_number
from clubs.models import Club, Role
from clubs.pages import GET, club_for_page, club_url, form_post, found, render_club
from clubs.views import club_home_page
from scoring import selectors, services
from scoring.forms import SessionForm, TableForm
from scoring.models import GameFormat, Session
from scoring.views.common import LIVE_STOP


@login_required
@require_POST
def session_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    form = SessionForm(request.POST)

    def create() -> HttpResponse:
        session = services.session_create(
            club=club, actor=request.user, name=form.cleaned_data["name"]
        )
        messages.success(request, f"Session “{session.name}” is open. Add a table to start.")
        return redirect(club_url("session-page", club, session.pk))

    values = {"session_name": request.POST.get("name", "")}
    page = partial(club_home_page, request, club, form_name="session", values=values)
    return form_post(form, create, page, fields={"name"})


def _scoreboard_context(club: Club, session: Session) -> dict[str, Any]:
    board = selectors.session_scoreboard(session=session)
    transfers = selectors.session_settlement(session=session, scoreboard=board)
    has_money = any(line.money_minor for line in board.lines) or bool(board.club_money_minor)
    return {
        "session": session,
        "board": board,
        "has_money": has_money,
        "has_chips": any(line.chips for line in board.lines),
        "formats": [GameFormat(f).label for f in board.formats],
        "lines": [
            {
                "line": line,
                "rank": index + 1,
                "points": signed_number(line.points),
                "points_value": line.points,
                "by_format": [
                    {"points": signed_number(value), "value": value}
                    for value in line.points_by_format.values()
                ],
                "money": club_money(club, line.money_minor, signed=True),
                "money_value": line.money_minor,
                "url": club_url("player-page", club, line.player_id),
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
    session = found(selectors.session_get, club=club, session_id=session_id)
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
                    "url": club_url("game-page", club, game.pk),
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
    session = found(selectors.session_get, club=club, session_id=session_id, with_tables=False)
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
    session = found(selectors.session_get, club=club, session_id=session_id, with_tables=False)
    form = TableForm(request.POST)

    def create() -> HttpResponse:
        table = services.table_create(
            session=session, actor=request.user, name=form.cleaned_data["name"] or None
        )
        messages.success(request, f"{table.name} is ready: start a game at it.")
        return redirect(club_url("game-new", club, table.pk))

    page = partial(_session_page, request, club, session_id, form_name="table")
    return form_post(form, create, page, fields={"name"})


@login_required
@require_POST
def session_close(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    session = found(selectors.session_get, club=club, session_id=session_id, with_tables=False)

    def close() -> HttpResponse:
        services.session_close(session=session, actor=request.user)
        messages.success(request, f"“{session.name}” is closed. Here is the settle-up.")
        return redirect(club_url("session-page", club, session.pk) + "#settle-up")

    page = partial(_session_page, request, club, session_id, form_name="close")
    return form_post(None, close, page)


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
    session = found(selectors.session_get, club=club, session_id=session_id, with_tables=False)
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
    # A night of several formats adds a points column per format, after the usual ones.
    by_format_heads = [f"points ({GameFormat(f).label})" for f in board.formats]
    writer.writerow(
        ["player", "net points", money_head, "deals played", "deals won", *by_format_heads]
    )
    for line in board.lines:
        writer.writerow(
            [
                line.name,
                line.points,
                _csv_amount(line.money_minor, places),
                line.deals_played,
                line.deals_won,
                *line.points_by_format.values(),
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
