"""How the pages show a Rummikub match: a game's racks and scores on the deal page (a rejected
version's racks with the tiles the reasons name marked), the match panel of the game page, and
what the entry page's script needs."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

from clubs.models import Club
from clubs.page_kit.display import club_money, signed_number
from rules.rummikub.preset import RummikubPreset
from scoring.formats.cards import tiles_view
from scoring.formats.rummikub.entry_rules import rack_entry_rules
from scoring.formats.rummikub.forms import WIN_WORDS
from scoring.formats.rummikub.state import RummikubState
from scoring.models import Game, Submission

#: A game's outcomes as the deal page shows them.
RESULT_WORDS = {
    "winner": gettext_noop("Went out"),
    "loser": gettext_noop("Lost"),
    "no_winner": gettext_noop("Pool ran out"),
}


def result_view(
    club: Club, game: Game, submission: Submission, names: dict[int, str], international: bool
) -> dict[str, Any]:
    """A game of a Rummikub match as the deal page shows it: each rack and score, how it was
    won, and a closed hand's type and arrangement; a rejected version's racks with the tile the
    reasons name marked."""
    result = submission.result or {}
    payload = submission.payload or {}
    view: dict[str, Any] = {}
    # International settles at the end of the match; the other variants pay each game's score.
    rate = 0 if international else game.point_value_minor
    if result:
        view["players"] = [
            {
                "name": line.get("name") or names.get(line.get("player"), "?"),
                "outcome": gettext(RESULT_WORDS.get(line.get("outcome"), line.get("outcome"))),
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
        win = WIN_WORDS.get(result.get("win") or "", "")
        view["win"] = gettext(win) if win else ""
        if result.get("winner") is None:
            view["win"] = gettext("Nobody went out: the pool ran out")
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
        racks: dict[str, Any] = payload["racks"] if isinstance(payload.get("racks"), dict) else {}
        view["racks"] = [
            {"name": names.get(int(pid), pid) if str(pid).isdigit() else pid,
             "tiles": tiles_view(tiles, bad)}
            for pid, tiles in racks.items()
            if isinstance(tiles, list) and tiles
        ]  # fmt: skip
        if isinstance(payload.get("closed_hand"), list):
            view["closed_entered"] = tiles_view(payload["closed_hand"], bad)
    return view


def panel(club: Club, game: Game, state: RummikubState) -> dict[str, Any]:
    """A match's totals, who leads, how it ends and, for International with a rate, each
    player's settlement."""
    names = {line.player: line.name for line in state.players}
    leaders = set(state.leaders)
    settlement = state.settlement_minor
    players = [
        {
            "player": line.player,
            "name": line.name,
            "total": line.total,
            "total_text": signed_number(line.total),
            "leads": line.player in leaders and state.games_counted > 0,
            "settle": club_money(club, settlement[str(line.player)], signed=True)
            if str(line.player) in settlement
            else "",
            "settle_value": settlement.get(str(line.player), 0),
        }
        for line in state.players
    ]
    match = state.match
    limits = {"games": match.games, "target": match.target_score}
    if match.games and match.target_score:
        ends = gettext(
            "The match ends after %(games)s games, when a total reaches %(target)s or when the "
            "organiser finishes it."
        )
    elif match.games:
        ends = gettext("The match ends after %(games)s games or when the organiser finishes it.")
    elif match.target_score:
        ends = gettext(
            "The match ends when a total reaches %(target)s or when the organiser finishes it."
        )
    else:
        ends = gettext("The match ends when the organiser finishes it.")
    return {
        "state": state,
        "players": players,
        "variant": state.variant.capitalize(),
        "ends": ends % limits,
        "leaders": [names[pid] for pid in state.leaders] if state.games_counted else [],
        "has_settlement": bool(settlement) and not club.points_only,
        "rate": club_money(club, game.point_value_minor),
    }


def entry_context(rules: RummikubPreset, international: bool) -> dict[str, Any]:
    """The variant, and the tile values the entry page's script counts racks with (the rules
    engine's own)."""
    return {
        "variant": rules.variant,
        "international": international,
        "entry_rules": rack_entry_rules(rules, international=international),
    }
