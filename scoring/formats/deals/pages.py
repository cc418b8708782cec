"""How the game page shows a deals game: chips per player, the prize, and the tie-breaker deal."""

from __future__ import annotations

from typing import Any

from clubs.models import Club
from clubs.page_kit.display import club_money
from clubs.page_kit.pages import club_url
from scoring.formats.deals.state import DealsState
from scoring.models import Game


def panel(club: Club, game: Game, state: DealsState, open_game: bool) -> dict[str, Any]:
    """Each player's chips against the leader, the prize, and the tie-breaker when one is due."""
    names = {line.player: line.name for line in state.players}
    leaders = set(state.leaders)
    top = max((line.chips for line in state.players), default=0) or 1
    players = [
        {
            "player": line.player,
            "name": line.name,
            "chips": line.chips,
            "leads": line.player in leaders,
            "won": state.winner == line.player,
            "percent": round(line.chips * 100 / top),
        }
        for line in state.players
    ]
    return {
        "state": state,
        "players": players,
        "prize": club_money(club, state.prize_minor),
        "club_fee": club_money(club, state.club_fee_minor),
        "winner": names.get(state.winner) if state.winner else "",
        "tied": [names[pid] for pid in state.leaders] if state.tiebreaker_needed else [],
        "tiebreaker_url": club_url("deal-tiebreaker", club, game.pk)
        if open_game and state.tiebreaker_needed
        else "",
    }
