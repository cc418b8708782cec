"""The panel a game page shows for its format (the format's own view-model and template), and
what the game paid out once it ended."""

from __future__ import annotations

from typing import Any

from clubs.models import Club
from clubs.page_kit.display import club_money
from scoring import figures
from scoring.formats import GameState, handler_for
from scoring.models import Game
from scoring.preset_rules import game_rules


def _paid(club: Club, game: Game, names: dict[int, str]) -> list[dict[str, str]]:
    """Who received what when the game paid out (prize, split or settlement)."""
    if game.status != Game.Status.FINISHED or club.points_only:
        return []
    payouts = figures.game_payouts(game=game)
    return [
        {"name": names.get(pid, "?"), "amount": club_money(club, amount, signed=True),
         "value": str(amount)}
        for pid, amount in sorted(payouts.items(), key=lambda item: -item[1])
    ]  # fmt: skip


def game_panel(club: Club, game: Game, state: GameState, open_game: bool) -> dict[str, Any]:
    """The section of the game page for its format (empty for one that has none)."""
    handler = handler_for(game)
    if not handler.panel_template:
        return {"template": "", "state": state}
    names = {line.player: line.name for line in state.players}
    return {
        "template": handler.panel_template,
        "state": state,
        **handler.panel(
            club=club, game=game, rules=game_rules(game.preset), state=state, open_game=open_game
        ),
        "paid": _paid(club, game, names),
    }
