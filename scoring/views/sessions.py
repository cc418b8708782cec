"""The session page (tables, games, the live scoreboard and settle-up), opening and closing a
session, adding a table, and the session as CSV."""

from __future__ import annotations

import csv
import zoneinfo
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.models import Club, Role
from clubs.page_kit.display import club_money, signed_number
from clubs.page_kit.pages import GET, club_for_page, club_url, form_post, found, render_club
from ledger.models import Quantity
from scoring import figures, games, nights, selectors, table_links, undo
from scoring.formats import Column, format_label, points_column
from scoring.forms import TableForm
from scoring.history import session_ledger_lines
from scoring.models import Session
from scoring.views.common import LIVE_STOP
from scoring.views.settle_up import settle_up_rows


def _cell(club: Club, column: Column, value: int) -> dict[str, Any]:
    text = (
        club_money(club, value, signed=True)
        if column.quantity == Quantity.MONEY
        else signed_number(value)
    )
    return {"text": text, "value": value}


def scoreboard_context(club: Club, session: Session) -> dict[str, Any]:
    """The scoreboard and settle-up as the night's page shows them (its PDF report reads them
    here too: one source for every figure)."""
    board = figures.session_scoreboard(session=session)
    transfers = figures.session_settle_up(session=session, scoreboard=board)
    columns = board.columns
    money_shown = not club.points_only  # a club that plays for points only shows no money
    if not money_shown:
        columns = [c for c in columns if c.quantity != Quantity.MONEY]
    elif not any(line.money_minor for line in board.lines) and not board.club_money_minor:
        columns = [c for c in columns if c.quantity != Quantity.MONEY or board.pots]
    return {
        "session": session,
        "board": board,
        "columns": columns,
        "lines": [
            {
                "line": line,
                "rank": index + 1,
                "cells": [_cell(club, column, _value(line, column)) for column in columns],
                "url": club_url("player-page", club, line.player_id),
            }
            for index, line in enumerate(board.lines)
        ],
        "money_shown": money_shown,
        "club_fees": club_money(club, board.club_money_minor)
        if money_shown and board.club_money_minor
        else "",
        "pots": [{"pot": pot, "amount": club_money(club, pot.amount_minor)} for pot in board.pots]
        if money_shown
        else [],
        "transfers": settle_up_rows(club, transfers),
        "updated_at": timezone.now(),
    }


def _value(line: figures.ScoreLine, column: Column) -> int:
    if column.quantity == Quantity.MONEY:
        return line.money_minor
    if column.quantity == Quantity.CHIPS:
        return line.chips
    return line.points_by_format[column.key]


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
    busy = selectors.games_with_history(session=session)
    links = table_links.table_links_live(tables=[t.pk for t in session.tables.all()])
    origin = f"{request.scheme}://{request.get_host()}"
    for table in session.tables.all():
        table_games = []
        for game in table.games.all():
            table_games.append(
                {
                    "game": game,
                    "seats": list(game.seats.all()),
                    "point_value": club_money(club, game.point_value_minor)
                    if game.point_value_minor and not club.points_only
                    else "",
                    "url": club_url("game-page", club, game.pk),
                }
            )
        played = any(g["game"].pk in busy for g in table_games)
        link = links.get(table.pk)
        card = table_links.link_card(link=link, origin=origin) if link is not None else None
        tables.append({"table": table, "games": table_games, "played": played, "card": card})
    blockers = []
    if session.status == Session.Status.OPEN:
        blockers = [
            _blocker(club, blocker) for blocker in nights.session_close_blockers(session=session)
        ]
    context = {
        "session": session,
        "tables": tables,
        "table_entry": table_links.night_table_entry(club=club),
        "error": error,
        "form_name": form_name,
        "live": session.status == Session.Status.OPEN,
        "blockers": blockers,
        "accounts": [
            {
                "name": a.name,
                "open": a.open,
                "status": a.status,
                "held": club_money(club, a.held_minor),
                "paid": [(name, club_money(club, amount)) for name, amount in a.paid_in],
            }
            for a in selectors.session_accounts(session=session)
        ],
        "played": bool(busy),
        **scoreboard_context(club, session),
    }
    return render_club(request, club, "scoring/session.html", context, status)


ACTION_WORDS = {
    "enter_result": gettext_lazy("Enter its result"),
    "void": gettext_lazy("Void it (never played)"),
    "confirm": gettext_lazy("Confirm its result"),
    "wait": gettext_lazy("Wait for the check"),
    "abandoned": gettext_lazy("Stop the game and refund the pot"),
}


def _blocker(club: Club, blocker: nights.CloseBlocker) -> dict[str, Any]:
    """What keeps the night open, with a link or a button for each way to resolve it."""
    actions = []
    for action in blocker.actions:
        if action in ("enter_result", "confirm", "wait") and blocker.deal_id:
            url = club_url(
                "deal-result" if action == "enter_result" else "deal-page", club, blocker.deal_id
            )
            actions.append({"label": ACTION_WORDS[action], "url": url})
        elif action == "void" and blocker.deal_id:
            actions.append(
                {
                    "label": ACTION_WORDS[action],
                    "post": club_url("deal-void-page", club, blocker.deal_id),
                    "fields": {},
                }
            )
        elif action in ACTION_WORDS:
            actions.append(
                {
                    "label": ACTION_WORDS[action],
                    "post": club_url("game-finish-page", club, blocker.game_id),
                    "fields": {"end": action},
                }
            )
    return {
        "blocker": blocker,
        "actions": actions,
        "game_url": club_url("game-page", club, blocker.game_id) if blocker.game_id else "",
    }


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
        request, club, "scoring/_scoreboard.html", scoreboard_context(club, session)
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
        table = games.table_create(
            session=session, actor=request.user, name=form.cleaned_data["name"] or None
        )
        messages.success(
            request, _("%(table)s is ready: start a game at it.") % {"table": table.name}
        )
        return redirect(club_url("game-new", club, table.pk))

    page = partial(_session_page, request, club, session_id, form_name="table")
    return form_post(form, create, page, fields={"name"})


@login_required
@require_POST
def session_close(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    session = found(selectors.session_get, club=club, session_id=session_id, with_tables=False)

    def close() -> HttpResponse:
        nights.session_close(session=session, actor=request.user)
        messages.success(
            request, _("“%(night)s” is closed. Here is the settle-up.") % {"night": session.name}
        )
        return redirect(club_url("session-page", club, session.pk) + "#settle-up")

    page = partial(_session_page, request, club, session_id, form_name="close")
    return form_post(None, close, page)


def _csv_amount(minor: int, places: int) -> str:
    sign = "-" if minor < 0 else ""
    if not places:
        return f"{sign}{abs(minor)}"
    whole, fraction = divmod(abs(minor), 10**places)
    return f"{sign}{whole}.{fraction:0{places}d}"


# A spreadsheet reads a cell starting with one of these as a formula (or, after a tab or a
# carriage return, may): names and labels typed by users get a leading apostrophe.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _csv_text(value: str) -> str:
    return f"'{value}" if value.startswith(_FORMULA_STARTS) else value


@login_required
@GET
def session_export(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    """The night as CSV, every figure from the ledger: one line per player per deal or other
    entry (fees, prizes, refunds), then each player's totals (money, chips, and a points column
    per game format, never added across formats), the pots still held and the settle-up. A club
    that plays for points only has no money column, fees or pots, and settles in points."""
    club = club_for_page(request, club_slug)
    session = found(selectors.session_get, club=club, session_id=session_id, with_tables=False)
    board = figures.session_scoreboard(session=session)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{club.slug}-session-{session.pk}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    money = not club.points_only
    money_cell = partial(_csv_money, club)
    money_head = [f"money ({club.currency})"] if money else []
    writer.writerow(["ledger"])
    writer.writerow(
        [
            "session", "table", "game", "format", "what", "version", "player", "outcome",
            "against", "points", "unit", "chips", *money_head,
        ]
    )  # fmt: skip
    for row in session_ledger_lines(session=session):
        column = points_column(row.game_format)
        writer.writerow(
            [
                _csv_text(row.session_name), _csv_text(row.table_name), row.game_id,
                row.game_format, _csv_text(row.kind_label), row.version or "",
                _csv_text(row.player_name), _csv_text(row.outcome),
                "" if row.against is None else row.against,
                row.points if column is not None else "", column.unit if column is not None else "",
                row.chips, *money_cell(row.money_minor),
            ]
        )  # fmt: skip
    writer.writerow([])
    writer.writerow(["totals"])
    points_heads = [f"points ({format_label(f)})" for f in board.formats]
    writer.writerow(["player", *money_head, "chips", "deals played", "deals won", *points_heads])
    for line in board.lines:
        writer.writerow(
            [
                _csv_text(line.name), *money_cell(line.money_minor), line.chips,
                line.deals_played, line.deals_won,
                *[line.points_by_format[f] for f in board.formats],
            ]
        )  # fmt: skip
    if money and board.club_money_minor:
        fees = board.club_money_minor
        writer.writerow([_csv_text(f"{club.name} (club fees)"), *money_cell(fees)])
    for pot in board.pots if money else []:
        writer.writerow([_csv_text(pot.label), *money_cell(pot.amount_minor)])
    writer.writerow([])
    writer.writerow(["settle-up"])
    _csv_settle_up(writer, club, figures.session_settle_up(session=session, scoreboard=board))
    return response


def _csv_money(club: Club, minor: int) -> list[str]:
    """A row's money cell: none for a club that plays for points only."""
    return [] if club.points_only else [_csv_amount(minor, club.minor_places)]


def _csv_settle_up(writer: Any, club: Club, transfers: list[figures.SettlementTransfer]) -> None:
    if club.points_only:
        writer.writerow(["payer", "payee", "points", "unit"])
        for transfer in transfers:
            column = points_column(transfer.game_format or "")
            writer.writerow(
                [_csv_text(transfer.payer), _csv_text(transfer.payee), transfer.points,
                 column.unit if column is not None else ""]
            )  # fmt: skip
        return
    writer.writerow(["payer", "payee", f"money ({club.currency})", "marked paid by",
                     "marked paid at"])  # fmt: skip
    zone = zoneinfo.ZoneInfo(club.timezone)
    for transfer in transfers:
        paid = transfer.paid
        writer.writerow(
            [
                _csv_text(transfer.payer),
                _csv_text(transfer.payee),
                _csv_amount(transfer.amount_minor or 0, club.minor_places),
                _csv_text(paid.marked_by.get_username()) if paid else "",
                # ISO 8601 with the offset, in the club's time zone: the time the page shows.
                timezone.localtime(paid.marked_at, zone).isoformat(timespec="seconds")
                if paid else "",
            ]
        )  # fmt: skip


def _session_action(request: HttpRequest, club_slug: str, session_id: int, write: Any,
                    anchor: str = "") -> HttpResponse:  # fmt: skip
    """An organiser's button on the session page: ``write(club, session)`` says what it did and
    where to go; a refusal shows the session page with the service's message."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    session = found(selectors.session_get, club=club, session_id=session_id)

    def run() -> HttpResponse:
        said, to = write(club, session)
        messages.success(request, said)
        return redirect(to or club_url("session-page", club, session.pk) + anchor)

    page = partial(_session_page, request, club, session_id, form_name="close")
    return form_post(None, run, page)


@login_required
@require_POST
def session_reopen(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    def reopen(club: Club, session: Session) -> tuple[str, str]:
        nights.session_reopen(session=session, actor=request.user)
        return (
            _("“%(name)s” is open again: close it when the late changes are in.")
            % {"name": session.name},
            "",
        )

    return _session_action(request, club_slug, session_id, reopen)


@login_required
@require_POST
def session_delete(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    def delete(club: Club, session: Session) -> tuple[str, str]:
        undo.session_delete(session=session, actor=request.user)
        return _("“%(name)s” is deleted.") % {"name": session.name}, club_url("club-home", club)

    return _session_action(request, club_slug, session_id, delete)


@login_required
@require_POST
def table_delete(
    request: HttpRequest, club_slug: str, session_id: int, table_id: int
) -> HttpResponse:
    def delete(club: Club, session: Session) -> tuple[str, str]:
        table = found(selectors.table_get, club=club, table_id=table_id)
        undo.table_delete(table=table, actor=request.user)
        return _("%(name)s is deleted.") % {"name": table.name}, ""

    return _session_action(request, club_slug, session_id, delete)


@login_required
@require_POST
def transfer_paid(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    def mark(club: Club, session: Session) -> tuple[str, str]:
        paid = request.POST.get("paid", "1") == "1"
        nights.transfer_mark_paid(
            session=session, actor=request.user, payer=request.POST.get("payer", ""),
            payee=request.POST.get("payee", ""), paid=paid,
        )  # fmt: skip
        return (_("Marked paid.") if paid else _("The paid mark is taken back.")), ""

    return _session_action(request, club_slug, session_id, mark, "#settle-up")
