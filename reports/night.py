"""A night's report: the scoreboard and settle-up exactly as the night's page shows them
(``scoring.views.sessions.scoreboard_context``: one source for every figure), and every deal of
every game from the ledger's lines (``scoring.history.session_ledger_lines``, the CSV's)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clubs.models import Club
from clubs.page_kit.display import club_money, signed_number
from scoring.formats import format_label, points_column
from scoring.history import LedgerLine, session_ledger_lines
from scoring.models import Session
from scoring.views.sessions import scoreboard_context


@dataclass
class GameDeals:
    """One game of the night: its players and, per deal, each one's figure in the game's unit."""

    table: str
    label: str
    unit: str
    players: list[str] = field(default_factory=list)
    deals: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "number": number,
                "voided": deal["voided"],
                "tiebreak": deal["tiebreak"],
                "cells": [deal["figures"].get(name, "") for name in self.players],
                "winners": ", ".join(deal["winners"]),
            }
            for number, deal in sorted(self.deals.items())
        ]


def _games(lines: list[LedgerLine]) -> list[GameDeals]:
    games: dict[int, GameDeals] = {}
    for line in lines:
        if line.kind != "deal" or line.game_id is None or line.deal_number is None:
            continue
        column = points_column(line.game_format)
        game = games.get(line.game_id)
        if game is None:
            unit = column.unit if column is not None else "chips"
            game = GameDeals(line.table_name, format_label(line.game_format), unit)
            games[line.game_id] = game
        if line.player_name not in game.players:
            game.players.append(line.player_name)
        deal = game.deals.setdefault(
            line.deal_number,
            {"voided": False, "tiebreak": False, "figures": {}, "winners": []},
        )
        deal["voided"] = deal["voided"] or line.deal_voided
        deal["tiebreak"] = deal["tiebreak"] or line.breaks_tie
        value = line.points if column is not None else line.chips
        deal["figures"][line.player_name] = signed_number(value)
        if line.won:
            deal["winners"].append(line.player_name)
    return list(games.values())


def _other_lines(club: Club, lines: list[LedgerLine]) -> list[dict[str, str]]:
    """Fees, prizes and refunds of the night's accounts: money only, so none where the club
    plays for points only."""
    if club.points_only:
        return []
    return [
        {
            "what": line.kind_label,
            "where": line.table_name,
            "player": line.player_name,
            "amount": club_money(club, line.money_minor, signed=True),
        }
        for line in lines
        if line.kind != "deal" and line.money_minor
    ]


def night_report_context(club: Club, session: Session) -> dict[str, Any]:
    lines = session_ledger_lines(session=session)
    return {
        "club": club,
        "points_only": club.points_only,
        **scoreboard_context(club, session),
        "games": _games(lines),
        "other_lines": _other_lines(club, lines),
    }
