"""A printable score sheet of a game, to keep by hand at the table: its players' columns (seat
order), numbered rows for the deals (the games of a Rummikub match) with a figure and a running
total each, and what the format's own preview says of the preset (each outcome's points, the
format's numbers in a sentence, its house rules): every format says its own, the sheet branches
on none. The table's live link is printed as its QR code while the game is open, so a phone at
the table can enter the same deals."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from clubs.models import Club
from scoring import table_links
from scoring.formats import handler_for, points_column
from scoring.formats.base import CHIPS
from scoring.models import Game
from scoring.preset_rules import game_rules

#: Rows to fill in: one A4 page in landscape holds them with room to write.
SHEET_ROWS = 12


def _row_label(unit: str) -> str:
    """A row's heading: a deal, or a game of a Rummikub match."""
    return {"deal": gettext("Deal"), "game": gettext("Game")}.get(unit, unit.capitalize())


def score_sheet_context(club: Club, game: Game, *, origin: str) -> dict[str, Any]:
    """``origin``: the site as the request reached it (scheme and host), for the QR code."""
    handler = handler_for(game)
    rules = game_rules(game.preset)
    preview = handler.preset_preview(rules=rules)
    column = points_column(game.format) or CHIPS
    seats = [seat for seat in game.seats.all() if seat.left_after_deal is None]
    session = game.table.session
    card = None
    if game.status == Game.Status.OPEN and session.status == "open":
        link = table_links.table_links_live(tables=[game.table_id]).get(game.table_id)
        card = table_links.link_card(link=link, origin=origin) if link is not None else None
    return {
        "club": club,
        "game": game,
        "session": session,
        "table": game.table,
        "preset": game.preset,
        "format_label": game.get_format_display(),
        "players": [seat.player.name for seat in seats],
        "row_label": _row_label(handler.words.unit),
        "unit": gettext(column.unit),
        "wild": handler.words.wild,
        "rows": range(1, SHEET_ROWS + 1),
        "preview": preview,
        "deal_note": gettext(handler.deal_note(rules=rules)),
        "card": card,
    }
